#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// spawn! is a statement: its handle needs a place that stays put until the join.
#[gtap::program]
mod p {
    #[gtap::task]
    fn t(n: u32) -> u64 {
        let v = [spawn!(t(n - 1))];
        taskwait!();
        0
    }
}

fn main() {}
