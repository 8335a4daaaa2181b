//! A block task's `TeamMut` on the CPU backend: each thread writes its own share, before and
//! after a taskwait (the frame, `TeamMut` included, is copied to every thread of the team at
//! the resumption), on teams of every size against views of every length.
#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
#[gtap::program(name = "tmp_team")]
mod p {
    use gtap::{Block, TeamMut, ViewMut};

    /// Lends all of `v` to one block task.
    #[gtap::task]
    pub fn root(mut v: ViewMut<'_, u32>) {
        let h = spawn!(twice(v.reborrow()));
        taskwait!();
        let _ = h;
    }

    /// Adds 1 to every element, then what a child returns (1), each thread to its share.
    #[gtap::task(block)]
    pub fn twice(b: Block, mut v: TeamMut<'_, u32>) {
        for x in v.share(b) {
            *x += 1;
        }
        let h = spawn!(leaf(1));
        taskwait!();
        let k = h.get();
        for x in v.share(b) {
            *x += k;
        }
    }

    /// Returns `x`.
    #[gtap::task]
    pub fn leaf(x: u32) -> u32 {
        x
    }
}

#[test]
fn each_thread_writes_its_share_before_and_after_a_taskwait() {
    use gtap::host::cpu::{CpuConfig, CpuRuntime};
    for team in [1, 2, 3, 8] {
        let mut rt = CpuRuntime::new(CpuConfig::new().threads(2).team(team)).unwrap();
        for n in [0, 1, 7, 100] {
            let mut xs = vec![0u32; n];
            rt.run(p::root(gtap::ViewMut::from_slice(&mut xs))).unwrap();
            assert_eq!(xs, vec![2u32; n], "team {team}, {n} elements");
        }
    }
}
