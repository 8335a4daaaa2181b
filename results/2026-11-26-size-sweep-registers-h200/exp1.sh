#!/usr/bin/env bash
# A/B: today's kernels (base), the same capped at 128 registers, and the lane-parallel victim
# probe (wip/probe's PTX) capped at 128; then the size sweep with all three beside GTaP.
set -u
cd "$(dirname "$0")/.."
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
O=$OUT/ab; mkdir -p "$O"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$O/gpu.txt"
date -u +%FT%TZ | tee -a "$O/gpu.txt"
one() { local tag=$1; shift
  "$B" --gpu-only --runs 10 --out "$O/$tag.csv" "$@" >"$O/$tag.md" 2>"$O/$tag.log" || echo "FAIL $tag: $(tail -n 2 "$O/$tag.log")"; }
VARIANTS=("base=" "cap128=--max-registers 128" "probe128=--max-registers 128 --ptx .gpu-exp/probe.ptx")
for round in 1 2; do
  for v in "${VARIANTS[@]}"; do
    name=${v%%=*}; read -ra f <<<"${v#*=}"
    one "$name-$round-fib" --config-name "$name" "${f[@]}" fib --n 30,35,40
    one "$name-$round-nq" --config-name "$name" "${f[@]}" nqueens --n 12,14,16 --cutoff 8
    one "$name-$round-epaq" --config-name "$name" "${f[@]}" epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
    one "$name-$round-epaqoff" --config-name "$name-policy-off" "${f[@]}" --no-auto-granularity epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
    one "$name-$round-sort" --config-name "$name" "${f[@]}" sort --algo cilksort-mixed,mergesort-mixed
    [ $round = 1 ] && one "$name-$round-uts" --config-name "$name" "${f[@]}" --runs 3 uts --tree t1,t3
    grep -h "grid" "$O/$name-$round-fib.log" | head -n 2
  done
done
for f in "$O"/*.md; do echo "## $(basename "$f")"; grep '^| [a-z]' "$f" | grep -v '^| benchmark' | cut -d'|' -f2-5,7-8,10,13,14; done > "$O/summary.txt"
cat "$O/summary.txt"
CONFIGS="base=|cap128=--max-registers 128|probe128=--max-registers 128 --ptx .gpu-exp/probe.ptx" \
  RUNS=10 bash scripts/size-sweep.sh "$OUT/sweep" || echo "sweep status $?"
tar -C "$OUT" -czf "$OUT/exp.tgz" ab sweep
rm -rf "$OUT/ab" "$OUT/sweep"
