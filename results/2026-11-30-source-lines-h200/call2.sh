# Session 45, call 2. (1) ncu's source view (warp sampling) of main's kernels (s44base's PTX,
# the code of 87258c4) where a round's latency is the run: fib(12) and nqueens(10) on one
# warp, fib(16) on 8 warps, policy on and off; fib(20) on the full grid; the 3-queue EPAQ
# fib at cutoff 10 (sampled every 2^10 cycles); and fib(12) on one warp with each variant.
# (2) A/B of the variants: s45div (no run-time division in the take, the thieves' loop and
# the free of a warp's own record), s45q1 (s45div, and with one queue no load of the parent's
# queue after its last child's RMW), against s44base, alternated in each round.
set -u
AB_OUT=/tmp/s45c2 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s45div s45q1
o=/tmp/s45c2/ncu
prof() {
  local v=$1 name=$2 kernel=$3
  shift 3
  BENCH=/tmp/ab-bench timeout 150 bash scripts/ncu-source.sh $o $v-$name $kernel -- \
    --ptx /tmp/ab-$v.ptx --gpu-only --runs 0 "$@" || echo "FAIL ncu $v-$name"
}
prof s44base fib12-g1 gtap_fib --grid 1 fib --n 12
prof s44base fib12-g1-off gtap_fib --grid 1 --no-auto-granularity fib --n 12
prof s44base nqd10-g1 gtap_nqueens_detached --grid 1 nqueens --n 10 --cutoff 7 --form detached
prof s44base fib16-g8 gtap_fib --grid 8 fib --n 16
prof s44base fib20-off gtap_fib --no-auto-granularity fib --n 20
SAMPLING=10 prof s44base ef3-c10 gtap_fib_epaq epaq fib --n 40 --cutoff 10 --leaf calls --queues 3
prof s45div fib12-g1 gtap_fib --grid 1 fib --n 12
prof s45q1 fib12-g1 gtap_fib --grid 1 fib --n 12
echo "== A/B $(date -u +%T)"
for r in 1 2; do
  for v in s44base s45div s45q1; do
    ab_run $v fib-r$r --runs 5 fib --n 16,20,24,26,28,30,35,40
    ab_run $v nqd-r$r --runs 5 nqueens --n 8,9,10,11,12,14,16 --cutoff 7 --form detached
    ab_run $v nqj-r$r --runs 5 nqueens --n 10,12,14,16 --cutoff 8 --form joined
    ab_run $v g1-r$r --runs 5 --grid 1 fib --n 12,16
  done
done
for v in s44base s45div s45q1; do
  ab_run $v ef --runs 3 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 1,3
  ab_run $v uts --runs 3 uts --tree t1l,t3l
  ab_run $v tree --runs 3 tree --depth 22
  ab_run $v kn --runs 3 knapsack
  ab_run $v fp --runs 3 floorplan
  ab_run $v sort --runs 3 sort
done
ab_summary
tar czf $OUT/s45c2.tgz -C /tmp s45c2
echo "== done $(date -u +%T)"
