# Session 44, call 4: fib(16) and fib(20) on grids of 1 to 4000 warps, gtap (policy off, and
# default) against GTaP rebuilt for each grid: where a level's latency grows with the grid.
set -u
O=/tmp/s44c4; mkdir -p $O
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt 2>&1; date -u > $O/date.txt
A=.anchor-gtap; B=/tmp/s44g4; mkdir -p $B
C=(-O3 -arch=sm_90 -I$A/runtime -I$A/src -DGTAP_BLOCK_SIZE=32 -DGTAP_MAX_TASKS_PER_WARP=100000 -DGTAP_NUM_QUEUES=1)
GRIDS="1 2 8 32 132 528 1584 4000"
for g in $GRIDS; do nvcc "${C[@]}" -DGTAP_GRID_SIZE=$g $A/src/fib.cu -o $B/fib_g$g > $B/fib_g$g.log 2>&1 & done
wait
export GTAP_ANCHOR_BUILD=$B
. scripts/anchor-runs.sh
for g in $GRIDS; do for n in 16 20 24; do anchor_runs "GTaP-g$g" $n fib_g$g $n; done; done > $O/GTaP.txt 2>&1
bench=.gpu-bin/examples/bench
for g in 1 2 8 32 132 528 1584; do
  $bench --gpu-only --runs 5 --grid $g --no-auto-granularity fib --n 16,20,24 > $O/gtap-off-g$g.md 2> $O/gtap-off-g$g.log
  $bench --gpu-only --runs 5 --grid $g fib --n 16,20,24 > $O/gtap-def-g$g.md 2> $O/gtap-def-g$g.log
done
for f in $O/gtap-*.log; do echo "## $(basename $f)"; grep -A1 median $f | cut -c1-220; done > $O/summary.txt
tar czf $OUT/s44c4.tgz -C /tmp s44c4
echo "== done $(date -u +%T)"
