#!/usr/bin/env bash
# Session 31 call 3 (H200): the summing sequential versions as the macro generates them:
# sum2 (nqueens, the EPAQ nqueens and fib_cutoff summing; fib keeps its 4-level recursion)
# and sum4 (fib summing too), against main (65132bb).
set -u
O=$OUT/c3; mkdir -p $O
xz -dc .gpu-exp/bench.xz > /tmp/bench && chmod +x /tmp/bench
for v in main sum2 sum4; do xz -dc .gpu-exp/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=/tmp/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout 150 $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do for v in main sum2 sum4; do
  run $v-fib-r$r --runs 10 --ptx /tmp/$v.ptx fib --n 30,35,40
done; done
for v in main sum2; do
  run $v-epaq --runs 5 --ptx /tmp/$v.ptx epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $v-nq-c7 --runs 3 --ptx /tmp/$v.ptx nqueens --n 16 --cutoff 7 --form joined,detached
done
run main-nq-nc-d7 --runs 3 --ptx /tmp/main.ptx --inline-min-depth 7 nqueens --n 16 --cutoff 16 --form joined
for d in 5 6 7 8 9; do run sum2-nq-nc-d$d --runs 3 --ptx /tmp/sum2.ptx --inline-min-depth $d nqueens --n 16 --cutoff 16 --form joined; done
for d in 6 7 8; do run sum2-nq-nc-d$d-br0 --runs 3 --ptx /tmp/sum2.ptx --inline-min-depth $d --inline-backoff-ratio 0 --inline-task-rounds 0 nqueens --n 16 --cutoff 16 --form joined; done
run sum2-nq-nc-default --runs 3 --ptx /tmp/sum2.ptx nqueens --n 16 --cutoff 16 --form joined
for d in 5 6 7; do run sum2-nq14-nc-d$d --runs 3 --ptx /tmp/sum2.ptx --inline-min-depth $d nqueens --n 12,14 --cutoff 16 --form joined; done
run sum2-nq14-c7 --runs 3 --ptx /tmp/sum2.ptx nqueens --n 12,14 --cutoff 7 --form joined
run sum2-uts --runs 3 --ptx /tmp/sum2.ptx uts --tree t1l,t3l
run main-uts --runs 3 --ptx /tmp/main.ptx uts --tree t1l,t3l
echo "== done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | awk -F'|' '{print $2,$3,$4,$5,$8,$10,$14}' | head -150
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $O
