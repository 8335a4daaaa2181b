# Session 39, call 3 (the machine of call 2): the GPU suite's next part, then a 30 s soak
# when the suite is complete.
set -u
T0=$(date +%s)
cat .gpu-bin/COMMIT 2>/dev/null; date -u
GTAP_DEADLINE_S=480 OUT=/tmp/x bash scripts/gpu-suite-part.sh; rc=$?; echo "suite part rc=$rc"; date -u
tar czf $OUT/suite2.tgz -C /tmp/x suite
tail -n 4 /tmp/x/suite/*.log
if [ $rc = 0 ] && [ $(( $(date +%s) - T0 )) -lt 520 ]; then
  . scripts/jit-cache.sh
  GTAP_REQUIRE_GPU=1 GTAP_SOAK_SECS=30 .gpu-bin/tests/soak_gpu-* --nocapture > /tmp/soak.log 2>&1; echo "soak rc=$?"
  tail -n 15 /tmp/soak.log; cp /tmp/soak.log $OUT/
fi
exit 0
