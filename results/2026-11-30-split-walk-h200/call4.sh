#!/usr/bin/env bash
# Session 48, call 4: the rest of the GPU suite at 4bbb7cb's bundle, on call 3's machine.
set -uo pipefail
O=$OUT/c4; mkdir -p "$O"
start=$SECONDS
OUT=$O GTAP_DEADLINE_S=${DEADLINE:-480} bash scripts/gpu-suite-part.sh > "$O/suite-part.log" 2>&1
echo "suite-part rc=$? at $((SECONDS - start)) s" >> "$O/suite-part.log"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
tar -cJf "$OUT/c4.tar.xz" -C "$OUT" c4 2>/dev/null
