#!/usr/bin/env bash
# Session 49, call 4: the GPU suite's first part at the bundle's commit (split by default).
set -uo pipefail
O=$OUT/c4; mkdir -p "$O"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; } > "$O/gpu.txt"
start=$SECONDS
OUT=$O GTAP_DEADLINE_S=${DEADLINE:-330} bash scripts/gpu-suite-part.sh > "$O/suite-part.log" 2>&1
echo "suite-part rc=$? at $((SECONDS - start)) s" >> "$O/suite-part.log"
cat .gpu-bin/COMMIT >> "$O/gpu.txt"
tar -cJf "$OUT/c4.tar.xz" -C "$OUT" c4 2>/dev/null
