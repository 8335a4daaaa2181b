# Session 37, call 5 (exploration for issue 22, nothing landed from it): how the grid's
# warps per SM and a register cap move small fib and nqueens(16), with GTaP's fib beside.
set -u
O=/tmp/c5; mkdir -p $O
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
B=.gpu-bin/examples/bench
cat .gpu-bin/COMMIT > $O/commit.txt; nvidia-smi > $O/smi.txt; date -u > $O/date.txt
. scripts/jit-cache.sh
run() { local name=$1; shift; echo "== $name $(date -u +%T)"; timeout 150 $B --gpu-only --out $O/$name.csv --config-name $name "$@" > $O/$name.md 2> $O/$name.log || echo "FAIL $name: $(tail -n 3 $O/$name.log)"; }
$B --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; echo "== jit done $(date -u +%T)"
for r in 1 2; do
  for w in 4 8 12; do run fib-w$w-r$r --warps-per-sm $w --runs 10 fib --n 20,22,24,26,28,30,35; done
  run fib-w16c128-r$r --max-registers 128 --runs 10 fib --n 20,22,24,26,28,30,35
done
run nq-default --runs 3 nqueens --n 16 --cutoff 8 --form joined,detached
run nq-c128 --max-registers 128 --runs 3 nqueens --n 16 --cutoff 8 --form joined,detached
run nq-c96w20 --max-registers 96 --warps-per-sm 20 --runs 3 nqueens --n 16 --cutoff 8 --form joined,detached
run nq-w8 --warps-per-sm 8 --runs 3 nqueens --n 16 --cutoff 8 --form joined,detached
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^fib_cutoff' RUNS=3 bash .anchor-gtap/run.sh > $O/anchor-epaq.csv 2> $O/anchor-epaq.log
for n in 20 22 24 26 28 30; do for i in 1 2 3 4 5; do timeout 60 $GTAP_ANCHOR_BUILD/fib $n 2>>$O/anchor.log; done; done > $O/anchor-fib.txt
echo "== done $(date -u +%T)"
tar czf $OUT/c5.tgz -C /tmp c5
