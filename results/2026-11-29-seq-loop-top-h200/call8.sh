# Session 38, call 8: the scheduling options that help the 3-queue EPAQ fib (GTaP's queue
# order, top-up 2, inline resumes: `mtr`) against the default, on every EPAQ program and
# queue count, with ee769ef's bundle (host settings: the same kernel). Alternating, two rounds.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; date -u
. scripts/jit-cache.sh
O=/tmp/c8; mkdir -p $O
B=.gpu-bin/examples/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout ${GT:-150} $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
$B --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
echo "== jit done $(date -u +%T)"
MTR="--queue-order most-generated --top-up 2 --resume-inline"
for r in 1 2; do
  run fib-def-r$r --runs 5 epaq fib --n 40 --cutoff 10,14,18 --leaf both --queues 1,3
  run fib-mtr-r$r $MTR --runs 5 epaq fib --n 40 --cutoff 10,14,18 --leaf both --queues 1,3
  run nq-def-r$r --runs 3 epaq nqueens --n 16 --cutoff 7,9 --queues 1,2,3
  run nq-mtr-r$r $MTR --runs 3 epaq nqueens --n 16 --cutoff 7,9 --queues 1,2,3
  run ck-def-r$r --runs 3 epaq cilksort --n 5e7 --cutoff 256,2048 --queues 1,3
  run ck-mtr-r$r $MTR --runs 3 epaq cilksort --n 5e7 --cutoff 256,2048 --queues 1,3
done
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar czf $OUT/c8.tgz -C /tmp c8
