# Session 37, call 1: rounds that resume parents inline no longer count as heavy leaf rounds
# (`new`), against main's PTX (`store`, 4742e3d), one host (main's), alternating.
set -u
O=/tmp/c1; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b1
for v in store new; do xz -dc .gpu-exp/ptx/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout ${GT:-150} /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name: $(tail -n 3 $O/$v-$name.log)"; }
for v in store new; do /tmp/b1 --ptx /tmp/$v.ptx --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; done
echo "== jit done $(date -u +%T)"
TUNED="--warps-per-sm 24 --max-registers 80 --top-up 2 --resume-inline --queue-order most-generated"
for r in 1 2; do for v in store new; do
  run $v fib-r$r --runs 10 fib --n 20,22,24,26,28,30,35,40
  run $v fibri-r$r --resume-inline --runs 10 fib --n 20,22,24,26,28,30,35,40
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $v nq-r$r --runs 3 nqueens --n 12,14,16 --cutoff 8 --form joined,detached
done; done
for v in store new; do
  run $v fibtuned $TUNED --runs 5 fib --n 30,35,40
  run $v epaqtuned $TUNED --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $v epaqtunedoff $TUNED --no-auto-granularity --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run $v nqri --resume-inline --runs 3 nqueens --n 12,14,16 --cutoff 8 --form joined
  run $v uts --runs 3 uts --tree t1l,t3l
done
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-200; done > $O/summary.txt
tar czf $OUT/c1.tgz -C /tmp c1
