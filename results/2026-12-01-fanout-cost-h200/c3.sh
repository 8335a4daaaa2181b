#!/usr/bin/env bash
# Session 53, call 3: new (4091d09: named rounds do not lift above the warp's depth) against
# ref (110f2a3) and base (0846ce9); nqueens(16) auto one run per process, default and
# without the grid's heavy-leaf rule; then the GPU suite (scripts/gpu-run.sh) until the
# deadline, the granularity-heavy binaries first.
set -u
T0=$(date +%s)
O=$OUT/c3; mkdir -p $O
pack() { tar -cJf "$OUT/c3.tar.xz" -C "$OUT" c3 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
for v in base ref; do xz -dc .gpu-exp/s53/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $O/gpu.txt
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
bin() { case $1 in new) echo $B;; *) echo /tmp/bench-$1;; esac; }
run() { # name, timeout, binary, args...
  local name=$1 t=$2 b=$3; shift 3
  timeout $t $b --gpu-only "$@" --out $O/$name.csv > $O/$name.md 2> $O/$name.log
  echo "$name rc=$? $(date -u +%T)" >> $O/gpu.txt
}
for r in 1 2; do
  for v in new ref base; do
    run nq-$v-r$r 100 $(bin $v) --runs 7 nqueens --n 12,14,16 --cutoff 7 --form joined,auto
  done
  pack
done
for i in $(seq 1 10); do
  for v in new ref; do
    run one-$v-$i 30 $(bin $v) --runs 1 nqueens --n 16 --form auto
    run oneh0-$v-$i 30 $(bin $v) --runs 1 --inline-grid-heavy-rounds 0 nqueens --n 16 --form auto
  done
done
pack
for v in new ref; do
  run fib-$v 60 $(bin $v) --runs 7 fib --n 30,40
  run knap-$v 60 $(bin $v) --runs 5 knapsack
  run uts-$v 120 $(bin $v) --runs 3 uts
  run cilk-$v 60 $(bin $v) --runs 3 sort --algo cilksort --n 1e7
  pack
done
for v in new ref; do for k in one oneh0; do
  echo "$k-$v: $(for i in $(seq 1 10); do grep '| gpu' $O/$k-$v-$i.md | cut -d'|' -f10; done | tr -s ' \n' ' ')"
done; done | tee $O/one.txt
left=$(( 560 - ($(date +%s) - T0) ))
echo "suite deadline ${left}s $(date -u +%T)" >> $O/gpu.txt
GTAP_DEADLINE_S=$((left - 100)) GTAP_FIRST="programs_gpu random_gpu granularity_cpu uts_gpu batch_gpu resident_gpu search_gpu runtime_gpu storage_gpu language_gpu trap_gpu stuck_gpu borrow_gpu intrinsics_gpu" \
  timeout $((left - 10)) bash scripts/gpu-run.sh > $O/suite.txt 2>&1
echo "suite rc=$? $(date -u +%T)" >> $O/gpu.txt
cp $OUT/gpu-run.log $O/ 2>/dev/null; pack
tail -4 $O/suite.txt
for f in nq-new-r2 nq-ref-r2 nq-base-r2; do echo "== $f"; grep '| gpu' $O/$f.md | cut -d'|' -f2,3,4,10,11,12,14; done
