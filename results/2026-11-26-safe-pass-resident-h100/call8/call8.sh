#!/usr/bin/env bash
# Call 8 (session 20), at .gpu-bin/COMMIT: per-warp profiles (lab kernels) of small runs, to
# split a round on the critical path into take, run and close: fib(5), fib(10), fib(20),
# nqueens(8) and nqueens(12) (detached, cutoff 7).
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
R=/tmp/c8; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
timeout 100 $B --profile $R/fib fib --n 5,10,20 > $R/fib.md 2>&1; echo "fib rc=$?" >> $R/steps.txt
timeout 100 $B --profile $R/nq nqueens --n 8,12 --form detached > $R/nq.md 2>&1; echo "nq rc=$?" >> $R/steps.txt
find $R -name trace.json -delete
cat $R/steps.txt; find $R -name summary.txt | head; du -sh $R
tar czf $OUT/c8.tgz -C /tmp c8
