#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// The sequential version a task names takes the task's arguments and returns its result.
#[gtap::program]
mod p {
    fn count_seq(n: u64) -> u32 {
        n as u32
    }

    #[gtap::task(seq = count_seq)]
    pub fn count(n: u32) -> u64 {
        n as u64
    }
}

fn main() {}
