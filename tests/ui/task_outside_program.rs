#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A task must live in a program module, which is what gives the program its task enum.
#[gtap::task]
fn lonely(n: u32) -> u32 {
    n
}

fn main() {}
