# Session 36, call 2: spreading small trees: steal half of a victim's entries (PTX `half`),
# and a warp keeping fewer of its new tasks (`--keep`), on top of `store` (4742e3d).
set -u
O=/tmp/s2; mkdir -p $O
xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b1
for v in store half; do xz -dc .gpu-exp/ptx/$v.ptx.xz > /tmp/$v.ptx; done
. scripts/jit-cache.sh
nvidia-smi > $O/smi.txt; date -u > $O/date.txt
pre() { case $1 in S) echo "--ptx /tmp/store.ptx";; H) echo "--ptx /tmp/half.ptx";; k16) echo "--ptx /tmp/store.ptx --keep 16";; k8) echo "--ptx /tmp/store.ptx --keep 8";; H8) echo "--ptx /tmp/half.ptx --keep 8";; a2) echo "--ptx /tmp/store.ptx --steal-attempts 2";; esac; }
run() { local v=$1 name=$2; shift 2; echo "== $v-$name $(date -u +%T)"; timeout ${GT:-120} /tmp/b1 $(pre $v) --gpu-only --out $O/$v-$name.csv --config-name $v-$name "$@" > $O/$v-$name.md 2> $O/$v-$name.log || echo "FAIL $v-$name: $(tail -n 3 $O/$v-$name.log)"; }
for v in S H; do /tmp/b1 $(pre $v) --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; done
echo "== jit done $(date -u +%T)"
set1() { local v=$1 r=$2
  run $v fib-r$r --runs 10 fib --n 20,22,24,26,28,30,35,40
  run $v epaq-r$r --runs 5 epaq fib --n 40 --cutoff 10 --leaf gtap --queues 1,3
  run $v nq-r$r --runs 3 nqueens --n 12,14,16 --cutoff 8 --form joined,detached
  run $v uts-r$r --runs 3 uts --tree t1l,t3l
}
for r in 1 2; do for v in S H k8 H8; do set1 $v $r; done; done
for v in k16 a2; do set1 $v 1; done
echo "== bench done $(date -u +%T)"
for f in $O/*.log; do echo "## $(basename $f)"; grep -E "median|grid|steals" $f | sed 's/\[gpu[^]]*\]//' | cut -c1-220; done > $O/summary.txt
tar czf $OUT/s2.tgz -C /tmp s2
