# Session 43, call 2: the headline side by side with GTaP (and GTaP's nq with gtap's leaf)
# and the size sweep at the bundle's commit; then the nqueens programs with the policy on and
# off, without a cutoff, and EPAQ nqueens' cutoff sweep (Fig. 10), on the same bundle.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; nvidia-smi -L; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh /tmp/sbs > /tmp/sbs-console.log 2>&1; echo "sbs rc=$?"; date -u
cp /tmp/sbs-console.log /tmp/sbs/console.log
tar czf $OUT/sbs.tgz -C /tmp sbs
RUNS=5 ANCHOR_RUNS=3 bash scripts/size-sweep.sh /tmp/sbs/sweep > /tmp/sweep-console.log 2>&1; echo "sweep rc=$?"; date -u
cp /tmp/sweep-console.log /tmp/sbs/sweep/console.log
tar czf $OUT/sbs.tgz -C /tmp sbs
AB_OUT=/tmp/c2 . scripts/ab-flags.sh
for r in 1 2; do
  ab_run def-nq-r$r --runs 3 nqueens --n 16 --cutoff 7,8,16 --form joined,detached
  ab_run off-nq-r$r --no-auto-granularity --runs 3 nqueens --n 16 --cutoff 7,8 --form joined,detached
done
ab_run def-enq --runs 3 epaq nqueens --n 16 --cutoff 4,5,6,7,8,9,10,11,12 --queues 1,2,3
ab_summary
tar czf $OUT/c2.tgz -C /tmp c2
date -u
exit 0
