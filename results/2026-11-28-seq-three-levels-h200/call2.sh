#!/usr/bin/env bash
# Session 30 call 2 (H200): three levels per call (u3) against main; the best hand cutoff; then the GPU suite at HEAD.
set -u
mkdir -p .gpu-bin && tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
O=$OUT/c2; mkdir -p $O
for v in main u3; do xz -dc .gpu-exp/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=.gpu-bin/examples/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout 120 $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for round in 1 2; do for v in main u3; do
  run $v-fib-r$round --runs 10 --ptx /tmp/$v.ptx fib --n 20,25,30,35,40
done; done
for v in main u3; do
  run $v-nqnc-d7 --runs 3 --ptx /tmp/$v.ptx --inline-min-depth 7 nqueens --n 16 --cutoff 16 --form joined,detached
  run $v-epaq --runs 5 --ptx /tmp/$v.ptx epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $v-uts --runs 3 --ptx /tmp/$v.ptx uts --tree t1l,t3l
done
run hand-stack --runs 5 --no-auto-granularity epaq fib --n 40 --cutoff 10,12,14 --leaf stack --queues 1,3
run hand-stack-mgturi --runs 5 --no-auto-granularity --queue-order most-generated --top-up 2 --resume-inline epaq fib --n 40 --cutoff 10,12,14 --leaf stack --queues 3
echo "== suite $(date -u +%T)"
GTAP_FIRST="programs_gpu random_gpu uts_gpu" GTAP_DEADLINE_S=${DL:-230} OUT=$O bash scripts/gpu-run.sh > $O/suite.out 2>&1; echo "suite rc=$?"
grep -E "FAILED|NOT RUN|passed|failed" $O/suite.out | tail -15
echo "== done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | head -80
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $O
