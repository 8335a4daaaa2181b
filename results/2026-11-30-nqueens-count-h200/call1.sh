# Session 43, call 1: nqueens' sequential count with its search in registers (rg: branches,
# rs: selects) against main's stack count (nb), one host; then the back-off ratio 8 against
# the default on main's PTX over the program set; then GTaP.
set -u
AB_OUT=/tmp/c1 . scripts/ab-ptx.sh .gpu-exp/bench-s43.xz nb rg rs
V="nb rg rs"
for r in 1 2; do
  for v in $V; do
    ab_run $v nq16-r$r --runs 3 nqueens --n 16 --cutoff 7,8 --form joined,detached
  done
  tar czf $OUT/c1.tgz -C /tmp c1
done
for v in $V; do
  ab_run $v nqs --runs 5 nqueens --n 10,12,13,14,15 --cutoff 8 --form joined,detached
  ab_run $v epaq --runs 3 epaq nqueens --n 16 --cutoff 8,11 --queues 1,3
done
tar czf $OUT/c1.tgz -C /tmp c1
echo "== part A done $(date -u +%T)"
S=("def|" "br8|--inline-backoff-ratio 8" "br6|--inline-backoff-ratio 6")
for r in 1 2; do
  for s in "${S[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    ab_run nb $name-fib-r$r $flags --runs 5 fib --n 26,30,35,40
  done
done
tar czf $OUT/c1.tgz -C /tmp c1
for s in "${S[@]:0:2}"; do
  name=${s%%|*}; flags=${s#*|}
  ab_run nb $name-nqn $flags --runs 3 nqueens --n 16 --cutoff 16 --form joined,detached
  ab_run nb $name-epaqf $flags --runs 3 epaq fib --n 40 --cutoff 10,14,16,18 --leaf both --queues 1,3
  ab_run nb $name-uts $flags --runs 3 uts --tree t1l,t3l
  ab_run nb $name-sort $flags --runs 3 sort --algo cilksort,mergesort-mixed
  ab_run nb $name-tree $flags --runs 3 tree --depth 22
  ab_run nb $name-kn $flags --runs 3 knapsack
  ab_run nb $name-fp $flags --runs 3 floorplan
  tar czf $OUT/c1.tgz -C /tmp c1
done
ab_summary
echo "== part B done $(date -u +%T)"
RUNS=5 bash .anchor-gtap/run.sh > /tmp/c1/anchor.csv 2> /tmp/c1/anchor.log || echo "anchor failed"
tar czf $OUT/c1.tgz -C /tmp c1
echo "== anchor done $(date -u +%T)"
