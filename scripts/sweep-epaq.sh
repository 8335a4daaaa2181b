#!/usr/bin/env bash
# EPAQ cutoff sweep (GTaP section 6.4, Fig. 10): fib(40) (twice: `fib-calls` with GTaP's
# recursive sequential code, `fib` with an explicit stack; FIB_LEAF=calls|stack|both, default
# both), nqueens(16) and cilksort of 5e7 elements, each at every cutoff of its list, with one
# queue and with EPAQ queues (fib and cilksort 1 and 3 queues, nqueens 1, 2 and 3; see
# examples/bench/epaq.rs). Runs the bench from .gpu-bin (scripts/gpu-build.sh) on a GPU
# machine, one process per program and cutoff (so a failure costs one cutoff; it is written
# as a `# FAILED` comment line), and writes the bench's CSV (benchmark,size,cutoff,queues,...,
# kernel times in ms over RUNS runs after a warm-up) for all of them.
#
# Usage: bash scripts/sweep-epaq.sh OUT.csv [RUNS] [-- MORE BENCH FLAGS]   (RUNS default 10)
#   e.g. ... -- --queue-order most-generated --top-up 2 --resume-inline --config-name tuned
# Cutoff lists (comma-separated), defaulting to GTaP's sweeps:
#   FIB_CUTOFFS       fib       2,3,...,18
#   NQ_CUTOFFS        nqueens   4,5,6,7 (GTaP's cutoff depths 3..6: theirs + 1; 8 to 12
#                     run too: where EPAQ's expansion of one queue at a time needs more than
#                     the bench's 32768 records per warp, warps borrow from the record reserve)
#   CILKSORT_CUTOFFS  cilksort  64,128,...,4096 (sort and merge cutoff alike)
# Sizes: FIB_N (40), NQ_N (16), CILKSORT_N (5e7). PROGRAMS="fib nqueens cilksort" picks the
# programs; BENCH the bench binary.
#
# One PNG per program, made where gtap-plot is built (`cargo build --release -p gtap-plot`),
# x = cutoff, y = median kernel time, one line per queue count; the script prints the
# commands with OUT filled in when it ends, e.g.:
#   target/release/gtap-plot line OUT.csv --filter benchmark=fib-calls --x cutoff --y median_ms \
#       --series queues --log-y --x-label 'cutoff' --y-label 'median kernel time (ms)' \
#       --title 'EPAQ: fib(40) by cutoff' -o epaq-fib-calls.png
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${1:?usage: sweep-epaq.sh OUT.csv [RUNS] [-- MORE BENCH FLAGS]}
runs=${2:-10}
shift $(($# < 2 ? $# : 2))
[ "${1:-}" = -- ] && shift
bench=${BENCH:-.gpu-bin/examples/bench}
fib_cutoffs=${FIB_CUTOFFS:-2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18}
nq_cutoffs=${NQ_CUTOFFS:-4,5,6,7}
cilk_cutoffs=${CILKSORT_CUTOFFS:-64,128,256,512,1024,2048,4096}
: >"$out"
header=
tmp=$(mktemp)
log=$(mktemp)
for program in ${PROGRAMS:-fib nqueens cilksort}; do
  case "$program" in
    fib) list=$fib_cutoffs args=(--n "${FIB_N:-40}" --leaf "${FIB_LEAF:-both}") ;;
    nqueens) list=$nq_cutoffs args=(--n "${NQ_N:-16}") ;;
    cilksort) list=$cilk_cutoffs args=(--n "${CILKSORT_N:-5e7}") ;;
    *) echo "unknown program $program" >&2; exit 2 ;;
  esac
  for cutoff in ${list//,/ }; do
    echo "$program cutoff $cutoff" >&2
    if timeout 300 "$bench" --gpu-only --runs "$runs" --out "$tmp" "$@" \
        epaq "$program" "${args[@]}" --cutoff "$cutoff" >"$log" 2>&1; then
      if [ -z "$header" ]; then header=$(head -n 1 "$tmp"); echo "$header" >>"$out"; fi
      tail -n +2 "$tmp" >>"$out"
    else
      rc=$?
      echo "# FAILED: $program cutoff $cutoff (exit $rc): $(grep -m1 -A1 -E 'panicked|error' "$log" | tr '\n' ' ')" >>"$out"
      tail -n 5 "$log" >&2
    fi
  done
done
rm -f "$tmp" "$log"
echo "sweep written to $out"
echo "plots (where gtap-plot is built):"
for spec in "fib-calls|--log-y|cutoff|fib(40), recursive leaves, by cutoff" \
    "fib|--log-y|cutoff|fib(40), explicit-stack leaves, by cutoff" \
    "nqueens|--log-y|cutoff|nqueens(16) by cutoff (GTaP's depth + 1)" \
    "cilksort|--log2-x --log-y|sort and merge cutoff (elements)|cilksort 5e7 by cutoff"; do
  IFS='|' read -r b axes xl title <<<"$spec"
  echo "  target/release/gtap-plot line $out --filter benchmark=$b --x cutoff --y median_ms" \
    "--series queues $axes --x-label '$xl' --y-label 'median kernel time (ms)'" \
    "--title 'EPAQ: $title' -o epaq-$b.png"
done
