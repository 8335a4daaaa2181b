#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A child without a handle is joined by whichever taskwait comes next, so it may only borrow
// what its parent holds for the parent's whole life, never a local of the parent.
#[gtap::program]
mod p {
    #[gtap::task]
    fn sum(xs: &[u64]) -> u64 {
        xs.iter().sum()
    }

    #[gtap::task]
    fn parent(n: u64) {
        let local = [n; 4];
        spawn!(sum(&local));
        taskwait!();
    }
}

fn main() {}
