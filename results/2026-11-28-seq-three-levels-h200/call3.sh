#!/usr/bin/env bash
# Session 30 call 3 (H200): 4c0496c (three levels for small bodies) against e842214 (main), then the GPU suite at 4c0496c.
set -u
mkdir -p .gpu-bin && tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT
O=$OUT/c3; mkdir -p $O
for v in main new; do xz -dc .gpu-exp/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=.gpu-bin/examples/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout 120 $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for round in 1 2; do for v in main new; do
  run $v-fib-r$round --runs 10 --ptx /tmp/$v.ptx fib --n 20,25,30,35,40
done; done
for v in main new; do
  run $v-nq --runs 5 --ptx /tmp/$v.ptx nqueens --n 12,14,16 --cutoff 8 --form joined,detached
  run $v-epaq --runs 5 --ptx /tmp/$v.ptx epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $v-tree --runs 5 --ptx /tmp/$v.ptx tree --depth 22
  run $v-uts --runs 3 --ptx /tmp/$v.ptx uts --tree t1l,t3l
  run $v-fp --runs 3 --ptx /tmp/$v.ptx floorplan
done
echo "== suite $(date -u +%T)"
GTAP_FIRST="programs_gpu random_gpu uts_gpu language_gpu borrow_gpu search_gpu storage_gpu sequential" GTAP_DEADLINE_S=${DL:-300} OUT=$O bash scripts/gpu-run.sh > $O/suite.out 2>&1; echo "suite rc=$?"
grep -E "FAILED|NOT RUN|gpu-run:" $O/suite.out | tail -8
echo "== done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | head -80
tar czf $OUT/c3.tgz -C $OUT c3 && rm -rf $O
