#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A spawn written without `spawn!`: one error per call, and none about `get` on the
// handles that were meant.
#[gtap::program]
mod p {
    #[gtap::task]
    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let a = fib(n - 1);
        let b = fib(n - 2);
        taskwait!();
        a.get() + b.get()
    }
}

fn main() {}
