# Session 38, call 4 (same machine as call 3): the suite's binaries call 3 left unrun, then a
# 30 s soak.
set -u
mkdir -p /tmp/x3 .gpu-bin && tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; date -u
GTAP_ONLY="profile_gpu programs_cpu ptx_text random_cpu resident_cpu resident_gpu runtime_cpu runtime_gpu search_cpu soak_gpu storage_cpu stuck_data_cpu stuck_gpu team_cpu trap_gpu uts_cpu fib smoke" GTAP_DEADLINE_S=330 OUT=/tmp/x3 bash .gpu-bin/gpu-run.sh
echo "suite rc=$?"; date -u
mkdir -p $OUT/suite && cp -r /tmp/x3/* $OUT/suite/
. scripts/jit-cache.sh
GTAP_REQUIRE_GPU=1 GTAP_SOAK_SECS=30 timeout 120 .gpu-bin/tests/soak_gpu-* --nocapture > $OUT/soak.log 2>&1; echo "soak rc=$?"; tail -4 $OUT/soak.log; date -u
