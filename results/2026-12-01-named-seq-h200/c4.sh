#!/usr/bin/env bash
# Session 51, call 4: the whole GPU suite at the bundle's commit, two parts on one machine.
set -uo pipefail
O=$OUT/c4; mkdir -p "$O"
pack() { tar -cJf "$OUT/c4.tar.xz" -C "$OUT" c4 2>/dev/null; }
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; } > "$O/gpu.txt"
start=$SECONDS
mkdir -p $O/p1 $O/p2
OUT=$O/p1 GTAP_DEADLINE_S=390 bash scripts/gpu-suite-part.sh > "$O/suite-part1.log" 2>&1
echo "part 1 rc=$? at $((SECONDS - start)) s" >> "$O/gpu.txt"; pack
OUT=$O/p2 GTAP_DEADLINE_S=150 bash scripts/gpu-suite-part.sh > "$O/suite-part2.log" 2>&1
echo "part 2 rc=$? at $((SECONDS - start)) s" >> "$O/gpu.txt"
cat .gpu-bin/COMMIT >> "$O/gpu.txt"; pack
cat "$O/gpu.txt"; tail -4 "$O/suite-part1.log" "$O/suite-part2.log"
