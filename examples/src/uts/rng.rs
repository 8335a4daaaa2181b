//! UTS's splittable random numbers: a node's state is a SHA-1 digest, and each child's state
//! is the digest of its parent's state followed by the child's index. This is UTS's default
//! generator (the one built on Brian Gladman's SHA-1, `rng/brg_sha1.c`), which the published
//! tree sizes were counted with:
//!
//! - the root's state is SHA-1 of 16 zero bytes and the seed (`-r`) as 4 big-endian bytes;
//! - child `i`'s state is SHA-1 of the parent's 20 state bytes and `i` as 4 big-endian bytes;
//! - a node's random number is the state's last 4 bytes read big-endian, top bit cleared (a
//!   value in `0..2^31`; UTS divides it by `2^31` for a probability).
//!
//! Both messages are short (20 and 24 bytes), so each digest is one compression of one padded
//! 64-byte block, and this module has its own compression function for that one block
//! (`compress`, checked against RustCrypto's `sha1` and FIPS 180's vectors in the tests).
//! RustCrypto's `sha1` builds for the GPU (`default-features = false`; on `nvptx64` it takes
//! its portable code), and was tried first, but its `block_api::compress` takes bytes through
//! a slice and stays a called function in the PTX: each digest stored its block to local
//! memory and read it back byte by byte (64 byte loads and the byte swaps), and the program's
//! kernel needed 1488 bytes of local memory per thread (256 with this version) and had 2.7x
//! the instructions. Here the compression is inlined into the task, its block is 16 words in
//! registers, and the ten words that are the same for every child (padding and length) fold
//! into constants. The same code runs on the host, so that every backend and baseline hashes
//! alike (on an x86-64 host with the SHA extensions, RustCrypto's code hashes a state in
//! about 0.6x the time).
//!
//! A state is kept as the digest's five 32-bit words (big-endian, as SHA-1 computes them), not
//! as bytes: the words of the next message are then the state's words themselves, and a
//! child's block is built without shuffling bytes.

/// SHA-1's initial hash value (FIPS 180-4, 5.3.1).
const H0: [u32; 5] = [
    0x6745_2301,
    0xEFCD_AB89,
    0x98BA_DCFE,
    0x1032_5476,
    0xC3D2_E1F0,
];

/// A node's random state: a SHA-1 digest as its five big-endian words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct State {
    words: [u32; 5],
}

impl State {
    /// The root's state for seed `seed` (UTS's `rng_init`).
    #[inline]
    pub fn root(seed: u32) -> State {
        State {
            words: digest_words([0, 0, 0, 0, seed]),
        }
    }

    /// The state of child `index` (UTS's `rng_spawn`).
    #[inline]
    pub fn child(&self, index: u32) -> State {
        let [a, b, c, d, e] = self.words;
        State {
            words: digest_words([a, b, c, d, e, index]),
        }
    }

    /// The node's random number in `0..2^31` (UTS's `rng_rand`).
    #[inline]
    pub fn rand(&self) -> u32 {
        self.words[4] & 0x7FFF_FFFF
    }

    /// The 20 digest bytes, in the order SHA-1 writes them.
    pub fn to_bytes(&self) -> [u8; 20] {
        let mut bytes = [0; 20];
        for (chunk, w) in bytes.chunks_exact_mut(4).zip(self.words) {
            chunk.copy_from_slice(&w.to_be_bytes());
        }
        bytes
    }
}

/// SHA-1 of the `4 * N` bytes that are `message`'s words in big-endian order, `N <= 13` (one
/// padded block: the message, the `0x80` byte, zeros, the bit length in the last 8 bytes).
#[inline(always)]
fn digest_words<const N: usize>(message: [u32; N]) -> [u32; 5] {
    const { assert!(N <= 13, "a one-block message has at most 55 bytes") };
    let mut block = [0u32; 16];
    block[..N].copy_from_slice(&message);
    block[N] = 0x8000_0000;
    block[15] = 32 * N as u32;
    compress(H0, block)
}

