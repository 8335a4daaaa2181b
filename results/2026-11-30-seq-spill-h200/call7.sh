# Session 42, call 7: PROTOTYPE (branch wip/seq-spill), fifth form: call 6's (g_s3) with the
# spill allowed only after the summing loop ran SEQ_SPILL_AFTER calls (h_k1: 1024, h_k4:
# 4096), so that short inline calls never become tasks. g_nv: spill compiled out (call 6's
# PTX). base: main's bundle (3dec17d). 12 warps per SM for all.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
AB_OUT=/tmp/c7 . scripts/ab-ptx.sh .gpu-exp/spill/bench5.xz g_nv h_k1 h_k4
.gpu-bin/examples/bench --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
G="--warps-per-sm 12"
base_run() { local n=$1; shift; ab_bench_run .gpu-bin/examples/bench "base-$n" "$@"; }
S=("def|" "nb|--inline-backoff-ratio 0 --inline-task-rounds 0" "nb19|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 19" "nb17|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 17" "br16|--inline-backoff-ratio 16")
for r in 1 2; do
  for s in "${S[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    base_run $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    for v in g_nv h_k1 h_k4; do
      ab_run $v $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    done
  done
  tar czf $OUT/c7.tgz -C /tmp c7
done
ab_summary
tar czf $OUT/c7.tgz -C /tmp c7
echo "== done $(date -u +%T)"
