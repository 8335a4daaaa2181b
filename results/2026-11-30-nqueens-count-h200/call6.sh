# Session 43, call 6: the register count with a u32 path and total where the leaf is at most
# 9 rows deep (rw) against 861ae36's u64 one (rs), one host; GTaP's nq with gtap's leaf in
# the same call, and the SASS nvcc made of that leaf.
set -u
AB_OUT=/tmp/c6 . scripts/ab-ptx.sh .gpu-exp/bench-s43.xz rs rw
for r in 1 2; do
  for v in rs rw; do
    ab_run $v nq16-r$r --runs 3 nqueens --n 16 --cutoff 7,8 --form joined,detached
  done
done
for v in rs rw; do
  ab_run $v nqs --runs 5 nqueens --n 12,14 --cutoff 7,8 --form detached
  ab_run $v epaq --runs 3 epaq nqueens --n 16 --cutoff 4,6,11 --queues 1
done
ab_summary
tar czf $OUT/c6.tgz -C /tmp c6
RUNS=5 bash scripts/anchor-leaf.sh .anchor-gtap > /tmp/c6/anchor-leaf.csv 2>&1 || echo "anchor-leaf failed"
B=/tmp/gtap_anchor_build
for n in 12 14 16; do for c in 6 7; do for i in 1 2 3 4 5; do
  echo "nq_leaf $n $c $($B/nq_leaf $n $c 2>/dev/null)"; done; done; done > /tmp/c6/anchor-depths.txt
cuobjdump -sass $B/nq_leaf > /tmp/c6/nq_leaf.sass 2>&1 || echo "cuobjdump failed"
nvcc --version | tail -2 > /tmp/c6/nvcc.txt
tar czf $OUT/c6.tgz -C /tmp c6
date -u
