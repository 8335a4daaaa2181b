# Session 36, call 9 (experiment, not landed): a warp reads the grid's heavy-leaf count once
# when it first makes tasks just above its inline depth (PTX `first`), against `store`.
set -u
O=/tmp/s9; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b1
for v in store first; do xz -dc .gpu-exp/ptx/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
date -u > $O/date.txt
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout 120 /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name"; }
for v in store first; do /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; done
for r in 1 2; do for v in store first; do
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10,14,16,18 --leaf both --queues 1,3
  run $v fib-r$r --runs 10 fib --n 20,26,30,35,40
done; done
echo "== done $(date -u +%T)"
tar czf $OUT/s9.tgz -C /tmp s9
