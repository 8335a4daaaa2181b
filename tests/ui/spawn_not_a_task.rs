#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Spawning a plain function is an error that says what spawn! takes.
#[gtap::program]
mod p {
    fn helper(n: u32) -> u64 {
        n as u64
    }

    #[gtap::task]
    fn t(n: u32) -> u64 {
        let a = spawn!(helper(n));
        taskwait!();
        a.get()
    }
}

fn main() {}
