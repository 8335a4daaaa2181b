set -u
O=/tmp/c2; mkdir -p $O
xz -dc .gpu-exp/bench-head.xz > /tmp/bench && chmod +x /tmp/bench
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt; cat .gpu-exp/COMMIT >> $O/date.txt
run() { local name=$1; shift 1; echo "== $name $(date -u +%T)"; timeout 150 /tmp/bench --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
/tmp/bench --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
for mq in 32 64 128; do
  run mq$mq-fib --runs 10 --inline-min-queued $mq fib --n 24,26,28,30,35,40
  run mq$mq-epaq --runs 5 --inline-min-queued $mq epaq fib --n 40 --cutoff 10,14,18 --leaf both --queues 1,3
  run mq$mq-nq16 --runs 3 --inline-min-queued $mq nqueens --n 16 --cutoff 7,16 --form joined,detached
  run mq$mq-small --runs 5 --inline-min-queued $mq nqueens --n 12,14 --cutoff 8,16 --form joined,detached
  run mq$mq-uts --runs 3 --inline-min-queued $mq uts --tree t1l,t3l
  run mq$mq-tree --runs 3 --inline-min-queued $mq tree --depth 22
  run mq$mq-sort --runs 3 --inline-min-queued $mq sort --algo cilksort,mergesort-mixed
done
run off-epaq --runs 5 --no-auto-granularity epaq fib --n 40 --cutoff 10,14,18 --leaf both --queues 1,3
run off-uts --runs 3 --no-auto-granularity uts --tree t1l
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-240; done > $O/summary.txt
tar czf $OUT/c2.tgz -C /tmp c2
