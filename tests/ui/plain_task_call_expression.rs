#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Task calls used as values: one error per call, each saying to spawn it (or to call
// `seq::fib`), and no type errors about adding `Call`s.
#[gtap::program]
mod p {
    #[gtap::task]
    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        fib(n - 1) + fib(n - 2)
    }
}

fn main() {}
