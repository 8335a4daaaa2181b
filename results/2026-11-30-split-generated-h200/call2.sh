#!/usr/bin/env bash
# Session 47, calls 2 and 3: the GPU suite at the bundle's commit (one part, bounded).
set -uo pipefail
start=$SECONDS
GTAP_DEADLINE_S=${DEADLINE:-420} bash scripts/gpu-suite-part.sh > "$OUT/suite-part.log" 2>&1
echo "suite-part rc=$? at $((SECONDS - start)) s" >> "$OUT/suite-part.log"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$OUT/gpu.txt"
tar -cJf "$OUT/suite.tar.xz" -C "$OUT" suite suite-part.log gpu.txt 2>/dev/null
