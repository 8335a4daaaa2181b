#!/usr/bin/env bash
# Session 51, call 2 (4abbfc0: named sequential versions uncounted): nqueens::auto against the
# cutoff-7 programs and the generated loop, alternated; the policy's knobs on auto; sizes;
# an A/B of base (30500a9) and new benches on fib, nqueens and cilksort (WarpShared's freed
# list one word shorter); programs_gpu.
set -u
O=$OUT/c2; mkdir -p $O
pack() { tar -cJf "$OUT/c2.tar.xz" -C "$OUT" c2 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dc .gpu-exp/s51/bench-base.xz > /tmp/bench-base; chmod +x /tmp/bench-base
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $O/gpu.txt
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
for r in 1 2; do
  timeout 100 $B --gpu-only --runs 5 --out $O/nq16-r$r.csv nqueens --n 16 --cutoff 7 --form joined,detached,auto > $O/nq16-r$r.md 2> $O/nq16-r$r.log
  echo "round $r $(date -u +%T)" >> $O/gpu.txt; pack
done
timeout 60 $B --gpu-only --runs 3 --out $O/nq16g.csv nqueens --n 16 --cutoff 16 --form joined > $O/nq16g.md 2> $O/nq16g.log
timeout 100 $B --gpu-only --runs 5 --out $O/sizes.csv nqueens --n 8,10,11,12,13,14,15 --cutoff 7 --form joined,auto > $O/sizes.md 2> $O/sizes.log
echo "sizes $(date -u +%T)" >> $O/gpu.txt; pack
for v in "--inline-backoff-ratio 16" "--inline-backoff-ratio 64" "--inline-wide-tasks 512" "--inline-wide-tasks 8192" "--inline-task-rounds 0" "--inline-task-rounds 32" "--inline-min-depth 8 --inline-wide-tasks 0" "--inline-min-depth 7 --inline-wide-tasks 0 --inline-backoff-ratio 64"; do
  name=$(echo $v | tr -d ' -')
  timeout 60 $B --gpu-only --runs 3 $v --out $O/auto-$name.csv nqueens --n 14,16 --form auto > $O/auto-$name.md 2> $O/auto-$name.log
done
echo "knobs $(date -u +%T)" >> $O/gpu.txt; pack
for r in 1 2; do
  for v in base new; do
    b=$B; [ $v = base ] && b=/tmp/bench-base
    timeout 100 $b --gpu-only --runs 5 --out $O/ab-$v-r$r.csv fib --n 30,40 > $O/ab-$v-r$r.md 2> $O/ab-$v-r$r.log
    timeout 100 $b --gpu-only --runs 5 --out $O/abnq-$v-r$r.csv nqueens --n 12,16 --cutoff 7 > $O/abnq-$v-r$r.md 2> $O/abnq-$v-r$r.log
    timeout 100 $b --gpu-only --runs 3 --out $O/absort-$v-r$r.csv sort --n 1e7 > $O/absort-$v-r$r.md 2> $O/absort-$v-r$r.log
  done
done
echo "ab $(date -u +%T)" >> $O/gpu.txt; pack
timeout 150 .gpu-bin/tests/programs_gpu-* > $O/programs_gpu.log 2>&1; echo "programs_gpu rc=$? $(date -u +%T)" >> $O/gpu.txt; pack
cat $O/gpu.txt; tail -3 $O/programs_gpu.log; cat $O/nq16-r2.md
