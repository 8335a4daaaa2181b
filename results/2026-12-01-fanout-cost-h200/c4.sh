#!/usr/bin/env bash
# Session 53, call 4 (bundle 4091d09, as call 3): the width estimate's tasks per lane (64,
# the default; 32; 16) with named rounds held at the warp's depth, nqueens 12 to 16 without
# a cutoff against the cutoff-7 program of the same binary, ref (110f2a3) beside; one run
# per process at 16; then the GPU suite's binaries call 3 left.
set -u
T0=$(date +%s)
O=$OUT/c4; mkdir -p $O
pack() { tar -cJf "$OUT/c4.tar.xz" -C "$OUT" c4 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dc .gpu-exp/s53/bench-ref.xz > /tmp/bench-ref; chmod +x /tmp/bench-ref
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $O/gpu.txt
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
run() { # name, timeout, binary, args...
  local name=$1 t=$2 b=$3; shift 3
  timeout $t $b --gpu-only "$@" --out $O/$name.csv > $O/$name.md 2> $O/$name.log
  echo "$name rc=$? $(date -u +%T)" >> $O/gpu.txt
}
for r in 1 2; do
  for w in 64 32 16; do
    run nq-w$w-r$r 100 $B --runs 7 --inline-wide-width $w nqueens --n 12,13,14,15,16 --cutoff 7 --form joined,auto
  done
  run nq-ref-r$r 100 /tmp/bench-ref --runs 7 nqueens --n 12,13,14,15,16 --cutoff 7 --form joined,auto
  pack
done
for i in $(seq 1 10); do
  for w in 32 16; do
    run one-w$w-$i 30 $B --runs 1 --inline-wide-width $w nqueens --n 16 --form auto
  done
done
for w in 32 16; do
  run fib-w$w 60 $B --runs 7 --inline-wide-width $w fib --n 30,40
  run uts-w$w 120 $B --runs 3 --inline-wide-width $w uts
done
pack
for w in 32 16; do echo "one-w$w: $(for i in $(seq 1 10); do grep '| gpu' $O/one-w$w-$i.md | cut -d'|' -f10; done | tr -s ' \n' ' ')"; done | tee $O/one.txt
left=$(( 450 - ($(date +%s) - T0) ))
echo "suite deadline ${left}s $(date -u +%T)" >> $O/gpu.txt
GTAP_DEADLINE_S=$((left - 60)) GTAP_ONLY="mixed_gpu gpu fib smoke profile_gpu soak_gpu" GTAP_FIRST="mixed_gpu gpu fib smoke profile_gpu soak_gpu" \
  timeout $((left - 5)) bash scripts/gpu-run.sh > $O/suite.txt 2>&1
echo "suite rc=$? $(date -u +%T)" >> $O/gpu.txt
cp $OUT/gpu-run.log $O/ 2>/dev/null; pack
tail -4 $O/suite.txt
for f in nq-w64-r2 nq-w32-r2 nq-w16-r2 nq-ref-r2; do echo "== $f"; grep '| gpu' $O/$f.md | cut -d'|' -f2,3,4,10,11,12,14; done
