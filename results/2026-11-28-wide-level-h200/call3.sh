#!/usr/bin/env bash
# Session 32 call 3 (H200): main (f345991, its bench) against the landed wide-level rule
# (cdeab77, the bench and soak test of scripts/gpu-build.sh's bundle, carried alone), each with its own PTX; then a 60 s
# soak of the bundle's soak test.
set -u
O=$OUT/c3; mkdir -p $O
mkdir -p .gpu-bin && tar -xJf .gpu-exp/mini.tar.xz -C .gpu-bin && cp .gpu-exp/COMMIT .gpu-bin/COMMIT
cp .gpu-bin/examples/bench /tmp/bench-new
xz -dc .gpu-exp/bench-main.xz > /tmp/bench-main && chmod +x /tmp/bench-main
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt; cat .gpu-bin/COMMIT > $O/commit.txt
run() { local b=$1 name=$2; shift 2; echo "== $name $(date -u +%T)"; timeout 200 /tmp/bench-$b --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do for b in main new; do
  run $b $b-fib-r$r --runs 10 fib --n 25,30,35,40
  run $b $b-epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $b $b-nq16-r$r --runs 3 nqueens --n 16 --cutoff 7,8 --form joined,detached
  run $b $b-uts-r$r --runs 3 uts --tree t1l,t3l
done; done
for b in main new; do
  run $b $b-nq-small --runs 5 nqueens --n 12,13,14,15 --cutoff 8 --form joined,detached
  run $b $b-tree --runs 3 tree --depth 22
  run $b $b-sort --runs 3 sort --algo cilksort,mergesort-mixed
  run $b $b-nq-nc --runs 3 nqueens --n 12,14,16 --cutoff 16 --form joined
  run $b $b-nq-nc-d9 --runs 3 --inline-min-depth 9 nqueens --n 16 --cutoff 16 --form joined
done
echo "== bench done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | awk -F'|' '{print $2,$3,$4,$5,$8,$10,$14}' | head -150
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-220; done > $O/summary.txt
GTAP_REQUIRE_GPU=1 GTAP_SOAK_SECS=60 timeout 150 .gpu-bin/tests/soak_gpu-* --nocapture > $O/soak.log 2>&1; echo "soak rc=$?"; tail -5 $O/soak.log
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $O
