# Session 39, call 4: granularity settings for programs with several queues (a lead for the
# 3-queue EPAQ fib at cutoff 10, where the policy costs 9%): the default (e3694ab: GTaP's
# order, top-up 2, inline resumes with several queues) against one policy setting at a time.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; date -u
. scripts/jit-cache.sh
O=/tmp/c4; mkdir -p $O
B=.gpu-bin/examples/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout ${GT:-150} $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
$B --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
echo "== jit done $(date -u +%T)"
for cfg in "def:" "off:--no-auto-granularity" "tr2:--inline-task-rounds 2" "tr4:--inline-task-rounds 4" "br2:--inline-backoff-ratio 2" "mq64:--inline-min-queued 64"; do
  name=${cfg%%:*}; flags=${cfg#*:}
  run fib-$name $flags --runs 5 epaq fib --n 40 --cutoff 10,12,14,18 --leaf both --queues 3
done
for cfg in "def:" "tr2:--inline-task-rounds 2" "tr4:--inline-task-rounds 4" "br2:--inline-backoff-ratio 2" "mq64:--inline-min-queued 64"; do
  name=${cfg%%:*}; flags=${cfg#*:}
  run nq-$name $flags --runs 3 epaq nqueens --n 16 --cutoff 7,9,11 --queues 2,3
done
for cfg in "def:" "tr2:--inline-task-rounds 2"; do
  name=${cfg%%:*}; flags=${cfg#*:}
  run ck-$name $flags --runs 3 epaq cilksort --n 5e7 --cutoff 256,2048 --queues 3
done
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy|PoolEx|error" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar cJf $OUT/c4.txz -C /tmp c4
