# Rounds whose inline calls cost more than they saved, counted as heavy by the grid (vC),
# against the landed code (h1); vC with the grid rule off shows the counts alone.
set -u
O=/tmp/s6; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b1 && xz -dc .gpu-exp/ptx/vC.ptx.xz > /tmp/vC.ptx
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
pre() { case $1 in h1) echo /tmp/b1;; vC) echo "/tmp/b1 --ptx /tmp/vC.ptx";; vC0) echo "/tmp/b1 --ptx /tmp/vC.ptx --inline-grid-heavy-rounds 0";; esac; }
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout ${GT:-120} $(pre $v) --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name: $(tail -n 3 $O/$v-$name.log)"; }
for v in h1 vC; do $(pre $v) --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; done
echo "== jit done $(date -u +%T)"
for r in 1 2; do for v in h1 vC; do
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10,12,14,16,18 --leaf both --queues 1,3
  run $v fib-r$r --runs 10 fib --n 20,26,30,35,40
done; done
for v in h1 vC vC0; do
  run $v fib45 --runs 3 fib --n 45
  run $v uts --runs 3 uts --tree t1l,t3l
  run $v nq16 --runs 3 nqueens --n 16 --cutoff 7,16 --form joined,detached
  run $v small --runs 5 nqueens --n 10,12,14 --cutoff 16 --form joined,detached
  GT=60 run $v gran --runs 3 granularity
  run $v knap --runs 3 knapsack
  run $v sort --runs 3 sort --algo cilksort,mergesort-mixed
done
run vC0 epaq --runs 3 epaq fib --n 40 --cutoff 10,12,14,16,18 --leaf both --queues 1,3
run vC0 fib --runs 3 fib --n 20,26,30,35,40
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-260; done > $O/summary.txt
tar czf $OUT/s6.tgz -C /tmp s6
