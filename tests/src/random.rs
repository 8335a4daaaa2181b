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
//!
//! [`mixed`] is the same with block tasks: a node is a block task when a hash of its seed says
//! so ([`is_block`], a third of them), whichever kind spawns it, so thread tasks spawn and
//! join block tasks and block tasks spawn both kinds. A block node follows the rules of
//! block tasks (`gtap::Block`): its control flow depends only on its seed, so every thread of
//! the team takes the same path; its spawns with handles (block-wide) are joined by a taskwait
//! in the arm that made them; its fire-and-forget children are per thread (thread `t` below
//! the group's width spawns child `t`, so their number depends on the team's size); and its
//! value includes a sum over the team through the scratch memory and the barrier.
//! [`mixed_reference`] computes its value and node count for a team of a given size.

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

/// Whether the node of seed `seed` is a block task in a [`mixed`] program (a third of them).
pub fn is_block(seed: u64) -> bool {
    mix(seed ^ 0x66).is_multiple_of(3)
}

/// `0 + 1 + .. + (team - 1)`: what a block node adds to its value on a team of `team`.
pub fn team_sum_of(team: u32) -> u64 {
    let t = u64::from(team);
    t * t.saturating_sub(1) / 2
}

/// The root of the [`mixed`] program of `seed`: a thread task or a block task by the seed.
pub fn mixed_root(
    seed: u64,
    queues: u32,
    counter: Counter,
) -> gtap::Call<'static, mixed::Program, u64> {
    if is_block(seed) {
        mixed::bnode(seed, 0, queues, counter)
    } else {
        mixed::node(seed, 0, queues, counter)
    }
}

/// Random programs with thread tasks and block tasks.
#[gtap::program(name = "random_mixed")]
pub mod mixed {
    use gtap::Block;

    use super::{Counter, child, groups, is_block, mix, pattern, queue, width};

    /// The sum of the team's thread indices, on every thread, through the scratch memory
    /// (which holds at least 8 bytes per thread: the tests' configurations).
    fn team_sum(b: Block) -> u64 {
        let scratch = b.scratch().cast::<u64>();
        // SAFETY: the scratch holds a u64 per thread (the tests configure it), and each
        // thread writes its own.
        unsafe { scratch.add(b.index() as usize).write(u64::from(b.index())) };
        b.sync();
        let total = (0..b.size() as usize)
            // SAFETY: written by every thread before the barrier.
            .map(|i| unsafe { scratch.add(i).read() })
            .sum();
        // No thread may overwrite the scratch (later in this task, or in the team's next
        // one) before every thread has read it.
        b.sync();
        total
    }

    /// A thread node: the thread program's node, its children of either kind.
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
                        let cs = child(seed, g, c);
                        let q = queue(seed, c, queues);
                        if is_block(cs) {
                            spawn!(into hs, queue(q), bnode(cs, depth + 1, queues, counter));
                        } else {
                            spawn!(into hs, queue(q), node(cs, depth + 1, queues, counter));
                        }
                    }
                    taskwait!(queue(queue(seed, 100 + g, queues)));
                    acc = hs.iter().fold(acc, u64::wrapping_add);
                }
                1 => {
                    for c in 0..w {
                        let cs = child(seed, g, c);
                        let q = queue(seed, c, queues);
                        if is_block(cs) {
                            let h = spawn!(queue(q), bnode(cs, depth + 1, queues, counter));
                            taskwait!();
                            acc = acc.wrapping_add(h.get());
                        } else {
                            let h = spawn!(queue(q), node(cs, depth + 1, queues, counter));
                            taskwait!();
                            acc = acc.wrapping_add(h.get());
                        }
                    }
                }
                2 => {
                    for c in 0..w {
                        let cs = child(seed, g, c);
                        let q = queue(seed, c, queues);
                        if is_block(cs) {
                            spawn!(queue(q), bnode(cs, depth + 1, queues, counter));
                        } else {
                            spawn!(queue(q), node(cs, depth + 1, queues, counter));
                        }
                    }
                }
                _ => {
                    let cs = child(seed, g, 0);
                    match (w % 2, is_block(cs)) {
                        (0, true) => {
                            let h = spawn!(bnode(cs, depth + 1, queues, counter));
                            taskwait!(queue(queue(seed, 200 + g, queues)));
                            acc = acc.wrapping_add(h.get());
                        }
                        (0, false) => {
                            let h = spawn!(node(cs, depth + 1, queues, counter));
                            taskwait!(queue(queue(seed, 200 + g, queues)));
                            acc = acc.wrapping_add(h.get());
                        }
                        _ => acc = acc.wrapping_add(1),
                    }
                }
            }
        }
        acc
    }

    /// A block node: its own hash plus the team's index sum, then groups of children as a
    /// thread node's, within the rules of block tasks (see the module docs).
    #[gtap::task(block)]
    pub fn bnode(b: Block, seed: u64, depth: u32, queues: u32, counter: Counter) -> u64 {
        if b.is_leader() {
            counter.add(1);
        }
        let mut acc = mix(seed).wrapping_add(team_sum(b));
        for g in 0..groups(seed, depth) {
            let w = width(seed, g);
            let c0 = child(seed, g, 0);
            let c1 = child(seed, g, 1);
            match pattern(seed, g) {
                // Up to two block-wide children joined together, both of child 0's kind.
                0 => match (w % 3, is_block(c0)) {
                    (0, _) => {}
                    (1, true) => {
                        let a = spawn!(bnode(c0, depth + 1, queues, counter));
                        taskwait!();
                        acc = acc.wrapping_add(a.get());
                    }
                    (1, false) => {
                        let a = spawn!(node(c0, depth + 1, queues, counter));
                        taskwait!();
                        acc = acc.wrapping_add(a.get());
                    }
                    (_, true) => {
                        let a = spawn!(bnode(c0, depth + 1, queues, counter));
                        let d = spawn!(bnode(c1, depth + 1, queues, counter));
                        taskwait!();
                        acc = acc.wrapping_add(a.get()).wrapping_add(d.get());
                    }
                    (_, false) => {
                        let q = queue(seed, 1, queues);
                        let a = spawn!(node(c0, depth + 1, queues, counter));
                        let d = spawn!(queue(q), node(c1, depth + 1, queues, counter));
                        taskwait!();
                        acc = acc.wrapping_add(a.get()).wrapping_add(d.get());
                    }
                },
                // A taskwait after each block-wide child.
                1 => {
                    for c in 0..w {
                        let cs = child(seed, g, c);
                        if is_block(cs) {
                            let h = spawn!(bnode(cs, depth + 1, queues, counter));
                            taskwait!();
                            acc = acc.wrapping_add(h.get());
                        } else {
                            let q = queue(seed, c, queues);
                            let h = spawn!(queue(q), node(cs, depth + 1, queues, counter));
                            taskwait!();
                            acc = acc.wrapping_add(h.get());
                        }
                    }
                }
                // Per thread, fire and forget: thread `t < w` spawns child `t`.
                2 => {
                    if b.index() < w {
                        let cs = child(seed, g, b.index());
                        if is_block(cs) {
                            spawn!(bnode(cs, depth + 1, queues, counter));
                        } else {
                            let q = queue(seed, b.index(), queues);
                            spawn!(queue(q), node(cs, depth + 1, queues, counter));
                        }
                    }
                }
                // A taskwait inside a match arm.
                _ => match (w % 2, is_block(c0)) {
                    (0, true) => {
                        let h = spawn!(bnode(c0, depth + 1, queues, counter));
                        taskwait!();
                        acc = acc.wrapping_add(h.get());
                    }
                    (0, false) => {
                        let h = spawn!(node(c0, depth + 1, queues, counter));
                        taskwait!();
                        acc = acc.wrapping_add(h.get());
                    }
                    _ => acc = acc.wrapping_add(1),
                },
            }
        }
        acc
    }
}

