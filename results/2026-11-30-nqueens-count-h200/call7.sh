# Session 43, call 7: PROTOTYPE (branch wip/sum-shared): the summing loop's stack in shared
# memory (sh) against 861ae36's device code (rs), one host built on the branch (its launches
# reserve the region for both).
set -u
AB_OUT=/tmp/c7 . scripts/ab-ptx.sh .gpu-exp/bench-sh.xz rs sh
for r in 1 2; do
  for v in rs sh; do
    ab_run $v fib-r$r --runs 5 fib --n 26,30,35,40
    ab_run $v nqn-r$r --runs 3 nqueens --n 14,16 --cutoff 7,16 --form joined,detached
  done
done
for v in rs sh; do
  ab_run $v uts --runs 3 uts --tree t1l,t3l
  ab_run $v epaq --runs 3 epaq fib --n 40 --cutoff 14,16 --leaf both --queues 1,3
  ab_run $v kn --runs 3 knapsack
done
ab_summary
tar czf $OUT/c7.tgz -C /tmp c7
date -u
