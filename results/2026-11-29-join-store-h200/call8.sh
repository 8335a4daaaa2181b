# Session 36, call 8: the granularity policy's cost on the hand-cutoff EPAQ fib at 4742e3d
# (default against --no-auto-granularity, alternating, two rounds), and fib(40).
set -u
O=/tmp/s8; mkdir -p $O
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
B=.gpu-bin/examples/bench
. scripts/jit-cache.sh
date -u > $O/date.txt
$B --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
run() { local v=$1 name=$2; shift 2; local f=""; [ $v = off ] && f=--no-auto-granularity; echo "== $v-$name $(date -u +%T)"; timeout 150 $B $f --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name"; }
for r in 1 2; do for v in on off; do
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10,12,14,16,18 --leaf both --queues 1,3
done; done
run on fib40 --runs 10 fib --n 40
echo "== done $(date -u +%T)"
tar czf $OUT/s8.tgz -C /tmp s8
