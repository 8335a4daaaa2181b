#!/usr/bin/env bash
# Call 5 (H100): the size sweep at HEAD, twice; main against the 256 ns idle sleep on the small sizes.
set -u
O=$OUT/c5; mkdir -p $O
xz -dc .gpu-exp/bench-main.xz > /tmp/bench && chmod +x /tmp/bench
xz -dc .gpu-exp/v-idle256.ptx.xz > /tmp/v-idle256.ptx
export CUDA_CACHE_PATH=/tmp/cc CUDA_CACHE_MAXSIZE=4294967296; mkdir -p /tmp/cc
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
for r in 1 2; do
echo "== sweep $r $(date -u +%T)"
BENCH=/tmp/bench GTAP_COMMIT=1aac8bd bash scripts/size-sweep.sh $O/sweep$r > $O/sweep$r.log 2>&1 || echo "sweep rc=$?"
done
echo "== sweep idle256 $(date -u +%T)"
BENCH=/tmp/bench GTAP_COMMIT=1aac8bd CONFIGS="idle256=--ptx /tmp/v-idle256.ptx" bash scripts/size-sweep.sh $O/sweep-idle256 > $O/sweep-idle256.log 2>&1 || echo "sweep rc=$?"
echo "== done $(date -u +%T)"
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $O
