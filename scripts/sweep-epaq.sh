#!/usr/bin/env bash
# EPAQ cutoff sweep (GTaP section 6.4, Fig. 10): fib(40) (twice: `fib-calls` with GTaP's
# recursive sequential code, `fib` with an explicit stack; GTAP_FIB_LEAF=calls|stack|both,
# default both), nqueens(16) and cilksort of 5e7 elements, each at every cutoff of its list, with one queue and with EPAQ queues (fib and
# cilksort 1 and 3 queues, nqueens 1, 2 and 3; see examples/bench.rs). Runs the bench harness
# from .gpu-bin (scripts/gpu-build.sh) on a GPU machine, one process per program and cutoff
# (so a failure costs one cutoff; it is written as a `# FAILED` comment line), and writes one
# CSV: benchmark,size,cutoff,queues,config,median_ms,min_ms,max_ms,runs,tasks (kernel times
# in ms over RUNS runs after a warm-up; `config` is "1 queue", "2 queues", ...).
#
# Usage: bash scripts/sweep-epaq.sh OUT.csv [RUNS]      (RUNS default 10)
# Cutoff lists (comma-separated), defaulting to GTaP's sweeps:
#   GTAP_CUTOFFS           fib       2,3,...,18
#   GTAP_NQ_CUTOFFS        nqueens   4,5,6,7 (GTaP's cutoff depths 3..6: theirs + 1; from 8 on,
#                          EPAQ's expansion of one queue at a time needs more than the bench's
#                          32768 records per warp: PoolExhausted, measured on an H100)
#   GTAP_CILKSORT_CUTOFFS  cilksort  64,128,...,4096 (sort and merge cutoff alike)
# Sizes: GTAP_EPAQ_FIB_N (40), GTAP_EPAQ_NQ_N (16), GTAP_EPAQ_CILKSORT_N (50000000).
# SWEEP_PROGRAMS="fib nqueens cilksort" picks the programs.
#
# One PNG per program, made where gtap-plot is built (`cargo build --release -p gtap-plot`),
# x = cutoff, y = median kernel time, one line per queue count:
#   target/release/gtap-plot line OUT.csv --filter benchmark=fib-calls --x cutoff --y median_ms \
#       --series config --log-y --x-label 'cutoff' --y-label 'median kernel time (ms)' \
#       --title 'EPAQ: fib(40) by cutoff' -o epaq-fib.png
#   target/release/gtap-plot line OUT.csv --filter benchmark=nqueens --x cutoff --y median_ms \
#       --series config --log-y --x-label 'cutoff depth' --y-label 'median kernel time (ms)' \
#       --title 'EPAQ: nqueens(16) by cutoff depth' -o epaq-nqueens.png
#   target/release/gtap-plot line OUT.csv --filter benchmark=cilksort --x cutoff --y median_ms \
#       --series config --log2-x --log-y --x-label 'sort and merge cutoff (elements)' \
#       --y-label 'median kernel time (ms)' --title 'EPAQ: cilksort 5e7 by cutoff' \
#       -o epaq-cilksort.png
# (The script prints these with OUT filled in when it ends.)
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${1:?usage: sweep-epaq.sh OUT.csv [RUNS]}
runs=${2:-10}
bench=.gpu-bin/examples/bench
fib_cutoffs=${GTAP_CUTOFFS:-2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18}
nq_cutoffs=${GTAP_NQ_CUTOFFS:-4,5,6,7}
cilk_cutoffs=${GTAP_CILKSORT_CUTOFFS:-64,128,256,512,1024,2048,4096}
# fib with both sequential codes: GTaP's recursive calls (fib-calls) and the explicit stack.
export GTAP_FIB_LEAF=${GTAP_FIB_LEAF:-both}
echo "benchmark,size,cutoff,queues,config,median_ms,min_ms,max_ms,runs,tasks" >"$out"
tmp=$(mktemp)
log=$(mktemp)
for program in ${SWEEP_PROGRAMS:-fib nqueens cilksort}; do
  case "$program" in
    fib) var=GTAP_CUTOFFS list=$fib_cutoffs ;;
    nqueens) var=GTAP_NQ_CUTOFFS list=$nq_cutoffs ;;
    cilksort) var=GTAP_CILKSORT_CUTOFFS list=$cilk_cutoffs ;;
    *) echo "unknown program $program" >&2; exit 2 ;;
  esac
  for cutoff in ${list//,/ }; do
    echo "$program cutoff $cutoff" >&2
    if env "$var=$cutoff" timeout 300 "$bench" --gpu-only --runs "$runs" --out "$tmp" \
        "epaq-$program" >"$log" 2>&1; then
      # "fib(40) cutoff 2, 1 queue(s)",gpu,98.1,97.0,99.0,10,331160281
      #   -> fib,40,2,1,1 queue,98.1,97.0,99.0,10,331160281
      tail -n +2 "$tmp" | sed -E \
        's/^"([a-z-]+)\(([^)]*)\) cutoff ([0-9]+), ([0-9]+) queue\(s\)",gpu,/\1,\2,\3,\4,\4 queues,/; s/,1 queues,/,1 queue,/' \
        >>"$out"
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
    "nqueens|--log-y|cutoff depth|nqueens(16) by cutoff depth" \
    "cilksort|--log2-x --log-y|sort and merge cutoff (elements)|cilksort 5e7 by cutoff"; do
  IFS='|' read -r b axes xl title <<<"$spec"
  echo "  target/release/gtap-plot line $out --filter benchmark=$b --x cutoff --y median_ms" \
    "--series config $axes --x-label '$xl' --y-label 'median kernel time (ms)'" \
    "--title 'EPAQ: $title' -o epaq-$b.png"
done
