#!/usr/bin/env bash
# Session 31 call 2 (H200): summing sequential versions with an explicit stack of arguments
# (proto, written by hand as the macro would) against the generated recursion (genrec) and
# the hand-written leaves (main), as leaves of the EPAQ fib and of nqueens at cutoff 7.
set -u
O=$OUT/c2; mkdir -p $O
xz -dc .gpu-exp/bench.xz > /tmp/bench && chmod +x /tmp/bench
for v in main proto genrec; do xz -dc .gpu-exp/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
B=/tmp/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout 120 $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
for r in 1 2; do for v in main proto genrec; do
  run $v-epaq-r$r --runs 5 --ptx /tmp/$v.ptx --no-auto-granularity epaq fib --n 40 --cutoff 12,14,16 --leaf calls --queues 1,3
  run $v-nq-r$r --runs 3 --ptx /tmp/$v.ptx nqueens --n 16 --cutoff 7 --form joined
done; done
run main-stack --runs 5 --ptx /tmp/main.ptx --no-auto-granularity epaq fib --n 40 --cutoff 12,14,16 --leaf stack --queues 1,3
echo "== done $(date -u +%T)"
grep -h "^| " $O/*.md | grep -v "^| bench\|---" | sort | head -120
tar czf $OUT/c2.tgz -C $OUT c2 && rm -rf $O
