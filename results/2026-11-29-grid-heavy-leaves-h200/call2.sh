set -u
O=/tmp/s2; mkdir -p $O
xz -dc .gpu-exp/bench-head.xz > /tmp/b0 && xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b0 /tmp/b1
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
pre() { case $1 in h0) echo /tmp/b0;; h1) echo /tmp/b1;; g0) echo "/tmp/b1 --inline-grid-heavy-rounds 0";; off) echo "/tmp/b1 --no-auto-granularity";; esac; }
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout ${GT:-150} $(pre $v) --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name: $(tail -n 3 $O/$v-$name.log)"; }
for v in h0 h1; do $(pre $v) --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; done
echo "== jit done $(date -u +%T)"
for r in 1 2; do for v in h0 h1; do
  run $v fib-r$r --runs 10 fib --n 20,22,24,26,28,30,35,40
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10,12,14,16,18 --leaf both --queues 1,3
done; done
for v in h0 h1 g0; do
  run $v fib45 --runs 3 fib --n 45
  run $v uts --runs 3 uts --tree t1l,t3l
  run $v nq16 --runs 3 nqueens --n 16 --cutoff 7,8,16 --form joined,detached
done
for v in h0 h1; do
  run $v small --runs 5 nqueens --n 8,10,12,14 --cutoff 8,16 --form joined,detached
  run $v sort --runs 3 sort --algo cilksort,mergesort-mixed
  run $v knap --runs 5 knapsack
  GT=60 run $v gran --runs 3 granularity
done
run off epaq --runs 5 epaq fib --n 40 --cutoff 10,12,14,16,18 --leaf both --queues 1,3
run off fib45 --runs 1 fib --n 45
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-260; done > $O/summary.txt
tar czf $OUT/s2.tgz -C /tmp s2
