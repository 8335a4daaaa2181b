//! Runs every intrinsic test kernel of `tests/src/intrinsics` on the GPU and checks its
//! known answers. Reported as ignored where there is no GPU (the GPU test harness),
//! failed under `GTAP_REQUIRE_GPU=1`.
//!
//! The kernels' docs say how each is launched and what it writes; the answers are computed
//! here from the same `values` the kernels use.

use std::collections::BTreeMap;

use gtap_host::cudarc::driver::{
    CudaSlice, DeviceRepr, LaunchConfig, PushKernelArg, ValidAsZeroBits,
};
use gtap_host::{Gpu, GpuError, Module};
use gtap_tests::intrinsics::values::*;

const PTX: &str = gtap::include_ptx!();

const SCOPES: [&str; 3] = ["cta", "gpu", "sys"];
const RMW_ORDERINGS: [&str; 4] = ["relaxed", "acquire", "release", "acq_rel"];

/// A GPU with the test kernels loaded.
struct Harness {
    gpu: Gpu,
    module: Module,
}

/// The harness, or `None` (the test returns) where there is no GPU.
fn harness() -> Option<Harness> {
    let gpu = Gpu::for_tests()?;
    eprintln!("{}", gpu.props());
    let module = ok(gpu.load(PTX));
    Some(Harness { gpu, module })
}

