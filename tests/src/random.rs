//! Random fork-join programs, for the randomized suites (`tests/random_cpu.rs`,
//! `tests/random_gpu.rs`): a task lost or run twice must show as a wrong result.
//!
//! Every node of a program decides what it does from a hash of its seed: how many groups of
//! children it spawns, and for each group one of four patterns (children into slots joined
//! by one taskwait; a taskwait in a loop after each child; fire-and-forget children; a
//! taskwait inside a `match` arm), and the EPAQ queue of every spawn and taskwait. A node's
//! value is its own hash plus the values of the children it joined (wrapping); every node
//! adds one to a counter, so fire-and-forget children are checked too.
//! [`reference()`] computes the same value and node count with plain recursion.

use crate::lang::Counter;

/// The deepest level a random program reaches.
pub const MAX_DEPTH: u32 = 6;

/// A 64-bit mix (splitmix64's finalizer).
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// How many groups of children node `seed` at `depth` spawns: 1 to 3 near the root, fewer
/// deeper down, none at [`MAX_DEPTH`].
pub fn groups(seed: u64, depth: u32) -> u32 {
    let h = mix(seed ^ 0x11);
    match depth {
        0..=2 => 1 + (h % 3) as u32,
        d if d >= MAX_DEPTH => 0,
        d => (h % u64::from(7 - d.min(6))) as u32,
    }
}

/// The pattern of group `g` (0 to 3).
pub fn pattern(seed: u64, g: u32) -> u32 {
    (mix(seed ^ 0x22 ^ u64::from(g) << 8) % 4) as u32
}

/// How many children group `g` has (0 to 4).
pub fn width(seed: u64, g: u32) -> u32 {
    (mix(seed ^ 0x33 ^ u64::from(g) << 8) % 5) as u32
}

/// The seed of child `c` of group `g`.
pub fn child(seed: u64, g: u32, c: u32) -> u64 {
    mix(seed ^ (u64::from(g) << 16) ^ (u64::from(c) << 24) ^ 0x44)
}

/// The EPAQ queue of a spawn or taskwait (any of `queues`).
pub fn queue(seed: u64, salt: u32, queues: u32) -> u32 {
    (mix(seed ^ 0x55 ^ u64::from(salt) << 32) % u64::from(queues)) as u32
}

/// The task program.
#[gtap::program(name = "random")]
pub mod program {
    use super::{Counter, child, groups, mix, pattern, queue, width};

    /// A node of a random program; returns its value.
    #[gtap::task]
    pub fn node(seed: u64, depth: u32, queues: u32, counter: Counter) -> u64 {
        counter.add(1);
        let mut acc = mix(seed);
        for g in 0..groups(seed, depth) {
            let w = width(seed, g);
            match pattern(seed, g) {
                0 => {
                    let hs = slots!(u64; 4);
                    for c in 0..w {
                        spawn!(into hs, queue(queue(seed, c, queues)), node(child(seed, g, c), depth + 1, queues, counter));
                    }
                    taskwait!(queue(queue(seed, 100 + g, queues)));
                    acc = hs.iter().fold(acc, u64::wrapping_add);
                }
                1 => {
                    for c in 0..w {
                        let h = spawn!(
                            queue(queue(seed, c, queues)),
                            node(child(seed, g, c), depth + 1, queues, counter)
                        );
                        taskwait!();
                        acc = acc.wrapping_add(h.get());
                    }
                }
                2 => {
                    for c in 0..w {
                        spawn!(
                            queue(queue(seed, c, queues)),
                            node(child(seed, g, c), depth + 1, queues, counter)
                        );
                    }
                }
                _ => match w % 2 {
                    0 => {
                        let h = spawn!(node(child(seed, g, 0), depth + 1, queues, counter));
                        taskwait!(queue(queue(seed, 200 + g, queues)));
                        acc = acc.wrapping_add(h.get());
                    }
                    _ => acc = acc.wrapping_add(1),
                },
            }
        }
        acc
    }
}

/// The value and the node count of the random program rooted at `seed`, sequentially.
pub fn reference(seed: u64, depth: u32) -> (u64, u64) {
    let mut acc = mix(seed);
    let mut nodes = 1;
    for g in 0..groups(seed, depth) {
        let w = width(seed, g);
        match pattern(seed, g) {
            0 | 1 => {
                for c in 0..w {
                    let (v, n) = reference(child(seed, g, c), depth + 1);
                    acc = acc.wrapping_add(v);
                    nodes += n;
                }
            }
            2 => {
                for c in 0..w {
                    nodes += reference(child(seed, g, c), depth + 1).1;
                }
            }
            _ => {
                if w.is_multiple_of(2) {
                    let (v, n) = reference(child(seed, g, 0), depth + 1);
                    acc = acc.wrapping_add(v);
                    nodes += n;
                } else {
                    acc = acc.wrapping_add(1);
                }
            }
        }
    }
    (acc, nodes)
}
