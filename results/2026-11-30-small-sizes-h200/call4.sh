# Session 41, call 4: which part of the granularity policy costs the small sizes (fib(20..26),
# nqueens 10/12), where it inlines nothing. One bench host (e2f07bd's), PTX variants of
# e2f07bd's device code, each with one part of the policy cut out (attribution only, not
# for landing): eA spawns never inline (the decision's loads skipped), eB no
# share_grid_policy, eC no round timing (lane 0's clock and averages), eD no depth tracking
# (set_depth, count_children). base also runs with the policy off. All at 12 warps per SM
# (eA's kernels need fewer registers: its grid would be larger).
set -u
AB_OUT=/tmp/c4 . scripts/ab-ptx.sh .gpu-exp/bench-s41.xz base eA eB eC eD
for r in 1 2 3; do
  for v in base eA eB eC eD; do
    ab_run $v fib-r$r --warps-per-sm 12 --runs 7 fib --n 20,22,24,26
    ab_run $v nq-r$r --warps-per-sm 12 --runs 7 nqueens --n 10,12 --cutoff 8
  done
  ab_run base offfib-r$r --no-auto-granularity --warps-per-sm 12 --runs 7 fib --n 20,22,24,26
  ab_run base offnq-r$r --no-auto-granularity --warps-per-sm 12 --runs 7 nqueens --n 10,12 --cutoff 8
  tar czf $OUT/c4.tgz -C /tmp c4
done
ab_summary
tar czf $OUT/c4.tgz -C /tmp c4
