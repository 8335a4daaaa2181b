# Session 40, call 5: at 079d17c (the bundle's COMMIT): the size sweep beside GTaP, then the
# GPU suite's first part.
set -u
T0=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; nvidia-smi -L; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/size-sweep.sh /tmp/sw > /tmp/sweep-console.log 2>&1; echo "sweep rc=$?"; date -u
cp /tmp/sweep-console.log /tmp/sw/console.log
tar czf $OUT/sweep.tgz -C /tmp sw
LEFT=$((400 - ($(date +%s) - T0)))
echo "suite deadline $LEFT"
GTAP_DEADLINE_S=$LEFT OUT=/tmp/x bash scripts/gpu-suite-part.sh; rc=$?; echo "suite part rc=$rc"; date -u
tar czf $OUT/suite1.tgz -C /tmp/x suite; tail -n 5 /tmp/x/suite/*.log
exit 0
