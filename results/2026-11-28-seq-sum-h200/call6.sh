#!/usr/bin/env bash
# Session 31 call 6 (H200): the rest of the GPU suite at 633df84 (the NOT RUN list of call 5).
mkdir -p .gpu-bin && tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin && mkdir -p $OUT/c6
GTAP_ONLY="profile_gpu programs_cpu ptx_text random_cpu resident_cpu resident_gpu runtime_cpu runtime_gpu search_cpu soak_gpu storage_cpu stuck_data_cpu stuck_gpu team_cpu trap_gpu uts_cpu fib smoke" OUT=$OUT/c6 bash scripts/gpu-run.sh > $OUT/c6/suite.out 2>&1; echo "suite rc=$?"
grep -E "FAILED|NOT RUN|gpu-run:" $OUT/c6/suite.out | tail
tar czf $OUT/c6.tgz -C $OUT c6 && rm -rf $OUT/c6
# Call 7, the soak, on the same machine:
# . scripts/jit-cache.sh && GTAP_REQUIRE_GPU=1 GTAP_SOAK_SECS=90 .gpu-bin/tests/soak_gpu-* --nocapture
