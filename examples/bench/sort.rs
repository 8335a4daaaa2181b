//! `sort`: mergesort and cilksort of random `u32`s. On the GPU the task programs (leaves by
//! insertion sort; the mixed programs' by `sort_unstable`, with block tasks for large merges
//! and, in cilksort-mixed, chunk sorts); its e2e time includes uploading the input and
//! downloading the sorted output into a host buffer made before the runs, as the CPU rows sort
//! a buffer made before theirs (a fresh `Vec` per run would add the page faults of its first
//! touch to what is a copy). With `--pinned` both host buffers are page-locked. On the CPU:
//! what a user reaches for (`sort_unstable`, rayon's `par_sort_unstable`), and the same
//! algorithms with `sort_unstable` leaves, sequential and with rayon. Every output is compared with the reference sort.

use gtap::device::data::Home;
use gtap::host::Gpu;
use gtap::host::cudarc::driver::CudaSlice;
use gtap::host::gpu_runtime::GpuRuntime;
use gtap::{DeviceVec, PinnedVec, ViewMut};

use crate::device::{download_into, dptr, upload, upload_into};
use gtap_examples::rng::Rng;
use gtap_examples::{block_sort, cilksort, cilksort_mixed, mergesort, mergesort_mixed};
use rayon::slice::ParallelSliceMut;

use crate::Bench;
use crate::cli::{SortAlgo, SortArgs, fmt_count};
use crate::cpu_sort;
use crate::harness::{Harness, Key, Sample, timed};

/// `n` random `u32`s of a fixed seed: the same input on every backend.
pub fn random_input(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.next() as u32).collect()
}

impl SortAlgo {
    /// The benchmark's name.
    fn name(self) -> &'static str {
        match self {
            SortAlgo::Mergesort | SortAlgo::MergesortMixed => "mergesort",
            SortAlgo::Cilksort | SortAlgo::CilksortMixed => "cilksort",
        }
    }

    /// Elements when `--n` is not given.
    fn default_n(self) -> usize {
        match self {
            SortAlgo::Mergesort | SortAlgo::MergesortMixed => 10_000_000,
            SortAlgo::Cilksort | SortAlgo::CilksortMixed => 100_000_000,
        }
    }

    /// The thread program whose CPU rows a mixed one shares, if it is mixed.
    fn thread_twin(self) -> Option<SortAlgo> {
        match self {
            SortAlgo::MergesortMixed => Some(SortAlgo::Mergesort),
            SortAlgo::CilksortMixed => Some(SortAlgo::Cilksort),
            SortAlgo::Mergesort | SortAlgo::Cilksort => None,
        }
    }
}

/// The rows of `a`.
pub fn run(b: &mut Bench, a: &SortArgs) {
    for &algo in &a.algo {
        for n in a.n.clone().unwrap_or_else(|| vec![algo.default_n()]) {
            let input = random_input(n, 12345);
            let mut sorted = input.clone();
            sorted.sort_unstable();
            if let Some(rt) = b.rt.as_mut() {
                gpu(&mut b.h, rt, algo, a, &input, &sorted);
            }
            // A mixed program shares its thread twin's CPU rows.
            let shared = algo
                .thread_twin()
                .is_some_and(|twin| a.algo.contains(&twin));
            if !b.h.gpu_only() && !shared {
                cpu(&mut b.h, algo, a, &input, &sorted);
            }
        }
    }
}

