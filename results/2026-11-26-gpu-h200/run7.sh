#!/usr/bin/env bash
# Run 7: the mixed programs after the layout adoption and the BFS root fix.
set -uo pipefail
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cat .gpu-bin/COMMIT
for t in mixed_gpu random_gpu; do
  echo "== $t"
  timeout -k 5 240 .gpu-bin/tests/$t-* > $OUT/$t.log 2>&1; echo "rc $?"
  grep -E "^test .*(FAILED|ok)|test result|panicked" $OUT/$t.log | head -14
done
B=.gpu-bin/examples/bench
echo "== bfs kronecker"
timeout -k 5 300 $B --runs 3 --bp-grid 528 --bp-block 128 --bp-tasks 524288 --bp-queue 524288 graph --algo bfs --graph kronecker --scale 22,24 --block-degree inf,32,256,2048 > $OUT/bfs-kron.log 2>&1; echo "rc $?"
grep -E "^\| bfs" $OUT/bfs-kron.log
echo "== bfs road"
timeout -k 5 200 $B --runs 3 --bp-grid 528 --bp-block 128 --bp-tasks 524288 --bp-queue 524288 graph --algo bfs --graph road --scale 22 --block-degree inf,4 > $OUT/bfs-road.log 2>&1; echo "rc $?"
grep -E "^\| bfs" $OUT/bfs-road.log
echo "== granularity, thinning tree, compute sweep"
TREES=pruned SWEEPS=compute timeout -k 5 240 bash scripts/sweep-granularity.sh $OUT/gran.csv 3 > $OUT/gran.log 2>&1; echo "rc $?"
cut -d, -f1-5,9-13 $OUT/gran.csv | head -40
