# Session 40, call 3: a warp's inline depth may move up past its starting depth by at most
# 2 (lift2) or 4 (lift4) levels when its calls are short, against pq (per-queue round
# averages alone), uncapped (12 warps per SM) and capped at 128 registers (16); two rounds.
set -u
date -u
AB_OUT=/tmp/c3 . scripts/ab-ptx.sh .gpu-exp/bench-s40.xz pq lift2 lift4
for v in pq lift2 lift4; do /tmp/ab-bench --ptx /tmp/ab-$v.ptx --max-registers 128 --gpu-only --runs 1 fib --n 20 >/dev/null 2>&1 & done; wait
echo "== capped compiled $(date -u +%T)"
for r in 1 2; do
  for v in pq lift2 lift4; do
    for c in "def:" "cap:--max-registers 128"; do
      name=${c%%:*}; flags=${c#*:}
      ab_run $v fib-$name-r$r $flags --runs 5 fib --n 20,22,24,26,28,30,32,35,38,40
      ab_run $v nq-$name-r$r $flags --runs 5 nqueens --n 10,12,14,16 --cutoff 8
      ab_run $v epaq-$name-r$r $flags --runs 5 epaq fib --n 40 --cutoff 10,14 --leaf calls --queues 1,3
      ab_run $v enq-$name-r$r $flags --runs 3 epaq nqueens --n 16 --cutoff 7,11 --queues 2,3
    done
  done
done
for v in pq lift2 lift4; do
  for c in "def:" "cap:--max-registers 128"; do
    name=${c%%:*}; flags=${c#*:}
    ab_run $v uts-$name-r1 $flags --runs 3 uts --tree t1l,t3l
  done
done
ab_summary
date -u
tar cJf $OUT/c3.txz -C /tmp c3
