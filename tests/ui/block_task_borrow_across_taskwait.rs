#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// Every thread of a block resumes its own copy of the frame: no borrow of a local may live
// across a taskwait (the frame must be movable).
#[gtap::program]
mod p {
    use gtap::Block;

    #[gtap::task(block)]
    fn leaf(_b: Block) -> u64 {
        1
    }

    #[gtap::task(block)]
    fn t(_b: Block) -> u64 {
        let local = [1u64; 4];
        let r = &local;
        let h = spawn!(leaf());
        taskwait!();
        r[0] + h.get()
    }
}

fn main() {}
