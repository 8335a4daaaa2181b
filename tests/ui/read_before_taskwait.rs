#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A child's result cannot be read before the taskwait that joins it.
#[gtap::program]
mod p {
    #[gtap::task]
    fn fib(n: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        let a = spawn!(fib(n - 1));
        let early = a.get();
        taskwait!();
        early
    }
}

fn main() {}
