#!/usr/bin/env bash
# gtap next to GTaP's own CUDA runtime, on the same GPU in the same call, for the programs both
# have: fib(30,35,40) without a cutoff, nqueens(12,14,16) at GTaP's cutoff depth 7 (gtap's
# cutoff 8: the same tasks; gtap's joined program and its detached one, which is GTaP's form:
# no taskwait, a shared counter; and GTaP's nq again with gtap's sequential count as its leaf,
# scripts/anchor-leaf.sh, so that one comparison has the same leaf), fib(40) at cutoff 10 with
# GTaP's recursive leaves on 1 and 3 queues. gtap runs each in its default configuration and
# in a named tuned one (TUNED; for the programs with a cutoff, `tuned-policy-off`: TUNED with
# the granularity policy off). Then
# the CPU baselines of the headline programs (fib(40), nqueens(16), mergesort 1e7, cilksort
# 1e8) with gtap's GPU rows beside them, and one joined table (`bench join`) with the ratio
# GTaP / gtap (kernel times) and CPU / gtap (end-to-end and kernel times).
#
# Setup, on the machine that builds (from the repository root):
#   cp -r ../shared/anchors/gtap .anchor-gtap   # GTaP's anchor, git-ignored; travels with the tree
#   scripts/gpu-build.sh                        # .gpu-bin/: the bench, COMMIT, bundle.tar.xz
# On the GPU machine, from the repository root:
#   bash scripts/side-by-side.sh [OUT_DIR]      # default: $OUT, else ./side-by-side
# With the device tool: carry [".gpu-bin/bundle.tar.xz", ".anchor-gtap"] and run
#   tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin && bash scripts/side-by-side.sh
#
# Knobs: RUNS (gtap's measured runs per row, 10), ANCHOR_RUNS (GTaP's processes per program,
# 5), BENCH (the bench binary, .gpu-bin/examples/bench), GTAP_COMMIT (the commit for the header;
# else .gpu-bin/COMMIT, else `git rev-parse HEAD`), TUNED (the tuned configuration's bench
# flags), CPU=0 (skip the CPU baselines and the sorts), ANCHOR_MODULE_LOADING (how GTaP's CUDA
# module is loaded: EAGER by default, LAZY as GTaP's own harness; scripts/anchor-runs.sh says why).
# Writes into OUT_DIR: anchor.csv and anchor.log (GTaP's output), gtap-*.csv, .md and .log (the
# bench's), side-by-side.csv and side-by-side.md (the joined table, headed by the GPU from
# nvidia-smi, the date and the commit). The exit status is nonzero if anything failed.
#
# Charts: with the plot tool beside the bench (PLOT, default .gpu-bin/gtap-plot, which
# scripts/gpu-build.sh puts in its bundle), two PNGs of side-by-side.csv's ratios:
# side-by-side-gtap.png (GTaP / gtap kernel time per program, a bar per configuration) and
# side-by-side-cpu.png (CPU baseline / gtap end-to-end time, default configuration).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${1:-${OUT:-side-by-side}}
mkdir -p "$out"
bench=${BENCH:-.gpu-bin/examples/bench}
runs=${RUNS:-10}
# The configuration that made EPAQ fib(40) at cutoff 10 fastest on an H200 (README, "Limits"):
# GTaP's queue order, top-up, inline resumes, 24 warps per SM with 80 registers per thread.
tuned=${TUNED:---queue-order most-generated --top-up 2 --resume-inline --warps-per-sm 24 --max-registers 80}
. scripts/anchor-run-header.sh

echo "== GTaP (anchor)" >&2
. scripts/anchor-runs.sh
if ! CUDA_MODULE_LOADING=$anchor_module_loading RUNS=${ANCHOR_RUNS:-5} bash .anchor-gtap/run.sh \
    >"$out/anchor.csv" 2>"$out/anchor.log"; then
  echo "GTaP: a build, run or check failed (anchor.csv's # lines, anchor.log)" >&2
  status=1
