# Session 37, call 4 (same machine as calls 2 and 3): the headline side by side with GTaP,
# then the size sweep.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh /tmp/sbs > /tmp/sbs-console.log 2>&1; echo "sbs rc=$?"; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/size-sweep.sh /tmp/sbs/sweep > /tmp/sweep-console.log 2>&1; echo "sweep rc=$?"; date -u
cp /tmp/sbs-console.log /tmp/sbs/console.log; cp /tmp/sweep-console.log /tmp/sbs/sweep/console.log
tar czf $OUT/sbs.tgz -C /tmp sbs
