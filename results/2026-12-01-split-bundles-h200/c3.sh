#!/usr/bin/env bash
# Session 50, call 3: the GPU suite's first part at the bundle's commit (split tasks with bundles).
set -uo pipefail
O=$OUT/c3; mkdir -p "$O"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; } > "$O/gpu.txt"
start=$SECONDS
OUT=$O GTAP_DEADLINE_S=${DEADLINE:-420} bash scripts/gpu-suite-part.sh > "$O/suite-part.log" 2>&1
echo "suite-part rc=$? at $((SECONDS - start)) s" >> "$O/suite-part.log"
cat .gpu-bin/COMMIT >> "$O/gpu.txt"
tar -cJf "$OUT/c3.tar.xz" -C "$OUT" c3 2>/dev/null
