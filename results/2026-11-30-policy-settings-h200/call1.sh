# Session 42, call 1: the back-off's settings for fib without a cutoff (issue 20), and what
# the promising ones cost the other programs, on 3dec17d's bundle (scripts/ab-flags.sh).
set -u
AB_OUT=/tmp/c1 . scripts/ab-flags.sh
S1=("def|" "br8|--inline-backoff-ratio 8" "br16|--inline-backoff-ratio 16" "br64|--inline-backoff-ratio 64"
    "tr0|--inline-task-rounds 0" "br16tr0|--inline-backoff-ratio 16 --inline-task-rounds 0"
    "br0tr0|--inline-backoff-ratio 0 --inline-task-rounds 0" "tr32|--inline-task-rounds 32")
for r in 1 2; do
  for s in "${S1[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    ab_run $name-fib-r$r $flags --runs 5 fib --n 26,30,35,40
  done
done
tar czf $OUT/c1.tgz -C /tmp c1
S2=("def|" "br16|--inline-backoff-ratio 16" "br64|--inline-backoff-ratio 64" "br16tr0|--inline-backoff-ratio 16 --inline-task-rounds 0")
for s in "${S2[@]}"; do
  name=${s%%|*}; flags=${s#*|}
  ab_run $name-epaq $flags --runs 3 epaq fib --n 40 --cutoff 10,14,16,18 --leaf both --queues 1,3
  ab_run $name-nq $flags --runs 3 nqueens --n 16 --cutoff 8,16 --form joined,detached
  ab_run $name-uts $flags --runs 3 uts --tree t1l,t3l
  ab_run $name-sort $flags --runs 3 sort --algo cilksort,mergesort-mixed
  ab_run $name-tree $flags --runs 3 tree --depth 22
  ab_run $name-kn $flags --runs 3 knapsack
  ab_run $name-fp $flags --runs 3 floorplan
  tar czf $OUT/c1.tgz -C /tmp c1
done
ab_summary
tar czf $OUT/c1.tgz -C /tmp c1
echo "== done $(date -u +%T)"
