#!/usr/bin/env bash
# Session 51, call 1: nqueens with no cutoff in the source, its sequential version named
# (nqueens::auto, count_seq) against the cutoff-7 programs and the generated loop (cutoff 16),
# two alternated rounds; sizes 8..15; the policy's knobs on auto; then programs_gpu.
set -u
O=$OUT/c1; mkdir -p $O
pack() { tar -cJf "$OUT/c1.tar.xz" -C "$OUT" c1 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $O/gpu.txt
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
for r in 1 2; do
  timeout 120 $B --gpu-only --runs 5 --out $O/nq16-r$r.csv nqueens --n 16 --cutoff 7 --form joined,detached,auto > $O/nq16-r$r.md 2> $O/nq16-r$r.log
  timeout 60 $B --gpu-only --runs 3 --out $O/nq16g-r$r.csv nqueens --n 16 --cutoff 16 --form joined > $O/nq16g-r$r.md 2> $O/nq16g-r$r.log
  echo "round $r $(date -u +%T)" >> $O/gpu.txt; pack
done
timeout 120 $B --gpu-only --runs 5 --out $O/sizes.csv nqueens --n 8,9,10,11,12,13,14,15 --cutoff 7 --form joined,detached,auto > $O/sizes.md 2> $O/sizes.log
echo "sizes $(date -u +%T)" >> $O/gpu.txt; pack
for v in "--inline-task-rounds 0" "--inline-backoff-ratio 0" "--inline-min-queued 8" "--inline-wide-tasks 512" "--inline-backoff-ratio 8"; do
  name=$(echo $v | tr -d ' -')
  timeout 60 $B --gpu-only --runs 3 $v --out $O/auto-$name.csv nqueens --n 14,16 --form auto > $O/auto-$name.md 2> $O/auto-$name.log
done
echo "knobs $(date -u +%T)" >> $O/gpu.txt; pack
timeout 150 .gpu-bin/tests/programs_gpu-* > $O/programs_gpu.log 2>&1; echo "programs_gpu rc=$? $(date -u +%T)" >> $O/gpu.txt; pack
cat $O/gpu.txt; tail -3 $O/programs_gpu.log; cat $O/nq16-r2.md $O/nq16g-r2.md
