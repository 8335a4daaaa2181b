//! The batch a warp's round runs: where each lane reads its task id, as lane 0 took it
//! (`take.rs`), and its encoding in four words of the warp's shared state, through which the
//! lanes read it.

use super::layout::MAX_QUEUES;
use crate::arch::WARP_SIZE;

/// Where the lanes of a round read their task ids from.
#[derive(Clone, Copy)]
pub(super) struct Batch {
    /// Ids taken in total (lanes `0..n` run one each).
    pub(super) n: u32,
    /// Lanes `0..kept` read `ring(warp, queue, kept_base + lane)`.
    pub(super) kept: u32,
    pub(super) kept_base: u32,
    /// Lanes `kept..n` read `ring(src_warp, queue, src_base + lane - kept)`.
    pub(super) src_warp: u32,
    pub(super) src_base: u32,
    pub(super) queue: u32,
    /// A steal: lane 0 must advance the victim's head by `n - kept` and unlock afterwards.
    pub(super) stolen: bool,
    /// Lanes `kept..n` read the global queue's slots `src_base + lane - kept` instead, and
    /// lane 0 releases them afterwards (the global-queue ablation).
    pub(super) global: bool,
    /// Where the tasks came from, a [`batch_source`](super::layout::batch_source) code: lane 0's alone,
    /// for the profiler.
    pub(super) source: u32,
}

const STOLEN_BIT: u32 = 1 << 24;
const GLOBAL_BIT: u32 = 1 << 25;
const _: () = assert!(
    WARP_SIZE < 256 && MAX_QUEUES <= 256,
    "Batch::words' byte fields"
);

impl Batch {
    /// The batch as four words, for the lanes to read from the warp's shared state
    /// ([`WarpShared::batch`](super::warp::WarpShared)): `n`, `kept` and `queue` (each at
    /// most a byte: `n, kept <= WARP_SIZE`, `queue < MAX_QUEUES`) with the two flags, then the
    /// three positions. `source` stays lane 0's, for its profiler.
    #[inline(always)]
    pub(super) fn words(&self) -> [u32; 4] {
        let stolen = if self.stolen { STOLEN_BIT } else { 0 };
        let global = if self.global { GLOBAL_BIT } else { 0 };
        let packed = self.n | (self.kept << 8) | (self.queue << 16) | stolen | global;
        [packed, self.kept_base, self.src_warp, self.src_base]
    }

    /// The batch [`Batch::words`] made, with the profiler's `source`.
    #[inline(always)]
    pub(super) fn from_words(w: [u32; 4], source: u32) -> Batch {
        let [packed, kept_base, src_warp, src_base] = w;
        Batch {
            n: packed & 0xff,
            kept: (packed >> 8) & 0xff,
            kept_base,
            src_warp,
            src_base,
            queue: (packed >> 16) & 0xff,
            stolen: packed & STOLEN_BIT != 0,
            global: packed & GLOBAL_BIT != 0,
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::gpu::layout::batch_source;

    #[test]
    fn a_batch_comes_back_from_its_words_at_every_field_limit() {
        for (n, kept, queue, stolen, global) in [
            (0, 0, 0, false, false),
            (WARP_SIZE, WARP_SIZE, MAX_QUEUES - 1, true, false),
            (17, 3, 2, false, true),
            (WARP_SIZE, 0, 5, true, true),
        ] {
            let b = Batch {
                n,
                kept,
                kept_base: u32::MAX - 7,
                src_warp: 65_535,
                src_base: 0x8000_0001,
                queue,
                stolen,
                global,
                source: batch_source::TOP_UP,
            };
            let back = Batch::from_words(b.words(), b.source);
            let fields = |b: &Batch| {
                let f = (b.n, b.kept, b.kept_base, b.src_warp, b.src_base, b.queue);
                (f, b.stolen, b.global, b.source)
            };
            assert_eq!(fields(&back), fields(&b));
        }
    }
}
