# Session 42, call 6: PROTOTYPE (branch wip/seq-spill), fourth form: call 5's quiet spill path
# (fib 126 registers) with call 3's signal (idle warps against num_warps >> SHIFT), counted in
# 64 groups on cache lines of their own and estimated from two (one counter was a hot spot).
# g_s3 / g_s1: SHIFT 3 / 1; g_nv: spill compiled out. base: main's bundle (3dec17d).
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
AB_OUT=/tmp/c6 . scripts/ab-ptx.sh .gpu-exp/spill/bench4.xz g_nv g_s3 g_s1
.gpu-bin/examples/bench --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
G="--warps-per-sm 12"
base_run() { local n=$1; shift; ab_bench_run .gpu-bin/examples/bench "base-$n" "$@"; }
S=("def|" "nb|--inline-backoff-ratio 0 --inline-task-rounds 0" "nb19|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 19" "nb17|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 17")
for r in 1 2; do
  for s in "${S[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    base_run $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    for v in g_nv g_s3 g_s1; do
      ab_run $v $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    done
  done
  tar czf $OUT/c6.tgz -C /tmp c6
done
for s in "${S[@]}"; do
  name=${s%%|*}; flags=${s#*|}
  ab_run g_s3 nat-$name-fib $flags --runs 5 fib --n 30,35,40
done
for v in g_nv g_s3; do
  ab_run $v epaq $G --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
done
base_run epaq $G --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
ab_summary
tar czf $OUT/c6.tgz -C /tmp c6
echo "== done $(date -u +%T)"
