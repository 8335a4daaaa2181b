# Sourced by the GPU scripts. The driver JIT-compiles gtap's PTX the first time a process
# loads it: about 30 s for the examples' PTX on the H100 machine (results/perf-notes.md,
# "JIT"). Its compute cache keeps the result so that later processes load it in under a
# second, but on the machines we use it was not effective (every process paid the 30 s; a
# sweep of one process per point looked hung). Give it a directory and room, unless the
# caller chose them.
export CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-${TMPDIR:-/tmp}/gtap-cuda-cache}
export CUDA_CACHE_MAXSIZE=${CUDA_CACHE_MAXSIZE:-4294967296}
unset CUDA_CACHE_DISABLE
mkdir -p "$CUDA_CACHE_PATH"
