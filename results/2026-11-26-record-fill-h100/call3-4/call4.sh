#!/usr/bin/env bash
# Session 18, call 4: HEAD's PTX against fill.ptx, both loaded with --ptx, interleaved; ncu of nqueens(14) for both.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
for v in head fill; do xz -dkf .gpu-exp/$v.ptx.xz; done
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
# warm the JIT cache for both PTX files
for v in head fill; do timeout 120 $B --gpu-only --runs 0 --ptx .gpu-exp/$v.ptx fib --n 20 >$OUT/warm-$v.txt 2>&1; done
date -u
ab() { # DIR ARGS...
  local o=$OUT/$1; shift; mkdir -p $o
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/nq.csv nqueens --n 12,14,16 --cutoff 8 >$o/nq.md 2>&1
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>&1
  timeout 60 $B --gpu-only --runs 3 "$@" --out $o/uts.csv uts --tree t1,t1l >$o/uts.md 2>&1
  timeout 60 $B --gpu-only --runs 3 "$@" --out $o/floor.csv floorplan >$o/floor.md 2>&1
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>&1
  date -u
}
run_all() {
  ab base1 --ptx .gpu-exp/head.ptx; ab fill1 --ptx .gpu-exp/fill.ptx
  ab base2 --ptx .gpu-exp/head.ptx; ab fill2 --ptx .gpu-exp/fill.ptx
  S="--section LaunchStats --section Occupancy --section WarpStateStats --section SpeedOfLight --section SourceCounters --section InstructionStats"
  for v in head fill; do
    timeout 90 ncu --kernel-name regex:'^gtap_nqueens$' -c 1 $S -o /tmp/ncu-$v $B --gpu-only --runs 0 --ptx .gpu-exp/$v.ptx nqueens --n 14 --cutoff 8 >$OUT/ncu-$v-run.txt 2>&1
    ncu -i /tmp/ncu-$v.ncu-rep --page details >$OUT/ncu-$v.txt 2>&1
    ncu -i /tmp/ncu-$v.ncu-rep --page source --csv --print-source sass >$OUT/ncu-$v-sass.csv 2>&1
  done
  date -u
}
run_all &
pid=$!
( sleep 520; pkill -f examples/bench; pkill -f ncu; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cd $OUT && tar czf /tmp/call4.tgz . && rm -rf $OUT/* && mv /tmp/call4.tgz $OUT/
