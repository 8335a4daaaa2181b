#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A program is one enum of concrete frames, so tasks cannot be generic.
#[gtap::program]
mod p {
    #[gtap::task]
    fn t<T: Copy>(x: T) -> T {
        x
    }
}

fn main() {}
