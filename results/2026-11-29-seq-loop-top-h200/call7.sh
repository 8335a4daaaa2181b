# Session 38, call 7: SumStack's length as a u32 (`len32`) against ee769ef's PTX (`land`),
# one host, alternating, three rounds.
set -u
O=/tmp/c7; mkdir -p $O
xz -dc .gpu-exp/bench-s38.xz > /tmp/b1 && chmod +x /tmp/b1
V="land len32"
for v in $V; do xz -dc .gpu-exp/ptx/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout ${GT:-150} /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name: $(tail -n 3 $O/$v-$name.log)"; }
for v in $V; do /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1 & done; wait
echo "== jit done $(date -u +%T)"
for r in 1 2 3; do for v in $V; do
  run $v fib-r$r --runs 10 fib --n 26,30,35,40
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 1,3
  run $v nq-r$r --runs 3 nqueens --n 14,16 --cutoff 16 --form joined
done; done
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar czf $OUT/c7.tgz -C /tmp c7
