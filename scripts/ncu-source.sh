#!/usr/bin/env bash
# ncu's source-level view of one gtap kernel, for finding where a round's time goes: the
# launch, warp-state, instruction and source-counter sections, with warp sampling by default
# at its finest (a sample every 32 cycles, so that a short or one-warp run still has
# thousands of samples), written as ncu's details page and as the SASS source page (CSV, xz), which
# scripts/sass-stalls.py summarizes.
#
# Usage (on the GPU machine, after scripts/gpu-build.sh's bundle is unpacked):
#   scripts/ncu-source.sh OUT_DIR NAME KERNEL -- BENCH_ARGS...
# e.g. a one-warp run of fib(12) with every spawn a task, every stall on the critical path:
#   scripts/ncu-source.sh prof fib gtap_fib -- --gpu-only --runs 0 --grid 1 \
#     --no-auto-granularity fib --n 12
# KERNEL is the kernel's exact name (`gtap_<program>`); `--runs 0` leaves the warm-up run,
# which is the one profiled (`-c 1`). BENCH (default .gpu-bin/examples/bench) is the bench.
# SAMPLING (default 0) is ncu's --warp-sampling-interval: a sample every 2^(5+SAMPLING)
# cycles per SM. Raise it for a kernel of more than a few milliseconds at the full grid (10
# for nqueens(16)'s 70 ms), whose samples at 0 would overflow ncu's buffer.
# Writes OUT_DIR/NAME.txt (details), OUT_DIR/NAME-sass.csv.xz, OUT_DIR/NAME-run.txt (the
# bench's output under ncu).
set -euo pipefail
if [ $# -lt 4 ] || [ "$4" != "--" ]; then
  sed -n '2,20p' "$0" >&2
  exit 2
fi
out=$1 name=$2 kernel=$3
shift 4
bench=${BENCH:-.gpu-bin/examples/bench}
mkdir -p "$out"
. "$(dirname "$0")/jit-cache.sh"
rep=$(mktemp -d)/$name
sections=(--section LaunchStats --section WarpStateStats --section SourceCounters
  --section InstructionStats --section SchedulerStats)
ncu --kernel-name "regex:^$kernel\$" -c 1 "${sections[@]}" --warp-sampling-interval "${SAMPLING:-0}" \
  -o "$rep" "$bench" "$@" >"$out/$name-run.txt" 2>&1
ncu -i "$rep.ncu-rep" --page details >"$out/$name.txt"
ncu -i "$rep.ncu-rep" --page source --csv --print-source sass | xz >"$out/$name-sass.csv.xz"
rm -rf "$(dirname "$rep")"
echo "written: $out/$name.txt, $out/$name-sass.csv.xz" >&2