/// Unwraps with the error's message (which says what to do), not its `Debug`.
fn ok<T>(r: Result<T, GpuError>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

impl Harness {
    fn zeros<T: DeviceRepr + ValidAsZeroBits>(&self, n: usize) -> CudaSlice<T> {
        ok(self
            .gpu
            .stream()
            .alloc_zeros(n)
            .map_err(|source| GpuError::Driver {
                call: "cuMemAlloc",
                source,
            }))
    }

    fn upload<T: DeviceRepr>(&self, v: &[T]) -> CudaSlice<T> {
        ok(self
            .gpu
            .stream()
            .clone_htod(v)
            .map_err(|source| GpuError::Driver {
                call: "cuMemcpyHtoD",
                source,
            }))
    }

    fn download<T: DeviceRepr>(&self, s: &CudaSlice<T>) -> Vec<T> {
        ok(self
            .gpu
            .stream()
            .clone_dtoh(s)
            .map_err(|source| GpuError::Driver {
                call: "cuMemcpyDtoH",
                source,
            }))
    }
}

/// Launches kernel `$name` and waits for it; panics with the error's message on failure.
macro_rules! launch {
    ($h:expr, $name:expr, grid $grid:expr, block $block:expr, smem $smem:expr; $($arg:expr),* $(,)?) => {{
        let h: &Harness = &$h;
        let name: &str = &$name;
        let kernel = ok(h.module.kernel(name));
        let mut args = h.gpu.stream().launch_builder(kernel.function());
        $( args.arg($arg); )*
        let cfg = LaunchConfig { grid_dim: $grid, block_dim: $block, shared_mem_bytes: $smem };
        // SAFETY: each kernel's docs (tests/src/intrinsics) give its arguments and launch
        // shape; every call site passes exactly those, with buffers of the sizes it needs.
        ok(unsafe { args.launch(cfg) }.map(|_| ()).map_err(|e| GpuError::launch(name, e)));
        ok(h.gpu.sync(name));
    }};
}

/// Collects failures so that one run reports all of them.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn check(&mut self, cond: bool, what: impl FnOnce() -> String) {
        if !cond {
            self.0.push(what());
        }
    }

    fn assert_none(self, what: &str) {
        assert!(
            self.0.is_empty(),
            "{} {what} failures:\n{}",
            self.0.len(),
            self.0
                .iter()
                .take(40)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

fn multiset<T: Ord + Copy>(v: impl IntoIterator<Item = T>) -> BTreeMap<T, usize> {
    let mut m = BTreeMap::new();
    for x in v {
        *m.entry(x).or_insert(0) += 1;
    }
    m
}

// ---------------------------------------------------------------------------------------
// Atomics

/// Checks one atomic kernel's results: the final slot values and the old values returned.
fn check_atomic<T: TestInt>(
    f: &mut Failures,
    kernel: &str,
    op: Op,
    per_block: bool,
    target: &[T],
    out: &[T],
) {
    let groups: Vec<(usize, std::ops::Range<u32>)> = if per_block {
        (0..ATOM_BLOCKS)
            .map(|b| (b as usize, b * ATOM_THREADS..(b + 1) * ATOM_THREADS))
            .collect()
    } else {
        for (s, v) in target.iter().enumerate().skip(1) {
            f.check(*v == T::init(op), || {
                format!("{kernel}: slot {s} was touched: {v:?}")
            });
        }
        vec![(0, 0..ATOM_BLOCKS * ATOM_THREADS)]
    };
    let init = T::init(op);
    for (slot, threads) in groups {
        let expect = threads
            .clone()
            .fold(init, |acc, i| T::apply(op, acc, T::operand(op, i)));
        let fin = target[slot];
        // Which swap lands last is up to the hardware: `Exch` is checked below instead.
        f.check(op == Op::Exch || fin == expect, || {
            format!("{kernel}: slot {slot} ends {fin:?}, expected {expect:?}")
        });
        let olds: Vec<T> = threads.clone().map(|i| out[i as usize]).collect();
        match op {
            Op::Add | Op::Cas => {
                let want = multiset((0..threads.len() as u32).map(T::after_adds));
                f.check(multiset(olds.iter().copied()) == want, || {
                    format!("{kernel}: slot {slot}: the old values are not init + k * DELTA, each k once")
                });
            }
            Op::Exch => {
                let got = multiset(olds.iter().copied().chain([fin]));
                let want = multiset(threads.clone().map(|i| T::operand(op, i)).chain([init]));
                f.check(got == want, || {
                    format!("{kernel}: slot {slot}: old values plus final are not init plus every operand")
                });
            }
            Op::Min => f.check(olds.iter().all(|&o| o >= fin && o <= init), || {
                format!("{kernel}: slot {slot}: an old value is outside [final, init]")
            }),
            Op::Max => f.check(olds.iter().all(|&o| o <= fin && o >= init), || {
                format!("{kernel}: slot {slot}: an old value is outside [init, final]")
            }),
            Op::And => f.check(
                olds.iter().all(|&o| T::apply(Op::And, o, fin) == fin),
                || format!("{kernel}: slot {slot}: an old value lacks a bit of the final value"),
            ),
            Op::Or => f.check(
                olds.iter().all(|&o| T::apply(Op::Or, o, fin) == fin),
                || format!("{kernel}: slot {slot}: an old value has a bit the final value lacks"),
            ),
            Op::Xor => {}
        }
    }
}

fn atomics<T: TestInt + DeviceRepr + ValidAsZeroBits>() {
    let Some(h) = harness() else { return };
    let mut f = Failures::default();
    let n = (ATOM_BLOCKS * ATOM_THREADS) as usize;
    for op in Op::ALL {
        for scope in SCOPES {
            for ord in RMW_ORDERINGS {
                let name = format!("atom_{}_{}_{scope}_{ord}", op.name(), T::NAME);
                let mut target = h.upload(&vec![T::init(op); ATOM_BLOCKS as usize]);
                let mut out = h.zeros::<T>(n);
                launch!(h, name, grid (ATOM_BLOCKS, 1, 1), block (ATOM_THREADS, 1, 1), smem 0;
                    &mut target, &mut out);
                let (target, out) = (h.download(&target), h.download(&out));
                check_atomic(&mut f, &name, op, scope == "cta", &target, &out);
            }
        }
        let name = format!("smem_atom_{}_{}", op.name(), T::NAME);
        let mut target = h.upload(&vec![T::init(op); ATOM_BLOCKS as usize]);
        let mut out = h.zeros::<T>(n);
        let smem = std::mem::size_of::<T>() as u32;
        launch!(h, name, grid (ATOM_BLOCKS, 1, 1), block (ATOM_THREADS, 1, 1), smem smem;
            &mut target, &mut out);
        let (target, out) = (h.download(&target), h.download(&out));
        check_atomic(&mut f, &name, op, true, &target, &out);
    }
    f.assert_none(&format!("{} atomic", T::NAME));
}

fn atomics_u32() {
    atomics::<u32>();
}

fn atomics_i32() {
    atomics::<i32>();
}

fn atomics_u64() {
    atomics::<u64>();
}

fn atomics_i64() {
    atomics::<i64>();
}

fn a_static_is_a_device_atomic() {
    let Some(h) = harness() else { return };
    let n = 4 * 128;
    let mut out = h.zeros::<u32>(n);
    launch!(h, "static_atomic_counter", grid (4, 1, 1), block (128, 1, 1), smem 0; &mut out);
    let mut got = h.download(&out);
    got.sort_unstable();
    assert!(
        got.iter().copied().eq(0..n as u32),
        "static_atomic_counter: old values are not 0..{n} each once"
    );
}

// ---------------------------------------------------------------------------------------
// Loads and stores

fn loads_and_stores<T: TestInt + DeviceRepr + ValidAsZeroBits>() {
    let Some(h) = harness() else { return };
    let mut f = Failures::default();
    let n: u32 = 1000;
    let (grid, block) = ((n.div_ceil(256), 1, 1), (256, 1, 1));
    let values: Vec<T> = (0..n).map(T::value).collect();

    let mut loads = vec![format!("ld_cg_{}", T::NAME)];
    let mut stores = vec![format!("st_cg_{}", T::NAME)];
    for scope in SCOPES {
        for ord in ["relaxed", "acquire"] {
            loads.push(format!("ld_{ord}_{scope}_{}", T::NAME));
        }
        for ord in ["relaxed", "release"] {
            stores.push(format!("st_{ord}_{scope}_{}", T::NAME));
        }
    }
    for name in loads {
        let inp = h.upload(&values);
        let mut out = h.zeros::<T>(n as usize);
        launch!(h, name, grid grid, block block, smem 0; &inp, &mut out, &n);
        f.check(h.download(&out) == values, || {
            format!("{name}: read back differs")
        });
    }
    for name in stores {
        let mut out = h.zeros::<T>(n as usize);
        launch!(h, name, grid grid, block block, smem 0; &mut out, &n);
        f.check(h.download(&out) == values, || {
            format!("{name}: stored values differ")
        });
    }
    f.assert_none(&format!("{} load/store", T::NAME));
}

fn loads_and_stores_u32() {
    loads_and_stores::<u32>();
}

fn loads_and_stores_i32() {
    loads_and_stores::<i32>();
}

fn loads_and_stores_u64() {
    loads_and_stores::<u64>();
}

fn loads_and_stores_i64() {
    loads_and_stores::<i64>();
}

// ---------------------------------------------------------------------------------------
// Fences and release/acquire: message passing

fn message_passing_through_fences_and_release_acquire() {
    let Some(h) = harness() else { return };
    let mut f = Failures::default();
    let words = (MP_PAIRS * MP_WORDS) as usize;
    let want: Vec<u32> = (0..MP_PAIRS)
        .flat_map(|p| (0..MP_WORDS).map(move |k| mp_word(p, k)))
        .collect();
    for scope in SCOPES {
        let (grid, block) = if scope == "cta" {
            (MP_PAIRS, 64)
        } else {
            (2 * MP_PAIRS, 32)
        };
        for kind in ["fence_acq_rel", "fence_sc", "release_acquire"] {
            let name = format!("mp_{kind}_{scope}");
            let mut data = h.zeros::<u32>(words);
            let mut flags = h.zeros::<u32>(MP_PAIRS as usize);
            let mut out = h.zeros::<u32>(words);
            launch!(h, name, grid (grid, 1, 1), block (block, 1, 1), smem 0;
                &mut data, &mut flags, &mut out);
            let got = h.download(&out);
            let bad = got.iter().zip(&want).filter(|(g, w)| g != w).count();
            f.check(bad == 0, || {
                format!("{name}: {bad} of {words} words not received")
            });
            f.check(h.download(&flags).iter().all(|&x| x == 1), || {
                format!("{name}: a flag was not set")
            });
        }
    }
    f.assert_none("message-passing");
}

// ---------------------------------------------------------------------------------------
// Warp collectives

/// `shfl.sync` as the PTX ISA defines it, for one lane: which lane's value it gets.
fn shfl_source(mode: &str, lane: u32, b: u32, width: u32) -> u32 {
    let segmask = 32 - width; // bits of the lane index that pick the segment
    let clamp = if mode == "up" { 0 } else { 0x1f };
    let max_lane = (lane & segmask) | (clamp & !segmask);
    let min_lane = lane & segmask;
    let (j, in_range) = match mode {
        "up" => {
            let j = lane as i32 - b as i32;
            (j, j >= max_lane as i32)
        }
        "down" => {
            let j = (lane + b) as i32;
            (j, j <= max_lane as i32)
        }
        "bfly" => {
            let j = (lane ^ b) as i32;
            (j, j <= max_lane as i32)
        }
        "idx" => {
            let j = (min_lane | (b & !segmask)) as i32;
            (j, j <= max_lane as i32)
        }
        _ => unreachable!(),
    };
    if in_range { j as u32 } else { lane }
}

fn warp_shuffles() {
    let Some(h) = harness() else { return };
    let mut f = Failures::default();
    let n = WARP_BLOCKS * WARP_THREADS;
    let launch_cfg = ((WARP_BLOCKS, 1, 1), (WARP_THREADS, 1, 1));
    // (kernel suffix, PTX mode, b for lane l, width)
    type Case = (&'static str, &'static str, fn(u32) -> u32, u32);
    let cases: [Case; 8] = [
        ("idx", "idx", |l| (l + 3) % 32, 32),
        ("up", "up", |_| 1, 32),
        ("down", "down", |_| 2, 32),
        ("xor", "bfly", |_| 5, 32),
        ("idx_width8", "idx", |_| 3, 8),
        ("up_width8", "up", |_| 3, 8),
        ("down_width8", "down", |_| 3, 8),
        ("xor_width8", "bfly", |_| 9, 8),
    ];
    for (suffix, mode, b, width) in cases {
        let src = |i: u32| {
            let lane = i % 32;
            i - lane + shfl_source(mode, lane, b(lane), width)
        };
        let name = format!("warp_shfl_{suffix}_u32");
        let mut out = h.zeros::<u32>(n as usize);
        launch!(h, name, grid launch_cfg.0, block launch_cfg.1, smem 0; &mut out);
        let got = h.download(&out);
        for i in 0..n {
            let want = word(src(i));
            f.check(got[i as usize] == want, || {
                format!(
                    "{name}: thread {i} got {:#x}, expected {want:#x} (lane {})",
                    got[i as usize],
                    src(i) % 32
                )
            });
        }
        if width == 32 {
            let name = format!("warp_shfl_{suffix}_u64");
            let mut out = h.zeros::<u64>(n as usize);
            launch!(h, name, grid launch_cfg.0, block launch_cfg.1, smem 0; &mut out);
            let got = h.download(&out);
            for i in 0..n {
                let want = dword(src(i));
                f.check(got[i as usize] == want, || {
                    format!(
                        "{name}: thread {i} got {:#x}, expected {want:#x}",
                        got[i as usize]
                    )
                });
            }
        }
    }
    f.assert_none("shuffle");
}

fn warp_votes_ballots_and_masks() {
    let Some(h) = harness() else { return };
    let mut f = Failures::default();
    let n = (WARP_BLOCKS * WARP_THREADS) as usize;
    let (grid, block) = ((WARP_BLOCKS, 1, 1), (WARP_THREADS, 1, 1));

    let mut out = h.zeros::<u32>(n);
    launch!(h, "warp_ballot_parity", grid grid, block block, smem 0; &mut out);
    let got = h.download(&out);
    f.check(got.iter().all(|&m| m == 0xAAAA_AAAA), || {
        format!("warp_ballot_parity: {got:x?}")
    });

    let mut out = h.zeros::<u32>(n);
    launch!(h, "warp_ballot_even_mask", grid grid, block block, smem 0; &mut out);
    let got = h.download(&out);
    for (i, &m) in got.iter().enumerate() {
        let want = if i % 2 == 0 { 0x1111_1111 } else { 0xdead };
        f.check(m == want, || {
            format!("warp_ballot_even_mask: thread {i}: {m:#x}, expected {want:#x}")
        });
    }

    let mut out = h.zeros::<u32>(n * VOTE_STRIDE as usize);
    launch!(h, "warp_vote", grid grid, block block, smem 0; &mut out);
    let got = h.download(&out);
    for (i, r) in got.chunks(VOTE_STRIDE as usize).enumerate() {
        f.check(r == [1, 0, 1, 0, 1, 0], || {
            format!("warp_vote: thread {i}: {r:?}, expected [1, 0, 1, 0, 1, 0]")
        });
    }

    let mut out = h.zeros::<u32>(2 * n);
    launch!(h, "warp_activemask", grid grid, block block, smem 0; &mut out);
    let got = h.download(&out);
    for (i, r) in got.chunks(2).enumerate() {
        let lane = (i % 32) as u32;
        f.check(r[0] & (1 << lane) != 0, || {
            format!(
                "warp_activemask: thread {i}: {:#x} lacks its own lane",
                r[0]
            )
        });
        if lane.is_multiple_of(2) {
            f.check(r[1] & (1 << lane) != 0 && r[1] & 0xAAAA_AAAA == 0, || {
                format!("warp_activemask: thread {i}: branch mask {:#x} lacks its lane or holds an odd lane", r[1])
            });
        } else {
            f.check(r[1] == 0, || {
                format!("warp_activemask: odd thread {i} wrote {:#x}", r[1])
            });
        }
    }
    if got.chunks(2).any(|r| r[0] != u32::MAX) {
        eprintln!("note: activemask at kernel entry was not always the full warp (allowed)");
    }

    let mut out = h.zeros::<u32>(2 * n);
    let nn = n as u32;
    launch!(h, "warp_syncwarp", grid grid, block block, smem WARP_THREADS * 4; &mut out, &nn);
    let got = h.download(&out);
    for i in 0..nn {
        let full = got[i as usize];
        f.check(full == word(i ^ 1), || {
            format!(
                "warp_syncwarp: thread {i}: {full:#x}, expected {:#x}",
                word(i ^ 1)
            )
        });
        let even = got[(nn + i) as usize];
        let want = if i % 2 == 0 { word((i ^ 2) + nn) } else { 0 };
        f.check(even == want, || {
            format!("warp_syncwarp (even lanes): thread {i}: {even:#x}, expected {want:#x}")
        });
    }
    f.assert_none("warp collective");
}

// ---------------------------------------------------------------------------------------
// Block barriers

fn block_barriers() {
    let Some(h) = harness() else { return };
    let mut f = Failures::default();
    let (nb, nt) = (BAR_BLOCKS, BAR_THREADS);
    let n = (nb * nt) as usize;
    let (grid, block, smem) = ((nb, 1, 1), (nt, 1, 1), nt * 4);
    let each = |f: &mut Failures, name: &str, got: &[u32], want: &dyn Fn(u32, u32) -> u32| {
        for b in 0..nb {
            for t in 0..nt {
                let (g, w) = (got[(b * nt + t) as usize], want(b, t));
                f.check(g == w, || {
                    format!("{name}: block {b} thread {t}: {g:#x}, expected {w:#x}")
                });
            }
        }
    };

    let mut out = h.zeros::<u32>(n);
    launch!(h, "bar_syncthreads", grid grid, block block, smem smem; &mut out);
    each(&mut f, "bar_syncthreads", &h.download(&out), &|b, t| {
        word(b * nt + (t + 1) % nt)
    });

    let mut out = h.zeros::<u32>(n * BAR_REDUCE_STRIDE as usize);
    launch!(h, "bar_syncthreads_reduce", grid grid, block block, smem smem; &mut out);
    let count = (0..nt).filter(|t| t % 3 == 0).count() as u32;
    for (i, r) in h
        .download(&out)
        .chunks(BAR_REDUCE_STRIDE as usize)
        .enumerate()
    {
        let want = [count, 1, 0, 1, 0];
        f.check(r == want, || {
            format!("bar_syncthreads_reduce: thread {i}: {r:?}, expected {want:?}")
        });
    }

    let mut out = h.zeros::<u32>(n);
    launch!(h, "bar_named_arrive", grid grid, block block, smem smem; &mut out);
    each(&mut f, "bar_named_arrive", &h.download(&out), &|b, t| {
        if t < nt / 2 {
            !word(b * nt + t)
        } else {
            word(b * nt + t - nt / 2)
        }
    });

    let mut out = h.zeros::<u32>(n);
    launch!(h, "bar_named_subsets", grid grid, block block, smem smem; &mut out);
    each(&mut f, "bar_named_subsets", &h.download(&out), &|b, t| {
        let (base, size) = if t < BAR_SUBSET_A {
            (0, BAR_SUBSET_A)
        } else {
            (BAR_SUBSET_A, nt - BAR_SUBSET_A)
        };
        word(b * nt + base + (t - base + 1) % size)
    });
    f.assert_none("barrier");
}

// ---------------------------------------------------------------------------------------
// Indices

fn every_thread_sees_its_indices() {
    let Some(h) = harness() else { return };
    let mut f = Failures::default();
    let (g, b) = (INDEX_GRID, INDEX_BLOCK);
    let per_block = b.0 * b.1 * b.2;
    let blocks = g.0 * g.1 * g.2;
    let total = per_block * blocks;
    let mut out = h.zeros::<u32>((total * INDEX_STRIDE) as usize);
    launch!(h, "index_all", grid g, block b, smem 0; &mut out);
    let got = h.download(&out);
    let warps = per_block.div_ceil(32);
    let mut seen = 0;
    for bz in 0..g.2 {
        for by in 0..g.1 {
            for bx in 0..g.0 {
                for tz in 0..b.2 {
                    for ty in 0..b.1 {
                        for tx in 0..b.0 {
                            let block_id = bx + g.0 * (by + g.1 * bz);
                            let tib = tx + b.0 * (ty + b.1 * tz);
                            let gid = block_id * per_block + tib;
                            let want = [
                                tx,
                                ty,
                                tz,
                                b.0,
                                b.1,
                                b.2,
                                bx,
                                by,
                                bz,
                                g.0,
                                g.1,
                                g.2,
                                tib % 32,
                                tib / 32,
                                block_id * warps + tib / 32,
                                gid,
                                tib,
                                block_id,
                                warps,
                                total,
                            ];
                            let row =
                                &got[(gid * INDEX_STRIDE) as usize..][..INDEX_STRIDE as usize];
                            f.check(row[..20] == want, || {
                                format!("index_all: thread {gid}: {row:?}, expected {want:?} then smid, nsmid")
                            });
                            f.check(row[20] < row[21], || {
                                format!(
                                    "index_all: thread {gid}: smid {} not below nsmid {}",
                                    row[20], row[21]
                                )
                            });
                            seen += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(seen, total);
    f.assert_none("index");
}

// ---------------------------------------------------------------------------------------
// Time

fn clocks_advance_and_nanosleep_sleeps() {
    let Some(h) = harness() else { return };
    let mut f = Failures::default();
    let n: u32 = 256;
    let mut out = h.zeros::<u64>(3 * n as usize);
    launch!(h, "time_clock64", grid (2, 1, 1), block (128, 1, 1), smem 0; &mut out, &n);
    for (i, c) in h.download(&out).chunks(3).enumerate() {
        f.check(c[0] < c[1] && c[1] < c[2], || {
            format!("time_clock64: thread {i}: {c:?} not increasing")
        });
    }

    let ns: u32 = 100_000;
    let mut out = h.zeros::<u64>(3 * n as usize);
    launch!(h, "time_nanosleep", grid (2, 1, 1), block (128, 1, 1), smem 0; &mut out, &n, &ns);
    let got = h.download(&out);
    let requested = 10 * ns as u64;
    let (mut lo, mut hi) = (u64::MAX, 0);
    for (i, t) in got.chunks(3).enumerate() {
        f.check(t[0] > 0 && t[1] > t[0] && t[2] == t[1] - t[0], || {
            format!("time_nanosleep: thread {i}: globaltimer {t:?} did not advance")
        });
        lo = lo.min(t[2]);
        hi = hi.max(t[2]);
    }
    eprintln!("10 x nanosleep({ns}) took {lo}..{hi} ns (requested {requested} ns)");
    // The ISA only promises a sleep in [0, 2t]; a quarter of the request is a loose floor
    // that still catches a nanosleep that does nothing, and a second is a generous ceiling.
    f.check(lo >= requested / 4, || {
        format!("time_nanosleep: slept only {lo} ns of {requested}")
    });
    f.check(hi < 1_000_000_000, || {
        format!("time_nanosleep: slept {hi} ns")
    });
    f.assert_none("time");
}

// ---------------------------------------------------------------------------------------
// Dynamic shared memory

fn smem_roundtrip<T: DeviceRepr + ValidAsZeroBits + PartialEq + std::fmt::Debug + Copy>(
    h: &Harness,
    f: &mut Failures,
    suffix: &str,
    input: fn(u32) -> T,
    to_u64: fn(T) -> u64,
) {
    let (blocks, bytes) = (3u32, 4000u32);
    let len = bytes / std::mem::size_of::<T>() as u32;
    let name = format!("smem_roundtrip_{suffix}");
    let mut out = h.zeros::<T>((blocks * len) as usize);
    let mut meta = h.zeros::<T>(2 * blocks as usize);
    launch!(h, name, grid (blocks, 1, 1), block (128, 1, 1), smem bytes; &mut out, &mut meta);
    let got = h.download(&out);
    for b in 0..blocks {
        for k in 0..len {
            let (g, w) = (got[(b * len + k) as usize], input(b * len + len - 1 - k));
            f.check(g == w, || {
                format!("{name}: block {b} element {k}: {g:?}, expected {w:?}")
            });
        }
    }
    for (b, m) in h.download(&meta).chunks(2).enumerate() {
        let (size, misalign) = (to_u64(m[0]), to_u64(m[1]));
        f.check(size == bytes as u64, || {
            format!("{name}: block {b} sees {size} bytes, launched with {bytes}")
        });
        f.check(misalign % 8 == 0, || {
            format!("{name}: block {b}: base address is {misalign} mod 16")
        });
    }
}

fn dynamic_shared_memory_round_trips() {
    let Some(h) = harness() else { return };
    let mut f = Failures::default();
    smem_roundtrip::<u32>(&h, &mut f, "u32", word, u64::from);
    smem_roundtrip::<u64>(&h, &mut f, "u64", dword, |x| x);
    f.assert_none("dynamic shared memory");
}

fn shfl_source_follows_the_ptx_isa() {
    // Host-only sanity check of the emulator the shuffle test relies on.
    assert_eq!(shfl_source("idx", 5, 3, 32), 3);
    assert_eq!(shfl_source("idx", 13, 3, 8), 11);
    assert_eq!(shfl_source("up", 0, 1, 32), 0);
    assert_eq!(shfl_source("up", 9, 3, 8), 9);
    assert_eq!(shfl_source("up", 12, 3, 8), 9);
    assert_eq!(shfl_source("down", 31, 2, 32), 31);
    assert_eq!(shfl_source("down", 4, 3, 8), 7);
    assert_eq!(shfl_source("down", 5, 3, 8), 5);
    assert_eq!(shfl_source("bfly", 6, 5, 32), 3);
    // Across segments: a lower segment is readable, a higher one is not.
    assert_eq!(shfl_source("bfly", 9, 9, 8), 0);
    assert_eq!(shfl_source("bfly", 0, 9, 8), 0);
}

gtap_host::gpu_test_main!(
    atomics_u32,
    atomics_i32,
    atomics_u64,
    atomics_i64,
    a_static_is_a_device_atomic,
    loads_and_stores_u32,
    loads_and_stores_i32,
    loads_and_stores_u64,
    loads_and_stores_i64,
    message_passing_through_fences_and_release_acquire,
    warp_shuffles,
    warp_votes_ballots_and_masks,
    block_barriers,
    every_thread_sees_its_indices,
    clocks_advance_and_nanosleep_sleeps,
    dynamic_shared_memory_round_trips,
; cpu: [shfl_source_follows_the_ptx_isa]);
