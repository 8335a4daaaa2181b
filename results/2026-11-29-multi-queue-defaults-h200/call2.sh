# Session 39, call 2: at the multi-queue defaults' commit (the bundle's COMMIT): the headline
# side by side with GTaP and the size sweep, the EPAQ cutoff sweep (GTaP's Fig. 10) with the
# default configuration (issue 20: no PoolExhausted), then the GPU suite's first part.
set -u
T0=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; nvidia-smi -L; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh /tmp/sbs > /tmp/sbs-console.log 2>&1; echo "sbs rc=$?"; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/size-sweep.sh /tmp/sbs/sweep > /tmp/sweep-console.log 2>&1; echo "sweep rc=$?"; date -u
cp /tmp/sbs-console.log /tmp/sbs/console.log; cp /tmp/sweep-console.log /tmp/sbs/sweep/console.log
mkdir -p /tmp/sbs/fig10
NQ_CUTOFFS=4,5,6,7,8,9,10,11,12 bash scripts/sweep-epaq.sh /tmp/sbs/fig10/epaq-default.csv 3 > /tmp/sbs/fig10/console.log 2>&1; echo "fig10 rc=$?"; date -u
grep -c FAILED /tmp/sbs/fig10/epaq-default.csv
tar czf $OUT/sbs.tgz -C /tmp sbs
LEFT=$((570 - ($(date +%s) - T0)))
echo "suite deadline $LEFT"
GTAP_DEADLINE_S=$LEFT OUT=/tmp/x bash scripts/gpu-suite-part.sh; rc=$?; echo "suite part rc=$rc"; date -u
tar czf $OUT/suite1.tgz -C /tmp/x suite; tail -n 5 /tmp/x/suite/*.log
exit 0
