# Session 38, call 6: the granularity policy's back-off ratio (`--inline-backoff-ratio`,
# default 4) at 8 and 16, with ee769ef's bundle: a host setting, same kernel. Alternating,
# two rounds for the programs the policy acts on.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; date -u
. scripts/jit-cache.sh
O=/tmp/c6; mkdir -p $O
B=.gpu-bin/examples/bench
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout ${GT:-120} $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
$B --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
echo "== jit done $(date -u +%T)"
for r in 1 2; do for k in 4 8 16; do
  run fib-k$k-r$r --inline-backoff-ratio $k --runs 5 fib --n 20,24,26,28,30,32,35,40
  run epaq-k$k-r$r --inline-backoff-ratio $k --runs 5 epaq fib --n 40 --cutoff 10,14,18 --leaf calls,stack --queues 1,3
  run nq-k$k-r$r --inline-backoff-ratio $k --runs 3 nqueens --n 14,16 --cutoff 8,16 --form joined,detached
done; done
for k in 4 8 16; do
  run uts-k$k --inline-backoff-ratio $k --runs 3 uts --tree t1l,t3l
  run gran-k$k --inline-backoff-ratio $k --runs 3 granularity
  run knap-k$k --inline-backoff-ratio $k --runs 3 knapsack
  run floor-k$k --inline-backoff-ratio $k --runs 3 floorplan
done
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar czf $OUT/c6.tgz -C /tmp c6
# The EPAQ rows above failed (`--leaf` takes one value: calls, stack or both). Call 6b, on the
# same machine right after, ran this file edited by:
#   sed -i 's/--leaf calls,stack/--leaf both/; s/^for k in 4 8 16; do$/for k in; do/' s38c6.sh
#   sed -i 's/^  run fib-k/  : run fib-k/; s/^  run nq-k/  : run nq-k/; s#O=/tmp/c6#O=/tmp/c6b#; s#-C /tmp c6#-C /tmp c6b#; s#c6.tgz#c6b.tgz#' s38c6.sh
# (the EPAQ rows only); its tables are in c6/ beside the others.
