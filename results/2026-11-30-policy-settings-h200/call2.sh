# Session 42, call 2: occupancy against the leaf-bound programs (issue 22's nqueens(16) 2x):
# register caps with the grid they allow, on 3dec17d's bundle (scripts/ab-flags.sh).
set -u
AB_OUT=/tmp/c2 . scripts/ab-flags.sh
S=("def|" "w16|--max-registers 128 --warps-per-sm 16" "w20|--max-registers 96 --warps-per-sm 20"
   "w24|--max-registers 80 --warps-per-sm 24" "w32|--max-registers 64 --warps-per-sm 32")
for r in 1 2; do
  for s in "${S[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    ab_run $name-nq-r$r $flags --runs 3 nqueens --n 16 --cutoff 7,8 --form joined,detached
  done
  tar czf $OUT/c2.tgz -C /tmp c2
done
for s in "${S[@]}"; do
  name=${s%%|*}; flags=${s#*|}
  ab_run $name-epaq $flags --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
  ab_run $name-fib $flags --runs 5 fib --n 30,35,40
  ab_run $name-nqs $flags --runs 5 nqueens --n 12,14 --cutoff 8 --form joined,detached
done
ab_summary
tar czf $OUT/c2.tgz -C /tmp c2
echo "== done $(date -u +%T)"
RUNS=5 bash .anchor-gtap/run.sh > /tmp/c2/anchor.csv 2> /tmp/c2/anchor.log || echo "anchor failed"
tar czf $OUT/c2.tgz -C /tmp c2
echo "== anchor done $(date -u +%T)"
