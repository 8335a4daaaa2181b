# Session 44, call 11: inline resumes with one parent per lane per round (`s44k2` with
# --resume-inline) as a one-queue default, against `s44base`'s default and its unlimited
# inline resumes, over the one-queue programs that join.
set -u
AB_OUT=/tmp/s44c11 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s44k2
for s in "s44base|def|" "s44k2|k2ri|--resume-inline" "s44base|ri|--resume-inline"; do
  IFS='|' read -r v n f <<<"$s"
  ab_run $v $n-nq --runs 3 $f nqueens --n 10,12,14,16 --cutoff 7,8 --form joined
  ab_run $v $n-uts --runs 3 $f uts --tree t1l,t3l
  ab_run $v $n-tree --runs 3 $f tree --depth 22
  ab_run $v $n-kn --runs 3 $f knapsack
  ab_run $v $n-fp --runs 3 $f floorplan
  ab_run $v $n-ef --runs 3 $f epaq fib --n 40 --cutoff 10,16 --leaf calls --queues 1
  ab_run $v $n-sort --runs 3 $f sort
  ab_run $v $n-fib --runs 5 $f fib --n 20,26,30,40
done
ab_summary
tar czf $OUT/s44c11.tgz -C /tmp s44c11
echo "== done $(date -u +%T)"
