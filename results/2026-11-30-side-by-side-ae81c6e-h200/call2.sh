# Session 44, call 2: the headline side by side with GTaP (GTaP's module loaded eagerly, the
# scripts' new default) and the size sweep, at the bundle's commit.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; nvidia-smi -L; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh /tmp/sbs > /tmp/sbs-console.log 2>&1; echo "sbs rc=$?"; date -u
cp /tmp/sbs-console.log /tmp/sbs/console.log
tar czf $OUT/sbs.tgz -C /tmp sbs
RUNS=5 ANCHOR_RUNS=5 bash scripts/size-sweep.sh /tmp/sbs/sweep > /tmp/sweep-console.log 2>&1; echo "sweep rc=$?"; date -u
cp /tmp/sweep-console.log /tmp/sbs/sweep/console.log
tar czf $OUT/sbs.tgz -C /tmp sbs
exit 0
