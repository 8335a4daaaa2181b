#!/usr/bin/env bash
# Separates the register cap's effects: grid size (warps per SM), the policy's min depth
# (which follows the grid), and the sorts' blocks per SM.
set -u
cd "$(dirname "$0")/.."
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
O=$OUT/ab2; mkdir -p "$O"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; date -u +%FT%TZ; cat .gpu-bin/COMMIT; } | tee "$O/gpu.txt"
one() { local tag=$1; shift
  "$B" --gpu-only --runs 10 --out "$O/$tag.csv" "$@" >"$O/$tag.md" 2>"$O/$tag.log" || echo "FAIL $tag: $(tail -n 2 "$O/$tag.log")"; }
VARIANTS=("base=" "cap128=--max-registers 128" "cap128d21=--max-registers 128 --inline-min-depth 21"
  "cap128w12=--max-registers 128 --warps-per-sm 12" "cap128w8=--max-registers 128 --warps-per-sm 8")
for round in 1 2; do
  for v in "${VARIANTS[@]}"; do
    name=${v%%=*}; read -ra f <<<"${v#*=}"
    if [ "$name" != cap128w8 ]; then
      one "$name-$round-fib" --config-name "$name" "${f[@]}" fib --n 30,32,34,36,38,40
      one "$name-$round-nq" --config-name "$name" "${f[@]}" nqueens --n 12,14,16 --cutoff 8
      one "$name-$round-epaq" --config-name "$name" "${f[@]}" epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
    fi
    case $name in base|cap128|cap128w8) one "$name-$round-sort" --config-name "$name" "${f[@]}" sort --algo cilksort-mixed,mergesort-mixed ;; esac
  done
done
grep -h "grid" "$O"/*-1-*.log | sort | uniq -c | sort -rn | head -n 30 > "$O/grids.txt"
tar -C "$OUT" -czf "$OUT/exp2.tgz" ab2 && rm -rf "$OUT/ab2"
