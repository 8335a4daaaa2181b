# Session 36, call 10 (experiment, not landed): the owner pop's first CAS expects its own bound
# (published minus last seen head) instead of a load (PTX `guess`), against `store`.
set -u
O=/tmp/s10; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b1
for v in store guess; do xz -dc .gpu-exp/ptx/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
date -u > $O/date.txt
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout 120 /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name"; }
for v in store guess; do /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; done
for r in 1 2; do for v in store guess; do
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
  run $v fib-r$r --runs 10 fib --n 20,22,24,26,28,30,35,40
  run $v nq-r$r --runs 3 nqueens --n 12,14,16 --cutoff 8 --form joined,detached
  run $v uts-r$r --runs 3 uts --tree t1l,t3l
done; done
echo "== done $(date -u +%T)"
tar czf $OUT/s10.tgz -C /tmp s10
