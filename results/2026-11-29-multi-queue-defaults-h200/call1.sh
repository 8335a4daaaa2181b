# Session 39, call 1: the multi-queue scheduling (GTaP's queue order, top-up 2, inline
# resumes: mtr) with the granularity policy on, off, and memory-only, on the EPAQ programs,
# plus a profile of the detached nqueens(16) at cutoff 8. ee769ef's bundle, host settings only.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; date -u
. scripts/jit-cache.sh
O=/tmp/c1; mkdir -p $O
B=.gpu-bin/examples/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout ${GT:-150} $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
$B --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
echo "== jit done $(date -u +%T)"
MTR="--queue-order most-generated --top-up 2 --resume-inline"
MEM="--inline-min-depth 200 --inline-wide-tasks 0"
for r in 1 2; do
  run fib-def-r$r --runs 5 epaq fib --n 40 --cutoff 10,14,18 --leaf both --queues 3
  run fib-mtr-r$r $MTR --runs 5 epaq fib --n 40 --cutoff 10,14,18 --leaf both --queues 3
  run fib-mtroff-r$r $MTR --no-auto-granularity --runs 5 epaq fib --n 40 --cutoff 10,14,18 --leaf both --queues 3
  run fib-mtrmem-r$r $MTR $MEM --runs 5 epaq fib --n 40 --cutoff 10,14,18 --leaf both --queues 3
done
run nq-mtr $MTR --runs 3 epaq nqueens --n 16 --cutoff 5,7,9,11 --queues 2,3
run nq-mtrmem $MTR $MEM --runs 3 epaq nqueens --n 16 --cutoff 5,7,9,11 --queues 2,3
run ck-mtr $MTR --runs 3 epaq cilksort --n 5e7 --cutoff 256,2048 --queues 3
run ck-mtrmem $MTR $MEM --runs 3 epaq cilksort --n 5e7 --cutoff 256,2048 --queues 3
echo "== bench done $(date -u +%T)"
$B --profile $O/prof nqueens --n 16 --cutoff 8 --form detached > $O/prof.md 2> $O/prof.log || echo "FAIL prof"
echo "== prof done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy|PoolEx|error" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
rm -f $O/prof/*/trace.json
tar czf $OUT/c1.tgz -C /tmp c1
