# Session 36, call 1: the GPU thread workers' taskwait and return without a join RMW
# (a relaxed store, children unstarted) against main's PTX, one host (main's), alternating.
set -u
O=/tmp/s1; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b1
for v in main store; do xz -dc .gpu-exp/ptx/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout ${GT:-150} /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name: $(tail -n 3 $O/$v-$name.log)"; }
for v in main store; do /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; done
echo "== jit done $(date -u +%T)"
for r in 1 2; do for v in main store; do
  run $v fib-r$r --runs 10 fib --n 20,22,24,26,28,30,35,40
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
  run $v nq-r$r --runs 3 nqueens --n 12,14,16 --cutoff 8,16 --form joined,detached
done; done
for v in main store; do
  run $v uts --runs 3 uts --tree t1l,t3l
  run $v sort --runs 3 sort --algo cilksort,mergesort-mixed
  run $v knap --runs 5 knapsack
done
echo "== bench done $(date -u +%T)"
# GTaP beside: fib 20..28, and its EPAQ fib cutoff 10 (1 and 3 queues).
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^fib_cutoff' RUNS=5 bash .anchor-gtap/run.sh > $O/anchor-epaq.csv 2> $O/anchor-epaq.log
for n in 20 22 24 26 28; do for i in 1 2 3 4 5; do timeout 60 $GTAP_ANCHOR_BUILD/fib $n 2>>$O/anchor.log; done; done > $O/anchor-fib.txt
echo "== anchor done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar czf $OUT/s1.tgz -C /tmp s1
