# Session 41, call 3: what the small sizes are sensitive to: fib(20..26), nqueens joined and
# detached 10/12 (cutoff 8), under settings of the bundle's build (scripts/ab-flags.sh).
set -u
AB_OUT=/tmp/c3 . scripts/ab-flags.sh
for r in 1 2; do
  for s in "def" "off --no-auto-granularity" "w8 --warps-per-sm 8" "w4 --warps-per-sm 4" "sa2 --steal-attempts 2" "sa32 --steal-attempts 32" "keep8 --keep 8" "ri --resume-inline"; do
    set -- $s; name=$1; shift
    ab_run $name-fib-r$r "$@" --runs 7 fib --n 20,22,24,26,30
    ab_run $name-nq-r$r "$@" --runs 7 nqueens --n 10,12 --cutoff 8
  done
  tar czf $OUT/c3.tgz -C /tmp c3
done
ab_summary
tar czf $OUT/c3.tgz -C /tmp c3
