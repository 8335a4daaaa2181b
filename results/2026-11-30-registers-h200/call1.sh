# Session 41, call 1: the thread kernels' registers. base (HEAD e2f07bd), all (the four cold
# failure functions inlined: fail_words, raise_stop, note_failed_task, fail_exhausted) and
# divall (all, plus no 64-bit division or remainder in the worker loop). One bench host.
# all is also run with the policy's depth of the 14-warps-per-SM grid (--inline-min-depth 21),
# since 16 warps per SM moves the default from 21 to 22.
set -u
date -u
AB_OUT=/tmp/c1 . scripts/ab-ptx.sh .gpu-exp/bench-s41.xz base all divall
snap() { tar cJf $OUT/c1.txz -C /tmp c1; }
for r in 1 2; do
  for v in base all divall; do
    ab_run $v fib-def-r$r --runs 5 fib --n 20,22,24,26,28,30,32,35,38,40
    ab_run $v epaq-def-r$r --runs 5 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 1,3
  done
  ab_run all fib-md21-r$r --inline-min-depth 21 --runs 5 fib --n 20,22,24,26,28,30,32,35,38,40
  snap; echo "== round $r $(date -u +%T)"
done
for v in base all divall; do
  ab_run $v nq-def-r1 --runs 5 nqueens --n 10,12,14,16 --cutoff 8
  ab_run $v enq-def-r1 --runs 3 epaq nqueens --n 16 --cutoff 7,11 --queues 2,3
  snap
done
for v in base all divall; do
  ab_run $v uts-def-r1 --runs 3 uts --tree t1l,t3l
  snap
done
ab_summary
date -u
snap
