# Session 38, call 2: ee769ef's PTX (`land`) against main's (`head`, ea642a1), one host,
# alternating, two rounds: the programs whose sequential versions changed (fib, EPAQ fib's
# inline path) and the ones that should not move.
set -u
O=/tmp/c2; mkdir -p $O
xz -dc .gpu-exp/bench-s38.xz > /tmp/b1 && chmod +x /tmp/b1
V="head land"
for v in $V; do xz -dc .gpu-exp/ptx/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout ${GT:-150} /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name: $(tail -n 3 $O/$v-$name.log)"; }
for v in $V; do /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1 & done; wait
echo "== jit done $(date -u +%T)"
TUNED="--warps-per-sm 24 --max-registers 80 --top-up 2 --resume-inline --queue-order most-generated"
for r in 1 2; do for v in $V; do
  run $v fib-r$r --runs 10 fib --n 20,22,24,26,28,30,32,35,40
  run $v fibri-r$r --resume-inline --runs 10 fib --n 30,35,40
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10,14,18 --leaf calls --queues 1,3
  run $v nq-r$r --runs 3 nqueens --n 12,16 --cutoff 8,16 --form joined,detached
done; done
for v in $V; do
  run $v fibtuned $TUNED --runs 5 fib --n 30,35,40
  run $v epaqtuned $TUNED --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $v epaqtunedoff $TUNED --no-auto-granularity --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $v uts --runs 3 uts --tree t1l,t3l
  run $v knap --runs 3 knapsack
done
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar czf $OUT/c2.tgz -C /tmp c2
