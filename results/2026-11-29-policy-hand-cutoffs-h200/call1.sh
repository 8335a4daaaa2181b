set -u
O=$OUT/c1; mkdir -p $O
xz -dc .gpu-exp/bench-head.xz > /tmp/bench && chmod +x /tmp/bench
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt; cat .gpu-exp/COMMIT >> $O/date.txt
B=/tmp/bench
t0=$(date +%s)
$B --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
echo "jit $(( $(date +%s) - t0 )) s" >> $O/date.txt
BENCH=/tmp/bench FIB_NS=20,22,24,26,28,30,32 NQ_NS=10,12 RUNS=10 ANCHOR_RUNS=5 \
 CONFIGS="default=|nopol=--no-auto-granularity|sa2=--steal-attempts 2|sa4=--steal-attempts 4|sa16=--steal-attempts 16|keep8=--keep 8|keep64=--keep 64|ri=--resume-inline|tu2=--top-up 2|cap128=--max-registers 128" \
 bash scripts/size-sweep.sh $O/sweep > $O/sweep.log 2>&1
echo "sweep $(( $(date +%s) - t0 )) s" >> $O/date.txt
$B --gpu-only --runs 10 --out $O/hc.csv epaq fib --n 40 --cutoff 10,12,14,16,18 --leaf both --queues 1,3 > $O/hc.md 2> $O/hc.log
$B --gpu-only --runs 10 --no-auto-granularity --config-name pol-off --out $O/hc-off.csv epaq fib --n 40 --cutoff 10,12,14,16,18 --leaf both --queues 1,3 > $O/hc-off.md 2>$O/hc-off.log
$B --gpu-only --runs 10 --out $O/fib40.csv fib --n 36,38,40 > $O/fib40.md 2>$O/fib40.log
echo "all $(( $(date +%s) - t0 )) s" >> $O/date.txt
tar czf $OUT/c1.tgz -C $OUT c1
