#!/usr/bin/env bash
# Session 32 call 1 (H200): main (f345991, its bench) against the working tree (new: the
# wide-level rule counted once per task step, inlining below the first depth where a warp made
# wide_tasks tasks, 4096 by default), each bench with its own PTX.
set -u
O=$OUT/c1; mkdir -p $O
xz -dc .gpu-exp/bench-main.xz > /tmp/bench-main && chmod +x /tmp/bench-main
xz -dc .gpu-exp/bench-new.xz > /tmp/bench-new && chmod +x /tmp/bench-new
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local b=$1 name=$2; shift 2; echo "== $name $(date -u +%T)"; timeout 200 /tmp/bench-$b --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do for b in main new; do
  run $b $b-fib-r$r --runs 10 fib --n 25,30,35,40
done; done
for b in main new; do
  run $b $b-nq-c7 --runs 3 nqueens --n 12,14,16 --cutoff 7 --form joined,detached
  run $b $b-nq-c8 --runs 3 nqueens --n 13,14,15,16 --cutoff 8 --form joined,detached
  run $b $b-epaq --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $b $b-tree --runs 3 tree --depth 22
  run $b $b-uts --runs 3 uts --tree t1l,t3l
  run $b $b-nq-nc --runs 3 nqueens --n 12,14,16 --cutoff 16 --form joined
done
for r in 2; do for b in main new; do
  run $b $b-nq-c8-r$r --runs 3 nqueens --n 16 --cutoff 8 --form joined,detached
  run $b $b-epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
done; done
for t in 1024 2048 8192 16384; do
  run new new-t$t-nq-nc --runs 3 --inline-wide-tasks $t nqueens --n 14,16 --cutoff 16 --form joined
  run new new-t$t-nq-c8 --runs 3 --inline-wide-tasks $t nqueens --n 16 --cutoff 8 --form joined,detached
  run new new-t$t-fib --runs 5 --inline-wide-tasks $t fib --n 30,40
done
run new new-t0-nq-c8 --runs 3 --inline-wide-tasks 0 nqueens --n 16 --cutoff 8 --form joined,detached
for d in 8 9; do run new new-d$d-nq-nc --runs 3 --inline-min-depth $d nqueens --n 16 --cutoff 16 --form joined; done
echo "== done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | awk -F'|' '{print $2,$3,$4,$5,$8,$10,$14}' | head -150
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar czf $OUT/c1.tgz -C $OUT c1 && rm -rf $O
