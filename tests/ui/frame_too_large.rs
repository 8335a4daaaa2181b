#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A frame larger than max_frame_bytes is an error that names the task and the setting.
#[gtap::program(max_frame_bytes = 64)]
mod p {
    #[gtap::task]
    fn big(n: u32) -> u64 {
        let table = [n as u64; 32];
        let a = spawn!(big(n - 1));
        taskwait!();
        a.get() + table.iter().sum::<u64>()
    }
}

fn main() {}
