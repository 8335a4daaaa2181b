#!/usr/bin/env bash
# GTaP's worker-granularity study (section 6.3, Fig. 7 and 8): the synthetic trees as thread
# programs (backend gpu), block programs (gpu-block) and mixed programs (gpu-mixed: thread
# tasks, a heavy node's work on a block; thresholds by `-- --heavy-mem M --heavy-fma F`),
# sweeping one of the tree depth D,
# mem_ops and compute_iters while the other two stay fixed, with GTaP's sweeps (its
# repository, evaluation/2-comparison/{binary_tree,prob_Bary_tree}/compare_tree_*.sh).
# Runs the bench from .gpu-bin (scripts/gpu-build.sh) on a GPU machine, one process per point
# (a failure is written as a `# FAILED` line).
# Usage: bash scripts/sweep-granularity.sh OUT.csv [RUNS] [-- MORE BENCH FLAGS]
# Launch: GRID (default 1000) and BLOCK (default 64), GTaP's Table 3, for both granularities
# (e.g. `-- --bp-grid 4000 --bp-block 32` sets the block programs' apart).
# Sweeps (space-separated, GTaP's by default): FULL_DEPTHS, PRUNED_DEPTHS, MEM_OPS,
# COMPUTE_ITERS; the fixed points FULL_D (20), PRUNED_D (32), MEM (256), FMA (256).
# TREES="full pruned" selects trees, SWEEPS="depth mem compute" sweeps.
# CPU=1 adds the rayon baseline (off: its largest points take minutes). BENCH: the binary.
# OUT.csv: tree,sweep,depth,mem_ops,compute_iters, then the bench's columns.
# Plots: bash scripts/plot-granularity.sh OUT.csv DIR (where gtap-plot builds).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${1:?usage: sweep-granularity.sh OUT.csv [RUNS] [-- MORE BENCH FLAGS]}
runs=${2:-5}
shift $(($# < 2 ? $# : 2))
[ "${1:-}" = -- ] && shift
bench=${BENCH:-.gpu-bin/examples/bench}
launch=(--grid "${GRID:-1000}" --block "${BLOCK:-64}")
FULL_DEPTHS=${FULL_DEPTHS:-"10 11 12 13 14 15 16 17 18 19 20 21 22"}
PRUNED_DEPTHS=${PRUNED_DEPTHS:-"20 21 22 23 24 25 26 27 28 29 30 31 32 33 34"}
MEM_OPS=${MEM_OPS:-"8 16 32 64 128 256 512 1024 2048 4096 8192"}
COMPUTE_ITERS=${COMPUTE_ITERS:-"64 128 256 512 1024 2048 4096 8192 16384 32768"}
FULL_D=${FULL_D:-20} PRUNED_D=${PRUNED_D:-32} MEM=${MEM:-256} FMA=${FMA:-256}
TREES=${TREES:-"full pruned"} SWEEPS=${SWEEPS:-"depth mem compute"}
extra=("$@")
cpu=(--gpu-only)
if [ "${CPU:-0}" = 1 ]; then cpu=(); fi
: >"$out"
header=
tmp=$(mktemp)

# One point: tree, sweep name, D, mem_ops, compute_iters.
point() {
  local tree=$1 sweep=$2 d=$3 m=$4 c=$5
  echo "[${SECONDS}s] $tree $sweep: D=$d mem_ops=$m compute_iters=$c" >&2
  if timeout 600 "$bench" "${cpu[@]}" "${launch[@]}" --runs "$runs" --out "$tmp" "${extra[@]}" \
    granularity --trees "$tree" --full-depth "$d" --pruned-depth "$d" --mem-ops "$m" \
    --compute-iters "$c" >/dev/null 2>"$tmp.log"; then
    if [ -z "$header" ]; then
      header="tree,sweep,depth,mem_ops,compute_iters,$(head -n 1 "$tmp")"
      echo "$header" >>"$out"
    fi
    tail -n +2 "$tmp" | sed "s/^/$tree,$sweep,$d,$m,$c,/" >>"$out"
  else
    echo "# FAILED: $tree $sweep D=$d mem_ops=$m compute_iters=$c: $(tail -n 1 "$tmp.log")" >>"$out"
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
