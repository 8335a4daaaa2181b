#!/usr/bin/env bash
# Plots a granularity sweep (scripts/sweep-granularity.sh) with gtap-plot: one PNG per tree and
# sweep, median kernel time against the swept parameter, a line per backend (gpu: thread
# program, gpu-block: block program, gpu-mixed: mixed program, rayon: CPU), log-scaled time as
# GTaP's Fig. 7 and 8.
# Usage: bash scripts/plot-granularity.sh SWEEP.csv OUT_DIR   (on a machine with cargo)
set -euo pipefail
cd "$(dirname "$0")/.."
csv=${1:?usage: plot-granularity.sh SWEEP.csv OUT_DIR}
dir=${2:?usage: plot-granularity.sh SWEEP.csv OUT_DIR}
mkdir -p "$dir"
cargo build --release -q -p gtap-plot
plot=${CARGO_TARGET_DIR:-target}/release/gtap-plot
for tree in full pruned; do
  if [ "$tree" = full ]; then name="full binary tree"; else name="pruned 3-ary tree"; fi
  for sweep in depth mem compute; do
    case $sweep in
      depth) x=depth xs=() label="depth D" ;;
      mem) x=mem_ops xs=(--log2-x) label="loads per node (mem_ops)" ;;
      compute) x=compute_iters xs=(--log2-x) label="FMAs per node (compute_iters)" ;;
    esac
    # A tree or sweep the CSV lacks is skipped (gtap-plot says there are no rows).
    "$plot" line "$csv" --x "$x" --y median_ms --series backend "${xs[@]}" --log-y \
      --filter tree="$tree" sweep="$sweep" --x-label "$label" --y-label "median kernel time (ms)" \
      --title "$name: granularity, $sweep sweep" -o "$dir/granularity-$tree-$sweep.png" ||
      echo "no $tree/$sweep points in $csv" >&2
  done
done
