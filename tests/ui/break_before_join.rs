#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Leaving a block before its children are joined would let them write into reused storage.
#[gtap::program]
mod p {
    #[gtap::task]
    fn t(n: u32) -> u64 {
        let mut total = 0;
        for i in 0..n {
            let a = spawn!(t(i));
            if i == 3 {
                break;
            }
            taskwait!();
            total += a.get();
        }
        total
    }
}

fn main() {}
