#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// spawn! belongs to the task's own body, not to closures inside it.
#[gtap::program]
mod p {
    #[gtap::task]
    fn t(n: u32) {
        let f = || {
            spawn!(t(n - 1));
        };
        f();
    }
}

fn main() {}
