#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A view's lifetime is written `'_` in a task's parameters.
#[gtap::program]
mod p {
    use gtap::View;

    #[gtap::task]
    pub fn sum(v: View<u32>) -> u32 {
        v.as_slice().iter().sum()
    }
}

fn main() {}
