# Session 43, call 3: with the register count, the nqueens programs at more warps per SM
# (register caps), beside GTaP's nq and GTaP's nq with gtap's leaf at cutoff depths 6 and 7,
# on a4aabf5's bundle.
set -u
AB_OUT=/tmp/c3 . scripts/ab-flags.sh
S=("def|" "w16|--max-registers 128 --warps-per-sm 16" "w20|--max-registers 96 --warps-per-sm 20"
   "w24|--max-registers 80 --warps-per-sm 24")
for r in 1 2; do
  for s in "${S[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    ab_run $name-nq-r$r $flags --runs 3 nqueens --n 16 --cutoff 7,8 --form joined,detached
  done
done
for s in "${S[@]}"; do
  name=${s%%|*}; flags=${s#*|}
  ab_run $name-nqs $flags --runs 5 nqueens --n 12,14 --cutoff 7,8 --form joined,detached
done
ab_summary
tar czf $OUT/c3.tgz -C /tmp c3
B=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^nq ' RUNS=3 bash .anchor-gtap/run.sh > /tmp/c3/anchor.csv 2> /tmp/c3/anchor.log || echo "anchor failed"
RUNS=5 bash scripts/anchor-leaf.sh .anchor-gtap > /tmp/c3/anchor-leaf.csv 2>&1 || echo "anchor-leaf failed"
for n in 12 14 16; do
  for c in 6 7; do
    for bin in nq nq_leaf; do
      for i in 1 2 3 4 5; do echo "$bin $n $c $($B/$bin $n $c 2>/dev/null)"; done
    done
  done
done > /tmp/c3/anchor-depths.txt
tar czf $OUT/c3.tgz -C /tmp c3
date -u
