#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A program's tasks are all thread tasks or all block tasks.
#[gtap::program]
mod p {
    use gtap::Block;

    #[gtap::task(block)]
    fn b(_b: Block) {}

    #[gtap::task]
    fn t() {}
}

fn main() {}
