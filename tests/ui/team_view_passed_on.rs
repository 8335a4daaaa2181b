#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// A block task's threads each hold a `TeamMut` of its exclusive view: none may pass it on to
// a child, whose threads would reach the same shares while the parent's still do.
#[gtap::program]
mod p {
    use gtap::{Block, TeamMut};

    #[gtap::task(block)]
    pub fn scale(b: Block, mut v: TeamMut<'_, f32>) {
        for x in v.share(b) {
            *x *= 2.0;
        }
        spawn!(scale(v));
        taskwait!();
    }
}

fn main() {}
