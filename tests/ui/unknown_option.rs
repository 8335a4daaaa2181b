#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Options are checked, and the message lists the valid ones.
#[gtap::program(max_frame = 128)]
mod p {
    #[gtap::task]
    fn t() {}
}

fn main() {}
