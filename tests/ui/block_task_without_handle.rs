#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A block task takes its `Block` handle first.
#[gtap::program]
mod p {
    #[gtap::task(block)]
    fn t(n: u32) -> u32 {
        n
    }
}

fn main() {}
