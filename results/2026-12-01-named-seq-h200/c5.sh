#!/usr/bin/env bash
# Session 51, call 5 (ec2e4ac's bundle: a batch's warps borrow a reserve chunk first): the
# failed batch_gpu, the 19 binaries call 4 did not reach, then the GPU-heavy ones again
# as time allows (programs_gpu, language_gpu, storage_gpu, mixed_gpu, blocks_gpu).
set -uo pipefail
O=$OUT/c5; mkdir -p "$O"
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
LEFT="profile_gpu programs_cpu ptx_text random_cpu resident_cpu resident_gpu runtime_cpu runtime_gpu sass_lines search_cpu soak_gpu storage_cpu stuck_data_cpu stuck_gpu team_cpu trap_gpu uts_cpu fib smoke"
OUT=$O GTAP_FIRST="batch_gpu $LEFT storage_gpu" GTAP_ONLY="batch_gpu $LEFT storage_gpu programs_gpu" GTAP_DEADLINE_S=250 bash scripts/gpu-run.sh > "$O/run.log" 2>&1
echo "rc=$? $(date -u +%T)" >> "$O/gpu.txt"
tar -cJf "$OUT/c5.tar.xz" -C "$OUT" c5 2>/dev/null
cat "$O/gpu.txt"; grep -E "^== |test result|FAILED|NOT RUN|passed" "$O/run.log" | tail -60