/// The GPU row.
fn gpu(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    algo: SortAlgo,
    a: &SortArgs,
    input: &[u32],
    sorted: &[u32],
) {
    let n = input.len();
    let name = algo.name();
    if algo.thread_twin().is_some() {
        mixed(h, rt, algo, a, input, sorted);
        return;
    }
    // Allocated once, as the runtime's own buffers: allocation is not in the e2e time.
    let mut data = DeviceVec::from_slice(rt.gpu(), input).expect("upload");
    let mut tmp = DeviceVec::<u32>::zeros(rt.gpu(), n).expect("device memory");
    let (key, cutoff) = match algo {
        SortAlgo::MergesortMixed | SortAlgo::CilksortMixed => unreachable!("measured by `mixed`"),
        SortAlgo::Mergesort => {
            let c = a.cutoff.unwrap_or(128);
            let key = Key::new(name, fmt_count(n), "gpu", "insertion-sort leaves").cutoff(c);
            (key, c)
        }
        SortAlgo::Cilksort => {
            let c = a.cutoff.unwrap_or(64);
            let variant = "insertion-sort leaves, cutoff sort/merge";
            let key = Key::new(name, fmt_count(n), "gpu", variant)
                .cutoff(format!("{c}/{}", a.merge_cutoff));
            (key, c)
        }
    };
    let mut host = HostBuffers::new(rt.gpu(), input, a.pinned);
    let (src, out) = host.split(input);
    h.measure(key.pinned(a.pinned).queues(1), || {
        let (e2e, s) = timed(|| {
            data.copy_from(src).expect("upload");
            let (d, t) = (data.view_mut(), tmp.view_mut());
            let r = match algo {
                SortAlgo::MergesortMixed | SortAlgo::CilksortMixed => {
                    unreachable!("measured by `mixed`")
                }
                SortAlgo::Mergesort => rt.run(mergesort::program::mergesort(d, t, cutoff)),
                SortAlgo::Cilksort => {
                    rt.run(cilksort::program::cilksort(d, t, cutoff, a.merge_cutoff))
                }
            };
            let (_, s) = r.unwrap_or_else(|e| panic!("{name} on the GPU: {e}"));
            data.copy_to(out).expect("download");
            s
        });
        assert!(out == sorted, "{name} of {n} on the GPU: not sorted");
        Sample::gpu(s, e2e)
    });
}

/// The sizes of a mixed sort's row.
#[derive(Clone, Copy)]
enum MixedParams {
    Merge(mergesort_mixed::Params),
    Cilk(cilksort_mixed::Params),
}

/// The GPU rows of a mixed program, on blocks of `--team` threads (the runtime's
/// configuration is restored afterwards): leaves by `sort_unstable` up to `--cutoff`
/// elements, merges of at least `--block-merge` elements by block tasks of about `--part`
/// outputs each, and in cilksort-mixed chunks of up to `--block-sort` elements sorted by one
/// block task each (a row per value), with `--block-scratch` bytes of scratch per block
/// (a row per value; by default room for `block_sort`'s tiles).
fn mixed(
    h: &mut Harness,
    rt: &mut GpuRuntime,
    algo: SortAlgo,
    a: &SortArgs,
    input: &[u32],
    sorted: &[u32],
) {
    let n = input.len();
    let name = algo.name();
    let base = rt.config().clone();
    let gpu = rt.gpu().clone();
    let mut data = upload(&gpu, input);
    let tmp = upload(&gpu, &vec![0u32; n]);
    let rows: Vec<MixedParams> = match algo {
        SortAlgo::MergesortMixed => {
            let d = mergesort_mixed::Params::default();
            vec![MixedParams::Merge(mergesort_mixed::Params {
                leaf: a.cutoff.unwrap_or(d.leaf),
                block_merge: a.block_merge.unwrap_or(d.block_merge),
                part: a.part.unwrap_or(d.part),
            })]
        }
        SortAlgo::CilksortMixed => a
            .block_sort
            .iter()
            .map(|&block_sort| {
                let d = cilksort_mixed::Params::default();
                MixedParams::Cilk(cilksort_mixed::Params {
                    leaf: a.cutoff.unwrap_or(d.leaf),
                    block_sort,
                    merge_leaf: a.merge_cutoff,
                    block_merge: a.block_merge.unwrap_or(d.block_merge),
                    part: a.part.unwrap_or(d.part),
                })
            })
            .collect(),
        SortAlgo::Mergesort | SortAlgo::Cilksort => unreachable!("not mixed"),
    };
    let scratches = a
        .block_scratch
        .clone()
        .unwrap_or_else(|| vec![block_sort::scratch_bytes(a.team as usize) as u32]);
    for (params, &scratch) in rows
        .iter()
        .flat_map(|p| scratches.iter().map(move |s| (*p, s)))
    {
        rt.set_config(base.clone().block(a.team).block_scratch(scratch))
            .unwrap_or_else(|e| {
                panic!(
                    "{name} (mixed): blocks of {} threads, {scratch} bytes of scratch: {e}",
                    a.team
                )
            });
        let (variant, cutoff) = match params {
            MixedParams::Merge(p) => (
                format!("mixed: block merges (merge path), teams of {}", a.team),
                format!("{}/{}/{}/s{scratch}", p.leaf, p.block_merge, p.part),
            ),
            MixedParams::Cilk(p) => (
                format!(
                    "mixed: block sorts and block merges (merge path), teams of {}",
                    a.team
                ),
                format!(
                    "{}/{}/{}/{}/{}/s{scratch}",
                    p.leaf, p.block_sort, p.merge_leaf, p.block_merge, p.part
                ),
            ),
        };
        let key = Key::new(name, fmt_count(n), "gpu", variant).cutoff(cutoff);
        let mut host = HostBuffers::new(&gpu, input, a.pinned);
        let (src, out) = host.split(input);
        h.measure(key.pinned(a.pinned).queues(1), || {
            let (e2e, s) = timed(|| {
                upload_into(&gpu, src, &mut data);
                let r = match params {
                    MixedParams::Merge(p) => {
                        let (x, y) = (gpu_view(&gpu, &data, n), gpu_view(&gpu, &tmp, n));
                        rt.run(mergesort_mixed::program::sort(x, y, false, p))
                    }
                    MixedParams::Cilk(p) => {
                        let (d, t) = (gpu_view(&gpu, &data, n), gpu_view(&gpu, &tmp, n));
                        rt.run(cilksort_mixed::program::sort(d, t, p))
                    }
                };
                let (_, s) = r.unwrap_or_else(|e| panic!("{name} (mixed) on the GPU: {e}"));
                download_into(&gpu, &data, out);
                s
            });
            assert!(
                out == sorted,
                "{name} (mixed) of {n} on the GPU: not sorted"
            );
            Sample::gpu(s, e2e)
        });
    }
    rt.set_config(base).expect("configuration");
}

