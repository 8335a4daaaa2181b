#!/usr/bin/env bash
# Call 10 (session 21), at .gpu-bin/COMMIT (0f8e408's bundle): the per-warp profiler (lab
# kernels) on detached nqueens(12) and (13) at cutoff 8, the sizes where gtap trails GTaP,
# and on (14), where it leads: what a round's run phase holds at the full grid.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
R=/tmp/r10; mkdir -p $R
timeout 200 $B --runs 3 --profile $R/nq nqueens --n 12,13,14 --cutoff 8 --form detached > $R/nq.md 2>&1; echo "nq rc=$?" >> $R/steps.txt
find $R -name trace.json -delete; find $R -name timeline.csv -delete
for d in $R/nq/*/; do [ -f $d/round_times.csv ] && xz $d/round_times.csv; done
du -sh $R; cat $R/steps.txt
tar czf $OUT/r10.tgz -C /tmp r10
