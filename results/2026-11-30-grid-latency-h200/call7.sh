# Session 44, call 7: the take skips the load of the warp's own deque count while nothing was
# published there since it was last found empty (`s44pub`), against `ae81c6e`'s kernels
# (`s44base`); one bench host (ae81c6e's), each variant's PTX, alternated in two rounds.
set -u
AB_OUT=/tmp/s44c7 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s44pub
for r in 1 2; do
  for v in s44base s44pub; do
    ab_run $v fib-r$r --runs 7 fib --n 16,20,22,24,26,28,30,35,40
    ab_run $v fiboff-r$r --runs 7 --no-auto-granularity fib --n 16,20,24
    ab_run $v nq-r$r --runs 7 nqueens --n 8,9,10,11,12,14,16 --cutoff 8 --form joined,detached
    ab_run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  done
done
for v in s44base s44pub; do
  ab_run $v uts --runs 3 uts --tree t1l,t3l
  ab_run $v sort --runs 3 sort
done
ab_summary
tar czf $OUT/s44c7.tgz -C /tmp s44c7
echo "== done $(date -u +%T)"
