#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Arguments are copied into the child's record, so they must be Copy.
pub struct Big {
    pub v: [u64; 4],
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
