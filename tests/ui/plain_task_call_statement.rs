#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A task called like a function, as a statement, runs nothing: an error that says to spawn it.
#[gtap::program]
mod p {
    #[gtap::task]
    pub fn count(n: u32) {
        if n > 0 {
            count(n - 1);
        }
    }
}

fn main() {}
