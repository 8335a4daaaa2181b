# A/B of the kernels before (08268ef) and after (HEAD) on one GPU, alternating processes.
set -u
xz -dk .ab/*.xz; chmod +x .ab/bench-base
. scripts/jit-cache.sh
echo "== registers (ptxas -arch=sm_90 -v)"
for v in base new; do
  ptxas -arch=sm_90 -v .ab/$v.ptx -o /dev/null 2>&1 | grep -A1 -E "Compiling entry function '(gtap_fib|gtap_nqueens|gtap_cilksort|gtap_fib_epaq|gtap_cilksort_epaq|gtap_nqueens_epaq)'" | grep -oE "entry function '[a-z_]+'|Used [0-9]+ registers" | paste - - | sed "s/^/$v: /"
done
new=.gpu-bin/examples/bench
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
