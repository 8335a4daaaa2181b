#!/usr/bin/env bash
# The size sweep of GTaP's paper (Fig. 7) side by side: fib(n) for n = 20..40 without a cutoff
# and nqueens(N) for N = 8..16 at GTaP's cutoff depth 7 (gtap's cutoff 8: the same tasks;
# joined and detached, as in scripts/side-by-side.sh), gtap
# in its default configuration next to GTaP's own CUDA runtime, on the same GPU in the same
# call. One joined table (`bench join`) with the ratio GTaP / gtap of kernel times, and a chart.
#
# Setup as for scripts/side-by-side.sh (`.anchor-gtap`, `.gpu-bin` from scripts/gpu-build.sh);
# with the device tool: carry [".gpu-bin/bundle.tar.xz", ".anchor-gtap"] and run
#   tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin && bash scripts/size-sweep.sh
#
# Knobs: FIB_NS and NQ_NS (the sizes, comma-separated), RUNS (gtap's measured runs per size,
# 10), ANCHOR_RUNS (GTaP's processes per size, 5), BENCH, PLOT, GTAP_COMMIT and
# ANCHOR_MODULE_LOADING as in side-by-side.sh, CONFIGS (gtap's configurations, "NAME=bench
# flags" separated by "|"; default "default=", the default configuration alone), e.g.
#   CONFIGS="default=|capped=--max-registers 128" bash scripts/size-sweep.sh
# GTaP's anchor script runs a fixed list of sizes, so this one builds it through its run.sh
# (which then runs nothing) and calls its program binaries directly, one process per run as
# the anchor's run.sh does.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${1:-${OUT:-size-sweep}}
mkdir -p "$out"
bench=${BENCH:-.gpu-bin/examples/bench}
runs=${RUNS:-10}
fib_ns=${FIB_NS:-20,22,24,26,28,30,32,34,36,38,40}
nq_ns=${NQ_NS:-8,9,10,11,12,13,14,15,16}
IFS='|' read -ra configs <<<"${CONFIGS:-default=}"
. scripts/anchor-run-header.sh

export GTAP_ANCHOR_BUILD=${GTAP_ANCHOR_BUILD:-${TMPDIR:-/tmp}/gtap_anchor_build}
echo "== GTaP (anchor): build" >&2
# A filter no program matches: run.sh builds, prints its header lines and runs nothing.
if ! GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh >"$out/anchor-build.log" 2>&1; then
  echo "GTaP's build failed (anchor-build.log)" >&2
  exit 1
fi

echo "== GTaP (anchor): sweep" >&2
. scripts/anchor-runs.sh
grep '^#' "$out/anchor-build.log" >"$out/anchor.csv"
anchor_loading_line >>"$out/anchor.csv"
echo "program,n,queues,kernel_ms" >>"$out/anchor.csv"
# Each size's `# runs` line and CSV row (the join reads the rows and skips `#` lines).
for n in ${fib_ns//,/ }; do
  ANCHOR_ERR=$out/anchor.log anchor_runs fib "$n" fib "$n" >>"$out/anchor.csv" || status=1
done
for n in ${nq_ns//,/ }; do
  ANCHOR_ERR=$out/anchor.log anchor_runs nq "$n" nq "$n" 7 >>"$out/anchor.csv" || status=1
done

# One bench process: NAME, then its flags; its table goes to gtap-NAME.csv.
gtap() {
  local name=$1
  shift
  echo "== gtap $name" >&2
  if ! "$bench" --runs "$runs" --out "$out/gtap-$name.csv" --gpu-only "$@" \
      >"$out/gtap-$name.md" 2>"$out/gtap-$name.log"; then
    echo "gtap $name failed: $(tail -n 2 "$out/gtap-$name.log")" >&2
    status=1
  fi
}
csvs=()
for c in "${configs[@]}"; do
  name=${c%%=*}
  read -ra flags <<<"${c#*=}"
  gtap "fib-$name" --config-name "$name" "${flags[@]}" fib --n "$fib_ns"
  gtap "nqueens-$name" --config-name "$name" "${flags[@]}" nqueens --n "$nq_ns" --cutoff 8
  for f in "$out/gtap-fib-$name.csv" "$out/gtap-nqueens-$name.csv"; do
    [ -f "$f" ] && csvs+=(--gtap-csv "$f")
  done
done
[ ${#csvs[@]} -gt 0 ] || { echo "no gtap CSV to join" >&2; exit 1; }

if ! "$bench" join "${csvs[@]}" --anchor-csv "$out/anchor.csv" \
    --out-csv "$out/size-sweep.csv" --out-md "$out/size-sweep.md" --gpu "${gpu:-unknown (no nvidia-smi)}" --commit "$commit" --date "$date"; then
  status=1
fi
echo "written: $out/size-sweep.md and .csv" >&2

plot=${PLOT:-.gpu-bin/gtap-plot}
if [ -x "$plot" ]; then
  "$plot" bar "$out/size-sweep.csv" --filter other=GTaP --category case --value ratio_kernel \
    --series gtap_config --reference 1 --reference 2 --log2-value --size 1000x900 \
    --x-label "GTaP kernel time / gtap kernel time (above 1: gtap faster)" \
    --title "gtap against GTaP by problem size (${gpu%%,*}, gtap ${commit:0:7})" \
    -o "$out/size-sweep.png" >&2 || status=1
fi
exit $status
