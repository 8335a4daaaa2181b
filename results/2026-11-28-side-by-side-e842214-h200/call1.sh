#!/usr/bin/env bash
# Session 30 call 1 (H200): side-by-side at HEAD, size sweep, EPAQ tuned-option ablation.
set -u
mkdir -p .gpu-bin && tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT
date -u
bash scripts/side-by-side.sh $OUT/sbs; echo "side-by-side rc=$?"
date -u
bash scripts/size-sweep.sh $OUT/sweep; echo "sweep rc=$?"
date -u
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
mkdir -p $OUT/abl
ab() { local name=$1; shift; $B --gpu-only --runs 5 --config-name $name --out $OUT/abl/$name.csv "$@" epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $OUT/abl/$name.md 2>$OUT/abl/$name.log || echo "FAIL $name"; }
ab default
ab mg --queue-order most-generated
ab tu --top-up 2
ab ri --resume-inline
ab mgtu --queue-order most-generated --top-up 2
ab mgturi --queue-order most-generated --top-up 2 --resume-inline
ab w24 --warps-per-sm 24 --max-registers 80
ab tuned --queue-order most-generated --top-up 2 --resume-inline --warps-per-sm 24 --max-registers 80
ab off --no-auto-granularity
ab offmgturi --no-auto-granularity --queue-order most-generated --top-up 2 --resume-inline
ab offtuned --no-auto-granularity --queue-order most-generated --top-up 2 --resume-inline --warps-per-sm 24 --max-registers 80
ab default-2
ab mgturi-2 --queue-order most-generated --top-up 2 --resume-inline
# Do the 1-queue options hold across programs?
xp() { local name=$1; shift; $B --gpu-only --runs 5 --config-name $name --out $OUT/abl/x-$name.csv "$@" fib --n 30,40 > $OUT/abl/x-$name.md 2>$OUT/abl/x-$name.log || echo "FAIL x $name";
  $B --gpu-only --runs 3 --config-name $name --out $OUT/abl/xq-$name.csv "$@" nqueens --n 14,16 --cutoff 8 --form joined,detached > $OUT/abl/xq-$name.md 2>>$OUT/abl/x-$name.log || echo "FAIL xq $name"; }
xp default
xp tu --top-up 2
xp ri --resume-inline
xp turi --top-up 2 --resume-inline
date -u
grep -h "^| epaq\|^| fib\|^| nqueens" $OUT/abl/*.md | head -100
cd $OUT && tar czf c1.tgz sbs sweep abl && rm -rf sbs sweep abl
