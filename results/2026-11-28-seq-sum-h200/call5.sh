#!/usr/bin/env bash
# Session 31 call 5 (H200): at 633df84 (the bundle of scripts/gpu-build.sh): the macro's
# summing loop as nqueens' cutoff leaf (sumleaf PTX: count_seq replaced by seq::nqueens)
# against count_seq, nqueens without a cutoff by inline depth; then the GPU suite, first part.
set -u
mkdir -p .gpu-bin && tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
O=$OUT/c5; mkdir -p $O
xz -dc .gpu-exp/sumleaf.ptx.xz > /tmp/sumleaf.ptx
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt; cat .gpu-bin/COMMIT > $O/commit.txt
B=.gpu-bin/examples/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout 150 $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do
  run count-seq-r$r --runs 3 nqueens --n 14,16 --cutoff 7 --form joined
  run sumleaf-r$r --runs 3 --ptx /tmp/sumleaf.ptx nqueens --n 14,16 --cutoff 7 --form joined
done
for d in 8 9 10; do run nc-d$d --runs 3 --inline-min-depth $d nqueens --n 14,16 --cutoff 16 --form joined; done
echo "== bench done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | awk -F'|' '{print $2,$3,$4,$5,$8,$10,$14}'
GTAP_FIRST="programs_gpu language_gpu random_gpu uts_gpu sequential borrow_gpu search_gpu storage_gpu" GTAP_DEADLINE_S=${DL:-380} OUT=$O bash scripts/gpu-run.sh > $O/suite.out 2>&1; echo "suite rc=$?"
grep -E "FAILED|NOT RUN|passed|failed" $O/suite.out | tail -20
tar czf $OUT/c5.tgz -C $OUT c5 && rm -rf $O
