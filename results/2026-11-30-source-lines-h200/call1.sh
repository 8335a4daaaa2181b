# Session 45, call 1: inline resumes of one parent per lane per round, with such rounds judged
# by the policy as ordinary ones (`s45one`: K = 2 and `chained` false whenever inline resumes
# are on), against `s44base`'s default and `s44k2` (K = 2, chained rounds as before), over the
# one-queue programs that join; the 3-queue EPAQ fib. Then ncu's source view of fib(16) and
# fib(20) at the full grid with the policy off (s44base), for the critical chain's stalls.
set -u
AB_OUT=/tmp/s45c1 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s44k2 s45one
for r in 1 2; do
  for s in "s44base|def|" "s44k2|k2ri|--resume-inline" "s45one|oneri|--resume-inline"; do
    IFS='|' read -r v n f <<<"$s"
    ab_run $v $n-fib-r$r --runs 5 $f fib --n 16,20,24,30,40
    ab_run $v $n-ef-r$r --runs 3 $f epaq fib --n 40 --cutoff 10,16 --leaf calls --queues 1
  done
done
for s in "s44base|def|" "s44k2|k2ri|--resume-inline" "s45one|oneri|--resume-inline"; do
  IFS='|' read -r v n f <<<"$s"
  ab_run $v $n-nq --runs 3 $f nqueens --n 10,12,14,16 --cutoff 7,8 --form joined
  ab_run $v $n-uts --runs 3 $f uts --tree t1l,t3l
  ab_run $v $n-tree --runs 3 $f tree --depth 22
  ab_run $v $n-kn --runs 3 $f knapsack
  ab_run $v $n-fp --runs 3 $f floorplan
done
for v in s44base s45one; do
  ab_run $v ef3 --runs 5 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 3
done
ab_summary
echo "== ncu $(date -u +%T)"
for n in 16 20; do
  BENCH=/tmp/ab-bench timeout 120 bash scripts/ncu-source.sh /tmp/s45c1/ncu fib$n gtap_fib -- \
    --ptx /tmp/ab-s44base.ptx --gpu-only --runs 0 --no-auto-granularity fib --n $n \
    || echo "FAIL ncu fib$n"
done
tar czf $OUT/s45c1.tgz -C /tmp s45c1
echo "== done $(date -u +%T)"