/// An exclusive view of the `n` u32s of the device buffer `buf`, for a run.
fn gpu_view<'a>(gpu: &Gpu, buf: &'a CudaSlice<u32>, n: usize) -> ViewMut<'a, u32> {
    // SAFETY: `buf` holds `n` u32s of device memory, borrowed for the view's life, and the
    // run that takes the view is its only user meanwhile.
    unsafe { ViewMut::from_raw_parts(dptr(gpu, buf) as *mut u32, n, Home::Gpu) }
}

/// A GPU row's host buffers, made before its runs: the input it uploads (`input` itself, or
/// a page-locked copy with `--pinned`) and the buffer it downloads the sorted output into.
struct HostBuffers {
    pinned_input: Option<PinnedVec<u32>>,
    pinned_out: Option<PinnedVec<u32>>,
    out: Vec<u32>,
}

impl HostBuffers {
    fn new(gpu: &Gpu, input: &[u32], pinned: bool) -> Self {
        let locked = "page-locked memory";
        HostBuffers {
            pinned_input: pinned.then(|| PinnedVec::from_slice(gpu, input).expect(locked)),
            pinned_out: pinned.then(|| PinnedVec::zeroed(gpu, input.len()).expect(locked)),
            out: if pinned {
                Vec::new()
            } else {
                vec![0; input.len()]
            },
        }
    }

    /// The input to upload and the output buffer.
    fn split<'a>(&'a mut self, input: &'a [u32]) -> (&'a [u32], &'a mut [u32]) {
        let src = self.pinned_input.as_deref().unwrap_or(input);
        let out = match self.pinned_out.as_mut() {
            Some(p) => &mut p[..],
            None => &mut self.out[..],
        };
        (src, out)
    }
}

/// The CPU rows: each run sorts a fresh copy of `input` (the copy is not timed).
fn cpu(h: &mut Harness, algo: SortAlgo, a: &SortArgs, input: &[u32], sorted: &[u32]) {
    let n = input.len();
    let name = algo.name();
    let size = fmt_count(n);
    let mut data = vec![0u32; n];
    let mut tmp = vec![0u32; n];
    let mut row = |h: &mut Harness, key: Key, f: &mut dyn FnMut(&mut [u32], &mut [u32])| {
        h.measure(key, || {
            data.copy_from_slice(input);
            let (t, ()) = timed(|| f(&mut data, &mut tmp));
            assert!(data == sorted, "{name} of {n} on the CPU: not sorted");
            Sample::cpu(t)
        });
    };
    row(
        h,
        Key::new(name, &size, "seq", "sort_unstable"),
        &mut |d, _| d.sort_unstable(),
    );
    for &c in &a.cpu_cutoff {
        for (backend, par) in [("seq", false), ("rayon", true)] {
            let key = Key::new(
                name,
                &size,
                backend,
                format!("{name}, sort_unstable leaves"),
            );
            row(h, key.cutoff(c), &mut |d, t| match algo {
                SortAlgo::Mergesort | SortAlgo::MergesortMixed => cpu_sort::mergesort(d, t, c, par),
                SortAlgo::Cilksort | SortAlgo::CilksortMixed => cpu_sort::cilksort(d, t, c, par),
            });
        }
    }
    row(
        h,
        Key::new(name, &size, "rayon", "par_sort_unstable"),
        &mut |d, _| d.par_sort_unstable(),
    );
}
