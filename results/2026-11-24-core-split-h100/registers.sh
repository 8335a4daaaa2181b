# Registers per kernel before (08268ef) and after (HEAD): ptxas -v on each build's PTX.
set -u
xz -dkf .ab/*.ptx.xz
for v in base new; do
  ptxas -arch=sm_90 -v .ab/$v.ptx -o /dev/null 2>&1 \
    | awk -v v=$v '/Compiling entry function/ {match($0, /\x27[a-z_]+\x27/); f=substr($0, RSTART+1, RLENGTH-2)} /Used [0-9]+ registers/ && f != "" {match($0, /Used [0-9]+ registers/); print v, f, substr($0, RSTART, RLENGTH); f=""}' \
    | grep -E " gtap_(fib|nqueens|cilksort|fib_epaq|nqueens_epaq|cilksort_epaq|bfs|spmv) "
done
