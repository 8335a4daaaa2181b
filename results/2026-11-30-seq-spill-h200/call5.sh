# Session 42, call 5: PROTOTYPE (branch wip/seq-spill), third form: the spill path has no
# failure calls (it gives up instead), so the kernels keep their registers (fib 126).
# q_p2 / q_p1: spill when both / one of two sampled warps are idle; q_all: at every poll
# (every 64 calls of the loop); q_nv: the same build with the spill compiled out.
# base: main's bundle (3dec17d). G: 12 warps per SM for all; "nat": the variant's own grid.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
AB_OUT=/tmp/c5 . scripts/ab-ptx.sh .gpu-exp/spill/bench3.xz q_nv q_p1 q_p2 q_all
.gpu-bin/examples/bench --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
G="--warps-per-sm 12"
base_run() { local n=$1; shift; ab_bench_run .gpu-bin/examples/bench "base-$n" "$@"; }
S=("def|" "nb|--inline-backoff-ratio 0 --inline-task-rounds 0" "nb19|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 19" "nb17|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 17" "nb15|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 15")
for r in 1 2; do
  for s in "${S[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    base_run $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    for v in q_nv q_p1 q_p2 q_all; do
      ab_run $v $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    done
  done
  tar czf $OUT/c5.tgz -C /tmp c5
done
for s in "${S[@]}"; do
  name=${s%%|*}; flags=${s#*|}
  ab_run q_all nat-$name-fib $flags --runs 5 fib --n 30,35,40
  ab_run q_p1 nat-$name-fib $flags --runs 5 fib --n 30,35,40
done
for v in q_nv q_all; do
  ab_run $v epaq $G --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
done
base_run epaq $G --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
ab_run q_all small $G --runs 5 fib --n 20,24,26
base_run small $G --runs 5 fib --n 20,24,26
ab_summary
tar czf $OUT/c5.tgz -C /tmp c5
echo "== done $(date -u +%T)"
