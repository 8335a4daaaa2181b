# Session 44, call 10: inline resumes with chains cut short: `s44kK` resumes a parent inline
# only while the lane has resumed fewer than K frames this round (its own task counts one),
# staging it for a round after that; against `s44base` (ae81c6e), all with --resume-inline on
# one queue, and the 3-queue EPAQ fib, where inline resumes are the default.
set -u
AB_OUT=/tmp/s44c10 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s44k2 s44k3 s44k5
for r in 1 2; do
  for v in s44base s44k2 s44k3 s44k5; do
    ab_run $v fibri-r$r --runs 5 --resume-inline fib --n 16,20,24,30,35,40
    ab_run $v nqri-r$r --runs 5 --resume-inline nqueens --n 12,14,16 --cutoff 8 --form joined
    ab_run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 3
  done
  ab_run s44base fib-r$r --runs 5 fib --n 16,20,24,30,35,40
done
ab_summary
tar czf $OUT/s44c10.tgz -C /tmp s44c10
echo "== done $(date -u +%T)"
