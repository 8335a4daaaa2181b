#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A task's options are checked: the valid ones are listed, `seq` takes a function's path,
// and a block task has no sequential version to name.
#[gtap::program]
mod unknown {
    #[gtap::task(cutoff = 7)]
    fn t() {}
}

#[gtap::program]
mod not_a_path {
    #[gtap::task(seq = 3)]
    fn t() {}
}

#[gtap::program]
mod block_with_seq {
    use gtap::Block;

    fn t_seq() {}

    #[gtap::task(block, seq = t_seq)]
    fn t(_b: Block) {}
}

fn main() {}
