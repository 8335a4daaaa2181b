# Session 42, call 4: PROTOTYPE (branch wip/seq-spill), second form: the hunger signal is two
# warps sampled at random (p2: both idle; p1: one idle) instead of a global counter (call 3:
# its contention slowed every round). sp_nv2: the same build with the spill compiled out.
# base: main's bundle (3dec17d). G: the same grid for all (12 warps per SM, at most 168
# registers; the spill variants need 210 and spill registers there); "nat": their own grid.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
AB_OUT=/tmp/c4 . scripts/ab-ptx.sh .gpu-exp/spill/bench2.xz sp_nv2 sp_p2 sp_p1
.gpu-bin/examples/bench --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
G="--warps-per-sm 12 --max-registers 168"
base_run() { local n=$1; shift; ab_bench_run .gpu-bin/examples/bench "base-$n" "$@"; }
S=("def|" "nb|--inline-backoff-ratio 0 --inline-task-rounds 0" "nb19|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 19" "nb17|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 17" "nb15|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 15")
for r in 1 2; do
  for s in "${S[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    base_run $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    for v in sp_nv2 sp_p2 sp_p1; do
      ab_run $v $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    done
    ab_run sp_p2 nat-$name-fib-r$r $flags --runs 5 fib --n 30,35,40
  done
  tar czf $OUT/c4.tgz -C /tmp c4
done
for v in sp_nv2 sp_p2; do
  ab_run $v epaq $G --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
done
base_run epaq $G --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
ab_summary
tar czf $OUT/c4.tgz -C /tmp c4
echo "== done $(date -u +%T)"
