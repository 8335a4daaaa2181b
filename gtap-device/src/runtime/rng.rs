//! Victim selection for random work stealing: a per-worker xorshift generator.
//!
//! Stealing needs cheap, uncorrelated choices, not good statistics: Marsaglia's 32-bit
//! xorshift (shifts 13, 17, 5) is three shifts and three xors, keeps one word of state, and
//! fits in a register on the GPU. Each worker owns its generator; nothing is shared.

/// Marsaglia's xorshift32. Never zero (zero is its only fixed point).
#[derive(Clone, Debug)]
pub struct XorShift32 {
    state: u32,
}

impl XorShift32 {
    /// A generator for worker `index`: distinct, nonzero seeds per worker.
    pub fn for_worker(index: u32) -> Self {
        // Multiplying by an odd constant spreads consecutive indices; `| 1` keeps it nonzero.
        XorShift32 {
            state: (index.wrapping_add(1)).wrapping_mul(0x9E37_79B9) | 1,
        }
    }

    /// The next value.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.state = x;
        x
    }

    /// A victim in `0..workers` other than `me`. `workers` must be at least 2.
    #[inline]
    pub fn victim(&mut self, me: u32, workers: u32) -> u32 {
        debug_assert!(workers >= 2 && me < workers);
        let v = self.next_u32() % (workers - 1);
        if v >= me { v + 1 } else { v }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn victims_cover_everyone_but_me() {
        let mut rng = XorShift32::for_worker(3);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[rng.victim(2, 6) as usize] += 1;
        }
        assert_eq!(seen[2], 0);
        for (i, &n) in seen.iter().enumerate() {
            if i != 2 {
                assert!(n > 800, "victim {i} chosen {n} times out of 6000");
            }
        }
    }

    #[test]
    fn never_stuck_at_zero() {
        for w in 0..1000 {
            let mut rng = XorShift32::for_worker(w);
            assert_ne!(rng.next_u32(), 0);
        }
    }
}
