# Session 40, call 4: lift2r / lift4r (a warp moves its inline depth up by at most 2 / 4 levels,
# and only until it first backs off) against pq, uncapped; fib also capped at 128 registers
# (16 warps per SM). Two rounds for fib and the EPAQ fib, one for the rest.
set -u
date -u
AB_OUT=/tmp/c4 . scripts/ab-ptx.sh .gpu-exp/bench-s40.xz pq lift2r lift4r
for v in pq lift2r lift4r; do /tmp/ab-bench --ptx /tmp/ab-$v.ptx --max-registers 128 --gpu-only --runs 1 fib --n 20 >/dev/null 2>&1 & done; wait
echo "== capped compiled $(date -u +%T)"
for r in 1 2; do
  for v in pq lift2r lift4r; do
    ab_run $v fib-def-r$r --runs 5 fib --n 20,22,24,26,28,30,32,35,38,40
    ab_run $v fib-cap-r$r --max-registers 128 --runs 5 fib --n 20,22,24,26,28,30,32,35,38,40
    ab_run $v epaq-def-r$r --runs 5 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 1,3
  done
done
for v in pq lift2r lift4r; do
  ab_run $v nq-def-r1 --runs 5 nqueens --n 10,12,14,16 --cutoff 8
  ab_run $v enq-def-r1 --runs 3 epaq nqueens --n 16 --cutoff 7,11 --queues 2,3
  ab_run $v uts-def-r1 --runs 3 uts --tree t1l,t3l
done
ab_summary
date -u
tar cJf $OUT/c4.txz -C /tmp c4
