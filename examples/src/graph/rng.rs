//! The random numbers behind the generated inputs: our own small generators, so that a seed
//! names the same graph on every platform and with every version of every dependency (the
//! `rand` crate makes no such promise across versions).
//!
//! [`SplitMix64`] (Steele, Lea and Flood, *Fast splittable pseudorandom number generators*,
//! OOPSLA 2014) turns a seed into well-mixed state words; [`Xoshiro256`] (xoshiro256\*\*,
//! Blackman and Vigna, *Scrambled linear pseudorandom number generators*, 2021) is the
//! generator that draws. [`Xoshiro256::stream`] gives independent-looking generators for
//! `(seed, stream)` pairs, which is how parallel code gets per-chunk generators whose output
//! does not depend on the number of threads.

/// SplitMix64: a 64-bit counter passed through a strong bit mixer. Used to seed
/// [`Xoshiro256`]; every seed, 0 included, is fine.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

/// The golden-ratio increment of SplitMix64's counter.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a bijective mixer of 64-bit words.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix64(self.state)
    }
}

/// xoshiro256\*\*: 256 bits of state, period 2^256 - 1, all 64 output bits of good quality.
#[derive(Clone, Debug)]
pub struct Xoshiro256 {
    s: [u64; 4],
}

impl Xoshiro256 {
    /// A generator whose state is four SplitMix64 outputs from `seed` (never all zero: the
    /// mixer is a bijection of a counter, and four consecutive outputs cannot all be 0).
    pub fn new(seed: u64) -> Xoshiro256 {
        let mut sm = SplitMix64::new(seed);
        Xoshiro256 {
            s: [sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()],
        }
    }

    /// Generator number `stream` of `seed`: streams of one seed, and the same stream of
    /// different seeds, start from unrelated states (both words go through the mixer before
    /// they meet), so chunks of a parallel loop can each take their own.
    pub fn stream(seed: u64, stream: u64) -> Xoshiro256 {
        Xoshiro256::new(mix64(seed).wrapping_add(mix64(stream ^ 0x5EED_5EED_5EED_5EED)))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..bound`, without bias (Lemire, *Fast random integer generation
    /// in an interval*, 2019).
    ///
    /// # Panics
    /// If `bound` is 0.
    pub fn below(&mut self, bound: u32) -> u32 {
        assert!(bound > 0, "Xoshiro256::below needs a positive bound");
        let mut m = (self.next_u64() >> 32) * bound as u64;
        if (m as u32) < bound {
            // The low words below `2^32 mod bound` are the ones that would bias the result.
            let threshold = bound.wrapping_neg() % bound;
            while (m as u32) < threshold {
                m = (self.next_u64() >> 32) * bound as u64;
            }
        }
        (m >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference() {
        // The first outputs of the reference C implementation seeded with 0.
        let mut sm = SplitMix64::new(0);
        assert_eq!(sm.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(sm.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn xoshiro256_matches_the_reference() {
        // The reference C implementation from state {1, 2, 3, 4}.
        let mut x = Xoshiro256 { s: [1, 2, 3, 4] };
        assert_eq!(x.next_u64(), 11520);
        assert_eq!(x.next_u64(), 0);
        assert_eq!(x.next_u64(), 1_509_978_240);
        assert_eq!(x.next_u64(), 1_215_971_899_390_074_240);
    }

    #[test]
    fn streams_differ_and_repeat() {
        let first = |seed, stream| Xoshiro256::stream(seed, stream).next_u64();
        assert_eq!(first(7, 0), first(7, 0));
        assert_ne!(first(7, 0), first(7, 1));
        assert_ne!(first(7, 0), first(8, 0));
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut x = Xoshiro256::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[x.below(7) as usize] += 1;
        }
        // Each bucket expects 1000; 800 is more than 6 standard deviations away.
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
        assert_eq!(x.below(1), 0);
    }
}