/// SHA-1 of a message of at most 55 bytes (one block), as bytes: for tests against known
/// digests.
///
/// # Panics
/// If `message` is longer than 55 bytes.
pub fn digest_short(message: &[u8]) -> [u8; 20] {
    assert!(
        message.len() <= 55,
        "a one-block message has at most 55 bytes"
    );
    let mut bytes = [0u8; 64];
    bytes[..message.len()].copy_from_slice(message);
    bytes[message.len()] = 0x80;
    bytes[56..].copy_from_slice(&(8 * message.len() as u64).to_be_bytes());
    let mut block = [0u32; 16];
    for (w, chunk) in block.iter_mut().zip(bytes.chunks_exact(4)) {
        *w = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    State {
        words: compress(H0, block),
    }
    .to_bytes()
}

/// SHA-1's compression function (FIPS 180-4, 6.1.2) on one block of 16 big-endian words:
/// 80 rounds, written out one by one (every array index a constant), so that the block and
/// the schedule live in registers and the message's constant words fold away.
#[inline(always)]
fn compress(state: [u32; 5], block: [u32; 16]) -> [u32; 5] {
    let mut w = block;
    let [mut a, mut b, mut c, mut d, mut e] = state;
    // One round on word `w[i % 16]`, which holds `W_i` (rounds 0 to 15: the block's word).
    macro_rules! round {
        ($k:expr, $f:ident, $i:literal) => {
            let t = a
                .rotate_left(5)
                .wrapping_add($f(b, c, d))
                .wrapping_add(e)
                .wrapping_add($k)
                .wrapping_add(w[$i % 16]);
            (e, d, c, b, a) = (d, c, b.rotate_left(30), a, t);
        };
    }
    // Rounds that first compute their schedule word, `W_i` from `W_{i-3}, W_{i-8}, W_{i-14},
    // W_{i-16}` (the last in the slot it replaces).
    macro_rules! rounds {
        ($k:expr, $f:ident; $($i:literal)*) => {$(
            w[$i % 16] = (w[($i - 3) % 16] ^ w[($i - 8) % 16] ^ w[($i - 14) % 16] ^ w[$i % 16])
                .rotate_left(1);
            round!($k, $f, $i);
        )*};
    }
    macro_rules! first_rounds {
        ($k:expr, $f:ident; $($i:literal)*) => {$( round!($k, $f, $i); )*};
    }
    const K: [u32; 4] = [0x5A82_7999, 0x6ED9_EBA1, 0x8F1B_BCDC, 0xCA62_C1D6];
    first_rounds!(K[0], ch; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
    rounds!(K[0], ch; 16 17 18 19);
    rounds!(K[1], parity; 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39);
    rounds!(K[2], maj; 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59);
    rounds!(K[3], parity; 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79);
    let [h0, h1, h2, h3, h4] = state;
    [
        h0.wrapping_add(a),
        h1.wrapping_add(b),
        h2.wrapping_add(c),
        h3.wrapping_add(d),
        h4.wrapping_add(e),
    ]
}

/// SHA-1's choice function (rounds 0 to 19).
#[inline(always)]
fn ch(b: u32, c: u32, d: u32) -> u32 {
    d ^ (b & (c ^ d))
}

/// SHA-1's parity function (rounds 20 to 39 and 60 to 79).
#[inline(always)]
fn parity(b: u32, c: u32, d: u32) -> u32 {
    b ^ c ^ d
}

/// SHA-1's majority function (rounds 40 to 59).
#[inline(always)]
fn maj(b: u32, c: u32, d: u32) -> u32 {
    (b & c) | (d & (b | c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha1::Digest;

    fn hex(bytes: &[u8]) -> std::string::String {
        bytes.iter().map(|b| std::format!("{b:02x}")).collect()
    }

    #[test]
    fn one_block_digests_match_the_known_vectors() {
        // FIPS 180-2 appendix A.1 ("abc"), the empty message, and a common 43-byte one.
        let cases: [(&[u8], &str); 3] = [
            (b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            (
                b"The quick brown fox jumps over the lazy dog",
                "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
            ),
        ];
        for (message, want) in cases {
            assert_eq!(hex(&digest_short(message)), want, "{message:?}");
        }
    }

    #[test]
    fn states_are_the_digests_of_the_uts_messages() {
        // The root: 16 zero bytes, then the seed; a child: the parent's bytes, then the index;
        // both hashed with the general-purpose hasher.
        for seed in [0u32, 19, 42, 0x0102_0304, 0x7FFF_FFFF] {
            let mut message = [0u8; 20];
            message[16..].copy_from_slice(&seed.to_be_bytes());
            let root = State::root(seed);
            assert_eq!(root.to_bytes()[..], sha1::Sha1::digest(message)[..]);
            for index in [0u32, 1, 7, 1999, 0xDEAD_BEEF] {
                let mut message = [0u8; 24];
                message[..20].copy_from_slice(&root.to_bytes());
                message[20..].copy_from_slice(&index.to_be_bytes());
                let child = root.child(index);
                assert_eq!(child.to_bytes()[..], sha1::Sha1::digest(message)[..]);
                let last = u32::from_be_bytes(child.to_bytes()[16..].try_into().unwrap());
                assert_eq!(child.rand(), last & 0x7FFF_FFFF);
            }
        }
    }

    #[test]
    fn short_digests_match_the_general_hasher_at_every_length() {
        let message: std::vec::Vec<u8> = (0..55u8).map(|i| i.wrapping_mul(37) ^ 0x5A).collect();
        for len in 0..=55 {
            let m = &message[..len];
            assert_eq!(
                digest_short(m)[..],
                sha1::Sha1::digest(m)[..],
                "length {len}"
            );
        }
    }
}
