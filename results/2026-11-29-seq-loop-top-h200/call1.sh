# Session 38, call 1: the summing loop's newest pending call in a local (SumStack top), and
# fib's sequential version as a loop, against main's PTX; one host, alternating.
#  head: main (fib's seq = 4-level recursion, SumStack without top)
#  sumr: SumStack with top (fib still recursion; nqueens' loop changed)
#  gen/loop/loopr: EPAQ fib's `--leaf calls` replaced by the generated seq::fib (recursion /
#  loop / loop with top); loop/loopr also make fib's seq the loop everywhere.
set -u
O=/tmp/c1; mkdir -p $O
xz -dc .gpu-exp/bench-s38.xz > /tmp/b1 && chmod +x /tmp/b1
V="head sumr gen loop loopr"
for v in $V; do xz -dc .gpu-exp/ptx/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout ${GT:-150} /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name: $(tail -n 3 $O/$v-$name.log)"; }
for v in $V; do /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1 & done; wait
echo "== jit done $(date -u +%T)"
for r in 1 2; do for v in $V; do
  run $v fib-r$r --runs 10 fib --n 30,35,40
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 14 --leaf calls --queues 1,3
  run $v nq-r$r --runs 3 nqueens --n 14,16 --cutoff 16 --form joined
done; done
for v in head sumr; do run $v nqc --runs 3 nqueens --n 16 --cutoff 8 --form joined,detached; run $v uts --runs 3 uts --tree t1l,t3l; done
run head epaqstack --runs 5 epaq fib --n 40 --cutoff 14 --leaf stack --queues 1,3
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar czf $OUT/c1.tgz -C /tmp c1