/// The value and the node count of the [`mixed`] program rooted at `seed` on teams of `team`
/// threads, sequentially.
pub fn mixed_reference(seed: u64, depth: u32, team: u32) -> (u64, u64) {
    if is_block(seed) {
        block_reference(seed, depth, team)
    } else {
        thread_reference(seed, depth, team)
    }
}

fn thread_reference(seed: u64, depth: u32, team: u32) -> (u64, u64) {
    let mut acc = mix(seed);
    let mut nodes = 1;
    for g in 0..groups(seed, depth) {
        let w = width(seed, g);
        let joined = match pattern(seed, g) {
            0 | 1 => 0..w,
            2 => {
                for c in 0..w {
                    nodes += mixed_reference(child(seed, g, c), depth + 1, team).1;
                }
                0..0
            }
            _ if w.is_multiple_of(2) => 0..1,
            _ => {
                acc = acc.wrapping_add(1);
                0..0
            }
        };
        for c in joined {
            let (v, n) = mixed_reference(child(seed, g, c), depth + 1, team);
            acc = acc.wrapping_add(v);
            nodes += n;
        }
    }
    (acc, nodes)
}

fn block_reference(seed: u64, depth: u32, team: u32) -> (u64, u64) {
    let mut acc = mix(seed).wrapping_add(team_sum_of(team));
    let mut nodes = 1;
    for g in 0..groups(seed, depth) {
        let w = width(seed, g);
        let c0 = child(seed, g, 0);
        // The joined children, each with its kind: `kinds[..count]`.
        let mut kinds = [(0u64, false); 4];
        let mut count = 0;
        match pattern(seed, g) {
            // Pattern 0's second child takes the first's kind.
            0 => {
                for c in 0..w % 3 {
                    kinds[c as usize] = (child(seed, g, c), is_block(c0));
                }
                count = w % 3;
            }
            1 => {
                for c in 0..w {
                    let cs = child(seed, g, c);
                    kinds[c as usize] = (cs, is_block(cs));
                }
                count = w;
            }
            2 => {
                for t in 0..w.min(team) {
                    nodes += mixed_reference(child(seed, g, t), depth + 1, team).1;
                }
            }
            _ if w.is_multiple_of(2) => {
                kinds[0] = (c0, is_block(c0));
                count = 1;
            }
            _ => acc = acc.wrapping_add(1),
        }
        for &(cs, block) in &kinds[..count as usize] {
            let (v, n) = if block {
                block_reference(cs, depth + 1, team)
            } else {
                thread_reference(cs, depth + 1, team)
            };
            acc = acc.wrapping_add(v);
            nodes += n;
        }
    }
    (acc, nodes)
}
