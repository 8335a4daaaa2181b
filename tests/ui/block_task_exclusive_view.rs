#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Every thread of a block task has its own copy of the frame: an exclusive view would be
// held by all of them at once.
#[gtap::program]
mod p {
    use gtap::{Block, ViewMut};

    #[gtap::task(block)]
    pub fn scale(b: Block, v: ViewMut<'_, f32>) {
        let _ = (b, v);
    }
}

fn main() {}
