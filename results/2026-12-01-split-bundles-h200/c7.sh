#!/usr/bin/env bash
# Session 50, call 7: per-warp profiles of fib(30) and fib(40) at ecadbaf's bundle (split tasks
# with bundles, first budget 2), for what limits the split now; summaries only.
set -u
O=$OUT/c7; mkdir -p $O
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $O/gpu.txt
for n in 30 40; do
  timeout 150 $B --profile /tmp/prof$n fib --n $n > $O/fib$n.md 2> $O/fib$n.log
  for d in /tmp/prof$n/*/; do cp "$d/summary.txt" "$O/fib$n-summary.txt"; xz -c "$d/round_times.csv" > "$O/fib$n-round_times.csv.xz"; done
done
tar -cJf "$OUT/c7.tar.xz" -C "$OUT" c7
cat $O/fib40-summary.txt | head -40
