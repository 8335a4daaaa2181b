#!/usr/bin/env bash
# GTaP's worker-granularity study (section 6.3, Fig. 7 and 8): the synthetic trees as thread
# programs (backend gpu) and block programs (gpu-block), sweeping one of the tree depth D,
# mem_ops and compute_iters while the other two stay fixed, with GTaP's sweeps (its
# repository, evaluation/2-comparison/{binary_tree,prob_Bary_tree}/compare_tree_*.sh).
# Runs the bench harness from .gpu-bin (scripts/gpu-build.sh) on a GPU machine.
# Usage: bash scripts/sweep-granularity.sh OUT.csv [RUNS]
# Launch: GTAP_GRID (default 1000) and GTAP_BLOCK (default 64), GTaP's Table 3, for both
# granularities (GTAP_BP_GRID / GTAP_BP_BLOCK set the block programs' apart).
# Sweeps (space-separated, GTaP's by default): FULL_DEPTHS, PRUNED_DEPTHS, MEM_OPS,
# COMPUTE_ITERS; the fixed points FULL_D (20), PRUNED_D (32), MEM (256), FMA (256).
# TREES="full pruned" selects trees, SWEEPS="depth mem compute" sweeps.
# GTAP_GRAN_CPU=1 adds the rayon baseline (off: its largest points take minutes).
# Plots: bash scripts/plot-granularity.sh OUT.csv DIR (where gtap-plot builds).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${1:?usage: sweep-granularity.sh OUT.csv [RUNS]}
runs=${2:-5}
bench=${GTAP_BENCH:-.gpu-bin/examples/bench}
export GTAP_GRID=${GTAP_GRID:-1000} GTAP_BLOCK=${GTAP_BLOCK:-64}
FULL_DEPTHS=${FULL_DEPTHS:-"10 11 12 13 14 15 16 17 18 19 20 21 22"}
PRUNED_DEPTHS=${PRUNED_DEPTHS:-"20 21 22 23 24 25 26 27 28 29 30 31 32 33 34"}
MEM_OPS=${MEM_OPS:-"8 16 32 64 128 256 512 1024 2048 4096 8192"}
COMPUTE_ITERS=${COMPUTE_ITERS:-"64 128 256 512 1024 2048 4096 8192 16384 32768"}
FULL_D=${FULL_D:-20} PRUNED_D=${PRUNED_D:-32} MEM=${MEM:-256} FMA=${FMA:-256}
TREES=${TREES:-"full pruned"} SWEEPS=${SWEEPS:-"depth mem compute"}
cpu=--gpu-only
if [ "${GTAP_GRAN_CPU:-0}" = 1 ]; then cpu=; fi
header="tree,sweep,depth,mem_ops,compute_iters,benchmark,backend,median_ms,min_ms,max_ms,runs,tasks"
echo "$header" >"$out"
tmp=$(mktemp)

# One point: tree, sweep name, D, mem_ops, compute_iters.
point() {
  local tree=$1 sweep=$2 d=$3 m=$4 c=$5
  echo "[${SECONDS}s] $tree $sweep: D=$d mem_ops=$m compute_iters=$c" >&2
  if GTAP_GRAN_TREES=$tree GTAP_GRAN_FULL_D=$d GTAP_GRAN_PRUNED_D=$d GTAP_GRAN_MEM_OPS=$m \
    GTAP_GRAN_COMPUTE_ITERS=$c timeout 600 "$bench" $cpu --runs "$runs" --out "$tmp" granularity \
    >/dev/null 2>"$tmp.log"; then
    tail -n +2 "$tmp" | sed "s/^/$tree,$sweep,$d,$m,$c,/" >>"$out"
  else
    echo "$tree,$sweep,$d,$m,$c,FAILED,,,,,," >>"$out"
    tail -n 3 "$tmp.log" >&2
  fi
}

for tree in $TREES; do
  if [ "$tree" = full ]; then depths=$FULL_DEPTHS d0=$FULL_D; else depths=$PRUNED_DEPTHS d0=$PRUNED_D; fi
  for sweep in $SWEEPS; do
    case $sweep in
      depth) for d in $depths; do point "$tree" depth "$d" "$MEM" "$FMA"; done ;;
      mem) for m in $MEM_OPS; do point "$tree" mem "$d0" "$m" "$FMA"; done ;;
      compute) for c in $COMPUTE_ITERS; do point "$tree" compute "$d0" "$MEM" "$c"; done ;;
      *) echo "unknown sweep $sweep (depth, mem, compute)" >&2 ;;
    esac
  done
done
rm -f "$tmp" "$tmp.log"
echo "sweep written to $out"
