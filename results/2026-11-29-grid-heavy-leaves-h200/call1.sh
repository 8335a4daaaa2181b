set -u
O=/tmp/s1; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/bn && chmod +x /tmp/bn
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local v=$1; shift; echo "== $v $(date -u +%T)"; timeout ${GT:-150} /tmp/bn --gpu-only --out $O/$v.csv --config-name $v "$@" > $O/$v.md 2> $O/$v.log || echo "FAIL $v: $(tail -n 3 $O/$v.log)"; }
/tmp/bn --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
echo "== jit done $(date -u +%T)"
# A: the grid-wide heavy-leaf threshold
for c in "g0=--inline-grid-heavy-rounds 0" "gdef=" "g400=--inline-grid-heavy-rounds 400" "g6k=--inline-grid-heavy-rounds 6400" "off=--no-auto-granularity"; do
  n=${c%%=*}; f=${c#*=}
  run $n-epaq $f --runs 5 epaq fib --n 40 --cutoff 12,14,16,18 --leaf both --queues 1,3
  run $n-fib $f --runs 10 fib --n 26,30,35,40
  run $n-nq $f --runs 3 nqueens --n 16 --cutoff 7,16 --form joined,detached
  run $n-uts $f --runs 3 uts --tree t1l,t3l
done
echo "== A done $(date -u +%T)"
# B: register caps and warps per SM, EPAQ fib cutoff 10 (issue 22) and the others
T="--queue-order most-generated --top-up 2 --resume-inline"
for c in "rdef=" "r128=--max-registers 128" "r128w12=--max-registers 128 --warps-per-sm 12" "r96w20=--max-registers 96 --warps-per-sm 20" "r80w24=--max-registers 80 --warps-per-sm 24"; do
  n=${c%%=*}; f=${c#*=}
  run $n-epaq $f --runs 5 epaq fib --n 40 --cutoff 10 --leaf both --queues 1,3
  run $n-tuned-epaq $f $T --runs 5 epaq fib --n 40 --cutoff 10 --leaf both --queues 1,3
  run $n-fib $f --runs 5 fib --n 26,30,40
  run $n-nq $f --runs 3 nqueens --n 12,16 --cutoff 7,16 --form detached
done
echo "== B done $(date -u +%T)"
RUNS=5 bash .anchor-gtap/run.sh > $O/anchor.csv 2> $O/anchor.log
echo "== anchor done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-260; done > $O/summary.txt
tar czf $OUT/s1.tgz -C /tmp s1
