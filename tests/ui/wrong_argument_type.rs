#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Task calls are checked like function calls.
#[gtap::program]
mod p {
    #[gtap::task]
    fn fib(n: u32) -> u64 {
        let a = spawn!(fib("one"));
        taskwait!();
        a.get() + n as u64
    }
}

fn main() {}
