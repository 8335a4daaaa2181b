#!/usr/bin/env bash
# Session 32 call 2 (H200): main (f345991) against three ways of counting the wide-level
# rule's tasks: v4r (once per task step, the record's depth: call 1's "new"), v5 (once per
# step, the depth the policy read, kept in Ctx), v6 (per spawn the policy weighed and made a
# task). wide_tasks 4096 in all three. Each bench with its own PTX; rounds interleaved.
set -u
O=$OUT/c2; mkdir -p $O
for b in main new v5 v6; do xz -dc .gpu-exp/bench-$b.xz > /tmp/bench-$b && chmod +x /tmp/bench-$b; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local b=$1 name=$2; shift 2; echo "== $name $(date -u +%T)"; timeout 200 /tmp/bench-$b --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do for b in main new v5 v6; do
  run $b $b-uts-r$r --runs 3 uts --tree t1l,t3l
  run $b $b-epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $b $b-fib-r$r --runs 10 fib --n 30,40
  run $b $b-nq-r$r --runs 3 nqueens --n 16 --cutoff 8 --form joined,detached
done; done
for b in new v5 v6; do run $b $b-nq-nc --runs 3 nqueens --n 14,16 --cutoff 16 --form joined; done
run v6 v6-tree --runs 3 tree --depth 22
echo "== done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | awk -F'|' '{print $2,$3,$4,$5,$7,$8,$10,$14}' | head -150
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $O
