#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A result outlives what the task borrowed: it cannot borrow.
#[gtap::program]
mod p {
    #[gtap::task]
    pub fn first(xs: &[u32]) -> &[u32] {
        &xs[..1]
    }
}

fn main() {}
