set -u
O=/tmp/s5; mkdir -p $O
[ -d .gpu-bin/tests ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
date -u > $O/date.txt
GTAP_ONLY="gtap_host gtap_tests host_atomics intrinsics_gpu language_cpu mixed_cpu mixed_gpu profile_gpu programs_cpu ptx_text random_cpu resident_cpu resident_gpu runtime_cpu runtime_gpu search_cpu soak_gpu storage_cpu stuck_data_cpu stuck_gpu team_cpu trap_gpu uts_cpu fib smoke" OUT=$O bash .gpu-bin/gpu-run.sh > $O/suite-b.txt 2>&1
echo "suite rc=$?" >> $O/suite-b.txt
tail -3 $O/suite-b.txt
. scripts/jit-cache.sh
GTAP_REQUIRE_GPU=1 GTAP_SOAK_SECS=30 timeout 200 .gpu-bin/tests/soak_gpu-* --nocapture > $O/soak.txt 2>&1; echo "soak rc=$?" >> $O/soak.txt
tail -4 $O/soak.txt
# small fib: main's host, the new host, the new host with main's PTX
xz -dc .gpu-exp/bench-head.xz > /tmp/b0 && xz -dc .gpu-exp/bench-new.xz > /tmp/b1 && chmod +x /tmp/b0 /tmp/b1 && xz -dc .gpu-exp/ptx/main.ptx.xz > /tmp/main.ptx
pre() { case $1 in h0) echo /tmp/b0;; h1) echo /tmp/b1;; h1m) echo "/tmp/b1 --ptx /tmp/main.ptx";; esac; }
for v in h0 h1 h1m; do $(pre $v) --gpu-only --runs 1 fib --n 20 > /dev/null 2>&1; done
for r in 1 2 3; do for v in h0 h1 h1m; do
  $(pre $v) --gpu-only --runs 10 --out $O/$v-fib-r$r.csv --config-name $v fib --n 20,24,26,30,35 > /dev/null 2> $O/$v-fib-r$r.log || echo "FAIL $v"
done; done
tar czf $OUT/s5.tgz -C /tmp s5
