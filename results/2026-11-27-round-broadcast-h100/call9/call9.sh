#!/usr/bin/env bash
# Call 9 (session 21): scripts/ncu-source.sh as documented (the copy carried in .gpu-exp, from
# 0891fc7), on the bundle of 0f8e408: a one-warp fib(12) and a one-warp detached nqueens(10).
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
R=/tmp/r9; mkdir -p $R
bash .gpu-exp/ncu-source.sh $R fib gtap_fib -- --gpu-only --runs 0 --grid 1 --no-auto-granularity fib --n 12 2> $R/fib.err; echo "fib rc=$?" >> $R/steps.txt
bash .gpu-exp/ncu-source.sh $R nqd gtap_nqueens_detached -- --gpu-only --runs 0 --grid 1 nqueens --n 10 --form detached 2> $R/nqd.err; echo "nqd rc=$?" >> $R/steps.txt
bash .gpu-exp/ncu-source.sh $R 2> $R/usage.err; echo "usage rc=$?" >> $R/steps.txt
cat $R/steps.txt; ls -la $R
tar czf $OUT/r9.tgz -C /tmp r9
