# Session 45, call 3: which part of call 2's s45div does what. s45steal: no run-time
# division in the take's queue choice and the thieves' loop (victims by multiply-shift,
# queues round-robin by compare); s45free: a warp's own record told without a division in
# the free; s45q1: with one queue, no load of the parent's queue after its last child's RMW.
# Each against s44base, alternated in each round; and fib(12) and nqueens(10) on one warp
# under ncu for each.
set -u
AB_OUT=/tmp/s45c3 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s45steal s45free s45q1
for r in 1 2 3; do
  for v in s44base s45steal s45free s45q1; do
    ab_run $v fib-r$r --runs 5 fib --n 16,20,24,26,28,30,35,40
    ab_run $v nqd-r$r --runs 5 nqueens --n 8,9,10,11,12,14 --cutoff 7 --form detached
    ab_run $v g1-r$r --runs 5 --grid 1 fib --n 12,16
  done
done
for r in 1 2; do
  for v in s44base s45steal s45free s45q1; do
    ab_run $v nqj-r$r --runs 5 nqueens --n 10,12,14,16 --cutoff 8 --form joined
    ab_run $v ef-r$r --runs 3 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 1,3
    ab_run $v uts-r$r --runs 3 uts --tree t1l,t3l
  done
done
for v in s44base s45steal s45free s45q1; do
  ab_run $v tree --runs 3 tree --depth 22
  ab_run $v kn --runs 3 knapsack
  ab_run $v fp --runs 3 floorplan
done
ab_summary
o=/tmp/s45c3/ncu
for v in s45steal s45free s45q1; do
  BENCH=/tmp/ab-bench timeout 100 bash scripts/ncu-source.sh $o $v-fib12-g1 gtap_fib -- \
    --ptx /tmp/ab-$v.ptx --gpu-only --runs 0 --grid 1 fib --n 12 || echo "FAIL ncu $v"
done
tar czf $OUT/s45c3.tgz -C /tmp s45c3
echo "== done $(date -u +%T)"
