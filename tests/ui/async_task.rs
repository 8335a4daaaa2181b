#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Tasks suspend at taskwait!(), not at .await.
#[gtap::program]
mod p {
    #[gtap::task]
    async fn t(n: u32) -> u32 {
        n
    }
}

fn main() {}
