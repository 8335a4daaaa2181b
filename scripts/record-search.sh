#!/usr/bin/env bash
# Records the search benchmarks (knapsack, floorplan) on a GPU machine, from what
# scripts/gpu-build.sh put in .gpu-bin/: the GPU rows and the CPU baselines (rayon with the
# same bound sharing) in one call, so that both come from the same machine.
# Writes $OUT/search.csv and $OUT/search.log (OUT defaults to /tmp).
#
# Usage (from the repository root): bash scripts/record-search.sh [RAYON_LEVELS]
#   RAYON_LEVELS: the knapsack rayon baseline's join depths to sweep (default 12,16,20,24;
#   the bench keeps one row per depth).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${OUT:-/tmp}
bench=.gpu-bin/examples/bench
levels=${1:-12,16,20,24}
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  echo "commit $(cat .gpu-bin/COMMIT 2>/dev/null || echo unknown), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPU cores"
} | tee "$out/search.log"
csvs=()
for l in ${levels//,/ }; do
  "$bench" --runs 5 --out "$out/knapsack-$l.csv" knapsack --n 52,56 --rayon-levels "$l" \
    2>&1 | tee -a "$out/search.log"
  csvs+=("$out/knapsack-$l.csv")
done
"$bench" --runs 5 --out "$out/floorplan.csv" floorplan --cells 16,18 2>&1 | tee -a "$out/search.log"
# One CSV: the first file's header, every file's rows (the GPU and seq rows repeat per depth).
{ head -1 "${csvs[0]}"; for f in "${csvs[@]}" "$out/floorplan.csv"; do tail -n +2 "$f"; done; } >"$out/search.csv"
echo "wrote $out/search.csv and $out/search.log"
