#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A child may run after the parent's stack is gone: no references into it.
#[gtap::program]
mod p {
    #[gtap::task]
    fn sum(xs: &[u64]) -> u64 {
        xs.iter().sum()
    }
}

fn main() {}
