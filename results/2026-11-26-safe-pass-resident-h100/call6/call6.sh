#!/usr/bin/env bash
# Call 6 (session 20), at .gpu-bin/COMMIT: fib without a cutoff under fixed inline depths
# that inline whatever the queue holds (--inline-min-queued 0), against the default policy,
# and the hand-cutoff EPAQ program (default configuration) for reference.
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
R=/tmp/c6; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
work() {
  $B --gpu-only --runs 5 --config-name default --out $R/default.csv fib --n 30,35,40 > $R/default.md 2>&1; step default
  for d in 24 26 27 28 29 30 31; do
    for r in 0 2; do
      $B --gpu-only --runs 5 --config-name d$d-q0-r$r --inline-min-depth $d --inline-min-queued 0 --inline-backoff-ratio $r --out $R/d$d-r$r.csv fib --n 30,35,40 > $R/d$d-r$r.md 2>&1; step "d$d r$r"
    done
  done
  $B --gpu-only --runs 5 --out $R/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/epaq.md 2>&1; step epaq
  $B --gpu-only --runs 5 --no-auto-granularity --config-name policy-off --out $R/epaq-off.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/epaq-off.md 2>&1; step epaq-off
}
work &
pid=$!
( sleep 500; pkill -f bench; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
for f in $R/*.md; do grep -E "^\| fib|^\| epaq" $f | awk -F'|' '{print $2,$3,$6,$7,$8,$10,$13,$14}'; done
tar czf $OUT/c6.tgz -C /tmp c6
