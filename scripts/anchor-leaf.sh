#!/usr/bin/env bash
# GTaP's nq with gtap's sequential count as its leaf: nqueens with one leaf for both runtimes.
# GTaP's own leaf (a recursion with one atomic add per solution) and gtap's (the search in
# registers, one add per leaf) differ by more than the runtimes do, so this runs GTaP's
# runtime and task code unchanged with gtap's leaf in place of `serial_search`
# (scripts/anchor-leaf/count.cuh), built with nq's settings from GTaP's Makefile. The leaf is
# built by nvcc here and by rustc in gtap, so a ratio against gtap is the runtimes' and the two
# compilers'.
#
#   bash scripts/anchor-leaf.sh [ANCHOR_DIR]    # default .anchor-gtap (a copy of ../shared/anchors/gtap)
#
# Makes the variant from the anchor's src/nq.cu at run time (the project keeps none of GTaP's
# code), builds it in $GTAP_ANCHOR_BUILD (as run.sh), runs N = 12, 14, 16 at cutoff depth 7,
# RUNS processes each (default 5), and prints CSV lines `nq_leaf,N,1,median_ms` with no header
# (scripts/side-by-side.sh appends them to the anchor's CSV), and `#` lines with every run.
# Exit status nonzero if the build, a run or a result check failed.
set -uo pipefail
anchor=${1:-.anchor-gtap}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${GTAP_ANCHOR_BUILD:-${TMPDIR:-/tmp}/gtap_anchor_build}"
runs=${RUNS:-5}
mkdir -p "$bin"
src="$bin/nq_leaf.cu"
# The anchor's nq.cu, its `serial_search` (from its first line to the next line that is a
# lone `}`) replaced by gtap's count, and its CSV lines named nq_leaf.
awk -v inc="$here/anchor-leaf/count.cuh" '
  /^__device__ void serial_search\(/ { print "#include \"" inc "\""; skip = 1; next }
  skip && /^}/ { skip = 0; next }
  !skip { print }
' "$anchor/src/nq.cu" | sed 's/anchor_print_csv("nq"/anchor_print_csv("nq_leaf"/' >"$src"
if ! grep -q 'anchor-leaf/count.cuh' "$src" || ! grep -q '"nq_leaf"' "$src"; then
  echo "# anchor-leaf: $anchor/src/nq.cu is not the nq this script knows (no serial_search or CSV line)"
  exit 1
fi
if ! ${NVCC:-nvcc} -O3 -arch="${GTAP_ANCHOR_ARCH:-sm_90}" -I"$anchor/runtime" -I"$anchor/src" \
    -DGTAP_BLOCK_SIZE=32 -DGTAP_GRID_SIZE=2000 -DGTAP_MAX_TASKS_PER_WARP=100000 \
    -DGTAP_NUM_QUEUES=1 -DGTAP_ASSUME_NO_TASKWAIT "$src" -o "$bin/nq_leaf" >"$bin/nq_leaf.log" 2>&1; then
  echo "# anchor-leaf: build failed: $(tr '\n' ' ' <"$bin/nq_leaf.log" | cut -c1-400)"
  exit 1
fi
. "$here/anchor-runs.sh"
export GTAP_ANCHOR_BUILD=$bin
fail=0
for n in 12 14 16; do
  ANCHOR_RUNS=$runs ANCHOR_ERR=$bin/nq_leaf.err anchor_runs nq_leaf "$n" nq_leaf "$n" 7 || fail=1
done
exit $fail
