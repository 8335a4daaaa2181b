set -u
O=/tmp/s3; mkdir -p $O
xz -dc .gpu-exp/bench-head.xz > /tmp/b0 && xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b0 /tmp/b1
for v in A B Z; do xz -dc .gpu-exp/ptx/v$v.ptx.xz > /tmp/v$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
pre() { case $1 in h0) echo /tmp/b0;; h1) echo /tmp/b1;; vA|vB|vZ) echo "/tmp/b1 --ptx /tmp/$1.ptx";; esac; }
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout ${GT:-150} $(pre $v) --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name: $(tail -n 3 $O/$v-$name.log)"; }
for v in h0 h1 vA vB vZ; do $(pre $v) --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; done
echo "== jit done $(date -u +%T)"
for r in 1 2 3; do for v in h0 h1 vA vB vZ; do
  run $v fib-r$r --runs 10 fib --n 20,22,24,26,28,30,35
done; done
for r in 1 2; do for v in h0 h1 vA vB vZ; do
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 14,16,18 --leaf both --queues 1,3
done; done
for v in h0 h1 vA vB vZ; do
  run $v uts --runs 3 uts --tree t1l
  run $v fib40 --runs 10 fib --n 40
done
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|spawns inline|back-off|stopped|heavy" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-260; done > $O/summary.txt
tar czf $OUT/s3.tgz -C /tmp s3
