#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A task's options are checked: the valid ones are listed, `seq` takes a function's path,
// and a block task, or any task of a program with block tasks, has no sequential version.
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

#[gtap::program]
mod mixed_with_seq {
    use gtap::Block;

    fn leaf_seq(n: u32) -> u32 {
        n
    }

    #[gtap::task(seq = leaf_seq)]
    fn leaf(n: u32) -> u32 {
        n
    }

    #[gtap::task(block)]
    fn team(_b: Block, n: u32) {
        spawn!(leaf(n));
    }
}

fn main() {}
