#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// `split = true` on a program none of whose tasks can be split is an error that says which
// tasks can (here the result is signed).
#[gtap::program(split = true)]
mod p {
    #[gtap::task]
    fn fib(n: u32) -> i64 {
        if n < 2 {
            return n as i64;
        }
        let a = spawn!(fib(n - 1));
        let b = spawn!(fib(n - 2));
        taskwait!();
        a.get() + b.get()
    }
}

fn main() {}
