# Session 42, call 3: PROTOTYPE (branch wip/seq-spill): inline calls of u64 summing tasks hand
# their pending calls back as tasks when more than num_warps >> SHIFT warps are idle.
# sp_s1 / sp_s3 / sp_s6: SHIFT 1, 3, 6; sp_never: the same build with the spill compiled out.
# base: main's bundle (3dec17d). Same grid for all (12 warps per SM, registers capped at 168).
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
AB_OUT=/tmp/c3 . scripts/ab-ptx.sh .gpu-exp/spill/bench.xz sp_never sp_s1 sp_s3 sp_s6
.gpu-bin/examples/bench --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1
G="--warps-per-sm 12 --max-registers 168"
base_run() { local n=$1; shift; ab_bench_run .gpu-bin/examples/bench "base-$n" "$@"; }
S=("def|" "nb|--inline-backoff-ratio 0 --inline-task-rounds 0" "nb19|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 19" "nb17|--inline-backoff-ratio 0 --inline-task-rounds 0 --inline-min-depth 17")
for r in 1 2; do
  for s in "${S[@]}"; do
    name=${s%%|*}; flags=${s#*|}
    base_run $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    for v in sp_never sp_s1 sp_s3 sp_s6; do
      ab_run $v $name-fib-r$r $G $flags --runs 5 fib --n 30,35,40
    done
  done
  tar czf $OUT/c3.tgz -C /tmp c3
done
for v in sp_never sp_s3; do
  ab_run $v epaq $G --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
  ab_run $v dflt8 --runs 5 fib --n 30,35,40
done
base_run epaq $G --runs 5 epaq fib --n 40 --cutoff 10,16 --leaf both --queues 1,3
base_run dflt --runs 5 fib --n 30,35,40
ab_summary
tar czf $OUT/c3.tgz -C /tmp c3
echo "== done $(date -u +%T)"
