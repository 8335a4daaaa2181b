# Session 42, call 9: PROTOTYPE (branch wip/seq-spill), seventh form: the poll inline (one load: the
# warp's own group count) and the drain after the loop, running there what it cannot spill
# (e_k1). g_nv: spill compiled out (call 6's PTX). base: main's bundle.
# 12 warps per SM for all.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
AB_OUT=/tmp/c9 . scripts/ab-ptx.sh .gpu-exp/spill/bench7.xz g_nv e_k1
.gpu-bin/examples/bench --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
G="--warps-per-sm 12"
base_run() { local n=$1; shift; ab_bench_run .gpu-bin/examples/bench "base-$n" "$@"; }
S=("def|" "nb|--inline-backoff-ratio 0 --inline-task-rounds 0" "nb19|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 19" "nb17|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 17" "br16|--inline-backoff-ratio 16")
for r in 1 2; do
  for s in "${S[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    base_run $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    for v in g_nv e_k1; do
      ab_run $v $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    done
  done
  tar czf $OUT/c9.tgz -C /tmp c9
done
ab_summary
tar czf $OUT/c9.tgz -C /tmp c9
echo "== done $(date -u +%T)"
