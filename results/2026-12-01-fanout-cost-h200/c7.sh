#!/usr/bin/env bash
# Session 53, call 7: EPAQ nqueens(16) and cilksort(5e7) at every cutoff of the Fig. 10
# sweep with the final main's bench, default configuration, one measured run each: any
# PoolExhausted shows as a FAILED line.
set -u
O=$OUT/c7; mkdir -p $O
xz -dc .gpu-exp/s53f/bench-final.xz > /tmp/bench; chmod +x /tmp/bench
date -u > $O/gpu.txt
PROGRAMS="nqueens cilksort" NQ_CUTOFFS=4,5,6,7,8,10,12 BENCH=/tmp/bench timeout 130 bash scripts/sweep-epaq.sh $O/epaq.csv 1 > $O/sweep.log 2>&1
echo "sweep rc=$? $(date -u +%T)" >> $O/gpu.txt
tar -cJf $OUT/c7.tar.xz -C $OUT c7
cat $O/gpu.txt; grep -c FAILED $O/epaq.csv; cut -d, -f1-4,9 $O/epaq.csv | head -40
