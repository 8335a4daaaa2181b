#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A child may run on another thread: what it is given must be `Send` (a `&Cell` is not).
use std::cell::Cell;

#[gtap::program]
mod p {
    use super::Cell;

    #[gtap::task]
    pub fn bump(c: &Cell<u32>) {
        c.set(c.get() + 1);
    }
}

fn main() {}
