#!/usr/bin/env bash
# Session 23, call 3, at .gpu-bin/COMMIT (main): where fib(40) without a cutoff and the
# 3-queue EPAQ fib spend their time (ncu source counters), default configuration, and the
# EPAQ fib tuned with the policy off; then the bench's figures for the same runs.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/s23c3; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
B=.gpu-bin/examples/bench
T="--queue-order most-generated --top-up 2 --resume-inline --warps-per-sm 24 --max-registers 80 --no-auto-granularity"
timeout 60 $B --gpu-only --runs 5 --out $R/fib.csv fib --n 40 > $R/fib.md 2> $R/fib.log
timeout 60 $B --gpu-only --runs 5 --out $R/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/epaq.md 2> $R/epaq.log
timeout 60 $B --gpu-only --runs 5 --config-name tuned-policy-off $T --out $R/epaq-tuned.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/epaq-tuned.md 2> $R/epaq-tuned.log
timeout 60 $B --gpu-only --runs 5 --config-name policy-off --no-auto-granularity --out $R/epaq-off.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/epaq-off.md 2> $R/epaq-off.log
echo "$(date -u +%T) bench" >> $R/steps.txt
tar czf $OUT/s23c3.tgz -C /tmp s23c3
SAMPLING=7 timeout 150 bash scripts/ncu-source.sh $R/ncu fib40 gtap_fib -- --gpu-only --runs 0 fib --n 40; echo "$(date -u +%T) ncu fib40 rc=$?" >> $R/steps.txt
SAMPLING=7 timeout 150 bash scripts/ncu-source.sh $R/ncu epaq3 gtap_fib_epaq -- --gpu-only --runs 0 epaq fib --n 40 --cutoff 10 --leaf calls --queues 3; echo "$(date -u +%T) ncu epaq3 rc=$?" >> $R/steps.txt
tar czf $OUT/s23c3.tgz -C /tmp s23c3
SAMPLING=7 timeout 150 bash scripts/ncu-source.sh $R/ncu epaq3-tuned gtap_fib_epaq -- --gpu-only --runs 0 $T epaq fib --n 40 --cutoff 10 --leaf calls --queues 3; echo "$(date -u +%T) ncu epaq3-tuned rc=$?" >> $R/steps.txt
cat $R/steps.txt
tar czf $OUT/s23c3.tgz -C /tmp s23c3
