#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A bound child must be joined before its handle's block ends.
#[gtap::program]
mod p {
    #[gtap::task]
    fn t(n: u32) -> u64 {
        if n > 0 {
            let a = spawn!(t(n - 1));
        }
        taskwait!();
        0
    }
}

fn main() {}