fi
anchor_loading_line >>"$out/anchor.csv"
# GTaP's nq with gtap's leaf (scripts/anchor-leaf.sh): one leaf for both runtimes.
echo "== GTaP's nq with gtap's leaf" >&2
if ! RUNS=${ANCHOR_RUNS:-5} bash scripts/anchor-leaf.sh .anchor-gtap >>"$out/anchor.csv" \
    2>>"$out/anchor.log"; then
  echo "GTaP with gtap's leaf: the build, a run or a check failed (anchor.csv's # lines)" >&2
  status=1
fi

# One bench process: NAME, then its flags; its table goes to gtap-NAME.csv.
gtap() {
  local name=$1
  shift
  echo "== gtap $name" >&2
  if ! "$bench" --runs "$runs" --out "$out/gtap-$name.csv" "$@" >"$out/gtap-$name.md" \
      2>"$out/gtap-$name.log"; then
    echo "gtap $name failed: $(tail -n 2 "$out/gtap-$name.log")" >&2
    status=1
  fi
}

for config in default tuned; do
  flags=()
  if [ "$config" = tuned ]; then read -ra flags <<<"$tuned"; fi
  common=(--gpu-only --config-name "$config" "${flags[@]}")
  gtap "fib-$config" "${common[@]}" fib --n 30,35,40
  # Programs with a hand-written cutoff: the tuned configuration also turns the granularity
  # policy off, since their tasks are already coarse and an inlined subtree then runs on one
  # lane of its warp while the others wait (README, "Automatic granularity").
  if [ "$config" = tuned ]; then
    common=(--gpu-only --config-name tuned-policy-off "${flags[@]}" --no-auto-granularity)
  fi
  gtap "nqueens-$config" "${common[@]}" nqueens --n 12,14,16 --cutoff 8
  gtap "epaq-fib-$config" "${common[@]}" epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
done
if [ "${CPU:-1}" = 1 ]; then
  gtap headline-cpu --cpu-only headline --nqueens-cutoff 8
  # The sorts users get: the mixed programs, whose large merges (and cilksort's chunk sorts)
  # are block tasks; the plain mergesort, whose last merges run on one GPU thread (about 8 s
  # for 1e7), is not rerun here.
  gtap sorts-default --gpu-only --config-name default sort --algo mergesort-mixed,cilksort-mixed
fi

csvs=()
for f in "$out"/gtap-*.csv; do [ -f "$f" ] && csvs+=(--gtap-csv "$f"); done
if [ ${#csvs[@]} -eq 0 ]; then
  echo "no gtap CSV to join" >&2
  exit 1
fi
if ! "$bench" join "${csvs[@]}" --anchor-csv "$out/anchor.csv" \
    --out-csv "$out/side-by-side.csv" --out-md "$out/side-by-side.md" \
    --gpu "${gpu:-unknown (no nvidia-smi)}" --commit "$commit" --date "$date"; then
  status=1
fi
echo "written: $out/side-by-side.md and .csv" >&2

plot=${PLOT:-.gpu-bin/gtap-plot}
if [ -x "$plot" ]; then
  where="${gpu%%,*}, gtap ${commit:0:7}"
  "$plot" bar "$out/side-by-side.csv" --filter other=GTaP --category case --value ratio_kernel \
    --series gtap_config --reference 1 --reference 2 --log2-value --size 1000x700 \
    --x-label "GTaP kernel time / gtap kernel time (above 1: gtap faster)" \
    --title "gtap against GTaP's CUDA runtime ($where)" -o "$out/side-by-side-gtap.png" >&2 \
    || status=1
  if [ "${CPU:-1}" = 1 ]; then
    "$plot" bar "$out/side-by-side.csv" --filter other=seq other=rayon --filter gtap_config=default \
      --category case,other_variant,other_cutoff --value ratio_e2e --series other \
      --reference 1 --log2-value --size 1200x800 \
      --x-label "CPU time / gtap end-to-end time (above 1: the GPU faster)" \
      --title "gtap (default configuration) against CPU baselines on the host ($where)" \
      -o "$out/side-by-side-cpu.png" >&2 || status=1
  fi
else
  echo "no plot tool at $plot: no charts (scripts/gpu-build.sh bundles it)" >&2
fi
exit $status
