# Session 44, call 8: why skipping the own-deque load slowed fib (call 7): `s44kept` skips it
# only in rounds with kept tasks (idle rounds load as before); `s44s1024` is base with idle
# sleeps of up to 1024 ns instead of 256 (slower idle warps); against `s44base` and `s44pub`.
set -u
AB_OUT=/tmp/s44c8 . scripts/ab-ptx.sh .gpu-exp/bench-ae81.xz s44base s44pub s44kept s44s1024
for r in 1 2; do
  for v in s44base s44pub s44kept s44s1024; do
    ab_run $v fib-r$r --runs 7 fib --n 16,20,24,28,30,35,40
    ab_run $v fiboff-r$r --runs 7 --no-auto-granularity fib --n 16,20,24
    ab_run $v nq-r$r --runs 5 nqueens --n 10,12,16 --cutoff 8 --form detached
  done
done
ab_summary
tar czf $OUT/s44c8.tgz -C /tmp s44c8
echo "== done $(date -u +%T)"
