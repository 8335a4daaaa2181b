#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Arguments move between threads and task records, and the GPU never drops them: a type
// that owns memory (drop glue) cannot be one.
pub struct Big {
    pub v: Vec<u64>,
}

#[gtap::program]
mod p {
    use super::Big;

    #[gtap::task]
    pub fn t(b: Big) -> u64 {
        b.v[0]
    }
}

fn main() {}
