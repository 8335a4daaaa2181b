# A/B of the kernels before the runtime-core redesign (08268ef, .ab/bench-base and
# .ab/base.ptx) and after it (HEAD: .gpu-bin from scripts/gpu-build.sh, .ab/new.ptx = its
# plain PTX) on one GPU, alternating processes; then registers per kernel (ptxas -v).
set -u
xz -dkf .ab/*.xz; chmod +x .ab/bench-base
. scripts/jit-cache.sh
echo "== registers (ptxas -arch=sm_90 -v)"
for v in base new; do
  ptxas -arch=sm_90 -v .ab/$v.ptx -o /dev/null 2>&1 \
    | awk -v v=$v '/Compiling entry function/ {match($0, /\x27[a-z_]+\x27/); f=substr($0, RSTART+1, RLENGTH-2)} /Used [0-9]+ registers/ && f != "" {match($0, /Used [0-9]+ registers/); print v, f, substr($0, RSTART, RLENGTH); f=""}' \
    | grep -E " gtap_(fib|nqueens|cilksort|fib_epaq|nqueens_epaq|cilksort_epaq|bfs|spmv|mergesort) "
done
new=".gpu-bin/examples/bench --no-auto-granularity"
for round in 1 2; do
  echo "== round $round"
  GTAP_FIB_N=40 .ab/bench-base --gpu-only --runs 10 fib 2>&1 | grep -E "^\| fib" | sed 's/^/base /'
  $new --gpu-only --runs 10 fib --n 40 2>&1 | grep -E "^\| fib" | sed 's/^/new  /'
  GTAP_NQ_N=16 .ab/bench-base --gpu-only --runs 10 nqueens 2>&1 | grep -E "^\| nqueens" | sed 's/^/base /'
  $new --gpu-only --runs 10 nqueens --n 16 --cutoff 7 2>&1 | grep -E "^\| nqueens" | sed 's/^/new  /'
  GTAP_CILKSORT_N=100000000 .ab/bench-base --gpu-only --runs 10 cilksort 2>&1 | grep -E "^\| cilksort" | sed 's/^/base /'
  $new --gpu-only --runs 10 sort --algo cilksort --n 1e8 2>&1 | grep -E "^\| cilksort" | sed 's/^/new  /'
  GTAP_EPAQ_FIB_N=40 GTAP_CUTOFFS=10 .ab/bench-base --gpu-only --runs 10 epaq-fib 2>&1 | grep -E "^\| fib" | sed 's/^/base /'
  $new --gpu-only --runs 10 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 2>&1 | grep -E "^\| fib" | sed 's/^/new  /'
done
