# Session 41, call 5: the lazy policy test (the bundle's commit) against e2f07bd's kernels
# (base: the same host, `--ptx`), then the GPU suite's first part on the bundle.
set -u
T0=$(date +%s)
AB_OUT=/tmp/c5 . scripts/ab-flags.sh
xz -dc .gpu-exp/ptx/base.ptx.xz >/tmp/base.ptx
.gpu-bin/examples/bench --ptx /tmp/base.ptx --gpu-only --runs 1 fib --n 20 >/dev/null 2>&1
echo "== base compiled $(date -u +%T)"
B="--ptx /tmp/base.ptx"
for r in 1 2; do
  ab_run lazy-fib-r$r --runs 5 fib --n 20,22,24,26,30,35,40
  ab_run base-fib-r$r $B --runs 5 fib --n 20,22,24,26,30,35,40
  ab_run lazy-nq-r$r --runs 5 nqueens --n 10,12,14,16 --cutoff 8
  ab_run base-nq-r$r $B --runs 5 nqueens --n 10,12,14,16 --cutoff 8
done
ab_run lazy-epaq-r1 --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
ab_run base-epaq-r1 $B --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
ab_run lazy-uts-r1 --runs 3 uts --tree t1l,t3l
ab_run base-uts-r1 $B --runs 3 uts --tree t1l,t3l
ab_summary
tar czf $OUT/c5.tgz -C /tmp c5
LEFT=$((570 - ($(date +%s) - T0)))
echo "suite deadline $LEFT"
GTAP_DEADLINE_S=$LEFT OUT=/tmp/x bash scripts/gpu-suite-part.sh; echo "suite part rc=$?"; date -u
tar czf $OUT/suite1.tgz -C /tmp/x suite
exit 0
