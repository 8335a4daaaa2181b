# Session 40, call 1: per-queue ordinary-round averages for the granularity policy's weighing
# (pq) against HEAD (base), one bench host; plus the grid (registers) on pq's EPAQ fib.
set -u
date -u
AB_OUT=/tmp/c1 . scripts/ab-ptx.sh .gpu-exp/bench-s40.xz base pq
for r in 1 2; do
  for v in base pq; do
    ab_run $v fib-r$r --runs 5 epaq fib --n 40 --cutoff 10,12,14,18 --leaf both --queues 3
  done
done
ab_run base fib-off --no-auto-granularity --runs 5 epaq fib --n 40 --cutoff 10,12,14,18 --leaf both --queues 3
for r in 1 2; do
  for v in base pq; do
    ab_run $v nq-r$r --runs 3 epaq nqueens --n 16 --cutoff 7,9,11 --queues 2,3
  done
done
for v in base pq; do
  ab_run $v plain --runs 5 fib --n 30,35,40
  ab_run $v nq16 --runs 3 nqueens --n 16 --cutoff 8
  ab_run $v ck --runs 3 epaq cilksort --n 5e7 --cutoff 256,2048 --queues 3
done
for r in 1 2; do
  ab_run pq cap128-r$r --max-registers 128 --runs 5 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 3
  ab_run pq cap96-r$r --max-registers 96 --warps-per-sm 20 --runs 5 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 3
  ab_run pq cap80-r$r --max-registers 80 --warps-per-sm 24 --runs 5 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 3
done
ab_summary
date -u
tar cJf $OUT/c1.txz -C /tmp c1
