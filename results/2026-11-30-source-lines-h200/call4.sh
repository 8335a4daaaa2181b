# Session 45, call 4: a0c9e52 (a taskwait's queue checked at the taskwait; with one queue no
# load of the parent's queue after its last child's RMW) against s44base (87258c4's device
# code): its PTX s45q1v through the same bench host, alternated in each round; floorplan in
# three rounds (its times vary by 10% between calls). Then the first part of the GPU suite
# at a0c9e52 (programs_gpu, language_gpu, random_gpu, uts_gpu, ... first).
set -u
t0=$(date +%s)
AB_OUT=/tmp/s45c4 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s45q1v
for r in 1 2 3; do
  for v in s44base s45q1v; do
    ab_run $v fib-r$r --runs 5 fib --n 16,20,24,26,28,30,35,40
    ab_run $v g1-r$r --runs 5 --grid 1 fib --n 12,16
    ab_run $v fp-r$r --runs 3 floorplan
    ab_run $v kn-r$r --runs 3 knapsack
  done
done
for r in 1 2; do
  for v in s44base s45q1v; do
    ab_run $v nqd-r$r --runs 5 nqueens --n 8,10,12,14 --cutoff 7 --form detached
    ab_run $v nqj-r$r --runs 5 nqueens --n 10,12,14,16 --cutoff 8 --form joined
    ab_run $v ef-r$r --runs 3 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 1,3
    ab_run $v uts-r$r --runs 3 uts --tree t1l,t3l
  done
done
for v in s44base s45q1v; do
  ab_run $v tree --runs 3 tree --depth 22
  ab_run $v sort --runs 3 sort
done
ab_summary
left=$((560 - ($(date +%s) - t0)))
echo "== suite $(date -u +%T), deadline ${left}s"
GTAP_DEADLINE_S=$left OUT=/tmp/s45c4 bash scripts/gpu-suite-part.sh; echo "suite part rc=$?"
tar czf $OUT/s45c4.tgz -C /tmp s45c4
echo "== done $(date -u +%T)"
