# Session 41, call 6: the GPU suite's next part, on the machine of call 5.
set -u
GTAP_DEADLINE_S=520 OUT=/tmp/x bash scripts/gpu-suite-part.sh; echo "suite part rc=$?"; date -u
tar czf $OUT/suite2.tgz -C /tmp/x suite
exit 0
