# Session 45, call 5 (call 4 ran past the device tool's limit and returned nothing): the GPU
# tests that exercise the changed path at a0c9e52 (language_gpu, with the new bad-taskwait
# check; programs_gpu; random_gpu), then a short A/B of its PTX (s45q1v) against s44base.
# Results are packed after each step, so that a call cut short still returns them.
set -u
o=/tmp/s45c5
mkdir -p $o
pack() { tar czf $OUT/s45c5.tgz -C /tmp s45c5; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
echo "== tests $(date -u +%T)"
GTAP_ONLY="language_gpu programs_gpu random_gpu" GTAP_DEADLINE_S=200 GTAP_WATCHDOG_S=150 \
  OUT=$o timeout 260 bash scripts/gpu-run.sh >$o/tests.log 2>&1
echo "tests rc=$?" >>$o/tests.log
tail -5 $o/tests.log
pack
echo "== A/B $(date -u +%T)"
AB_OUT=$o/ab AB_TIMEOUT=40 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s45q1v
for r in 1 2; do
  for v in s44base s45q1v; do
    ab_run $v fib-r$r --runs 5 fib --n 16,20,24,28
    ab_run $v g1-r$r --runs 5 --grid 1 fib --n 12,16
    ab_run $v fp-r$r --runs 3 floorplan
    ab_run $v kn-r$r --runs 3 knapsack
  done
  pack
done
echo "== done $(date -u +%T)"
