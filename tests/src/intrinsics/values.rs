//! Known answers: the launch shapes, operands and expected results that the device kernels
//! and the host checks (`tests/tests/intrinsics_gpu.rs`) share. Plain code, built for both.

/// Blocks of every atomic kernel.
pub const ATOM_BLOCKS: u32 = 8;
/// Threads per block of every atomic kernel.
pub const ATOM_THREADS: u32 = 128;

/// The read-modify-write operations the atomic kernels test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `fetch_add` of [`TestInt::DELTA`].
    Add,
    /// `swap` of [`TestInt::value`].
    Exch,
    /// A compare-and-swap loop adding [`TestInt::DELTA`].
    Cas,
    /// `fetch_min` of [`TestInt::value`].
    Min,
    /// `fetch_max` of [`TestInt::value`].
    Max,
    /// `fetch_and` of [`TestInt::and_operand`].
    And,
    /// `fetch_or` of [`TestInt::or_operand`].
    Or,
    /// `fetch_xor` of [`TestInt::value`].
    Xor,
}

impl Op {
    /// Every operation, in kernel-name order.
    pub const ALL: [Op; 8] = [
        Op::Add,
        Op::Exch,
        Op::Cas,
        Op::Min,
        Op::Max,
        Op::And,
        Op::Or,
        Op::Xor,
    ];

    /// The name in kernel names (`atom_<name>_<type>_<scope>_<ordering>`).
    pub const fn name(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Exch => "exch",
            Op::Cas => "cas",
            Op::Min => "min",
            Op::Max => "max",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
        }
    }
}

/// An integer type the atomic kernels run on, with its operands.
pub trait TestInt: Copy + PartialEq + Ord + core::fmt::Debug + 'static {
    /// The type's name in kernel names.
    const NAME: &'static str;
    /// What the add and CAS kernels add per thread: it reaches the high half of 64-bit
    /// types and is negative for signed ones.
    const DELTA: Self;
    /// A value per thread: a bijection of `i`, so distinct, spread over the whole range
    /// (negative values included for signed types).
    fn value(i: u32) -> Self;
    /// The operand of thread `i` for `fetch_and`: all ones but one bit, which cycles over
    /// all but the top three bits.
    fn and_operand(i: u32) -> Self;
    /// The operand of thread `i` for `fetch_or`: one bit, cycling over all but the top bit.
    fn or_operand(i: u32) -> Self;
    /// The value the host puts in the target before the kernel runs.
    fn init(op: Op) -> Self;
    /// The operand thread `i` applies.
    fn operand(op: Op, i: u32) -> Self {
        match op {
            Op::Add | Op::Cas => Self::DELTA,
            Op::And => Self::and_operand(i),
            Op::Or => Self::or_operand(i),
            Op::Exch | Op::Min | Op::Max | Op::Xor => Self::value(i),
        }
    }
    /// `op` applied to the old value `old` and operand `v` (what the target holds after).
    fn apply(op: Op, old: Self, v: Self) -> Self;
    /// `init + k * DELTA` (wrapping): the value after `k` adds.
    fn after_adds(k: u32) -> Self;
}

macro_rules! test_int {
    ($($t:ty: $name:literal, $bits:literal, delta $delta:expr, mul $mul:expr, xor $xor:expr;)*) => {$(
        impl TestInt for $t {
            const NAME: &'static str = $name;
            const DELTA: Self = $delta;
            fn value(i: u32) -> Self {
                ((i as $t).wrapping_mul($mul)) ^ $xor
            }
            fn and_operand(i: u32) -> Self {
                !((1 as $t) << ((i * 5) % ($bits - 3)))
            }
            fn or_operand(i: u32) -> Self {
                (1 as $t) << ((i * 5) % ($bits - 1))
            }
            fn init(op: Op) -> Self {
                match op {
                    Op::Min => <$t>::MAX,
                    Op::Max => <$t>::MIN,
                    Op::And => !0,
                    Op::Add | Op::Exch | Op::Cas | Op::Or | Op::Xor => 0,
                }
            }
            fn apply(op: Op, old: Self, v: Self) -> Self {
                match op {
                    Op::Add | Op::Cas => old.wrapping_add(v),
                    Op::Exch => v,
                    Op::Min => old.min(v),
                    Op::Max => old.max(v),
                    Op::And => old & v,
                    Op::Or => old | v,
                    Op::Xor => old ^ v,
                }
            }
            fn after_adds(k: u32) -> Self {
                (k as $t).wrapping_mul($delta)
            }
        }
    )*};
}

test_int! {
    u32: "u32", 32, delta 1, mul 0x9E37_79B1, xor 0x5BD1_E995;
    i32: "i32", 32, delta -3, mul 0x1E37_79B1, xor 0x1BD1_E995;
    u64: "u64", 64, delta (1 << 32) + 1, mul 0x9E37_79B9_7F4A_7C15, xor 0x5BD1_E995_0000_00FF;
    i64: "i64", 64, delta -((1 << 32) + 1), mul 0x1E37_79B9_7F4A_7C15, xor 0x1BD1_E995_0000_00FF;
}

/// The value thread `i` exchanges in the warp and barrier kernels (any distinct pattern).
pub const fn word(i: u32) -> u32 {
    i.wrapping_mul(0x9E37_79B1) ^ 0xA5A5_0000
}

/// The 64-bit value thread `i` exchanges in the 64-bit shuffle kernels: distinct halves,
/// so a swapped or dropped half shows.
pub const fn dword(i: u32) -> u64 {
    ((word(i) as u64) << 32) | (word(i + 1000) as u64)
}

/// Blocks and threads per block of the warp kernels.
pub const WARP_BLOCKS: u32 = 2;
/// Threads per block of the warp kernels (two warps).
pub const WARP_THREADS: u32 = 64;
/// Entries per thread written by `warp_vote`.
pub const VOTE_STRIDE: u32 = 6;

/// Blocks of the barrier kernels.
pub const BAR_BLOCKS: u32 = 2;
/// Threads per block of the barrier kernels (eight warps).
pub const BAR_THREADS: u32 = 256;
/// Entries per thread written by `bar_syncthreads_reduce`.
pub const BAR_REDUCE_STRIDE: u32 = 5;
/// Threads of the first group of `bar_named_subsets` (barrier 2); the rest use barrier 3.
pub const BAR_SUBSET_A: u32 = 64;

/// Grid of the index kernel: (3, 2, 2) blocks.
pub const INDEX_GRID: (u32, u32, u32) = (3, 2, 2);
/// Block of the index kernel: (8, 5, 2) = 80 threads, two and a half warps.
pub const INDEX_BLOCK: (u32, u32, u32) = (8, 5, 2);
/// Entries per thread written by `index_all`; see that kernel for the layout.
pub const INDEX_STRIDE: u32 = 22;

/// Producer-consumer pairs in the message-passing kernels.
pub const MP_PAIRS: u32 = 32;
/// Words each producer publishes.
pub const MP_WORDS: u32 = 32;

/// The word producer `pair` publishes at index `k`.
pub const fn mp_word(pair: u32, k: u32) -> u32 {
    word(pair * MP_WORDS + k) | 1
}
