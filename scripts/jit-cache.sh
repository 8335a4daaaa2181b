# Sourced by the GPU scripts. The driver JIT-compiles gtap's PTX the first time a process
# loads it: about 30 s for the examples' PTX on the H100 machine (results/perf-notes.md,
# "JIT"). Its compute cache keeps the result so that later processes load it in under a
# second, but on the machines we use it was not effective (every process paid the 30 s; a
# sweep of one process per point looked hung). Give it a directory and room, unless the
# caller chose them.
#
# A GPU machine lent for one call starts with an empty cache. GTAP_JIT_CACHE_TAR names a
# tarball of an earlier machine's cache (made by `tar cJf X.txz -C "$CUDA_CACHE_PATH" .`,
# and carried), unpacked into the cache first: the driver uses its entries where the PTX,
# the driver version and the GPU's architecture match, and compiles the rest.
export CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-${TMPDIR:-/tmp}/gtap-cuda-cache}
export CUDA_CACHE_MAXSIZE=${CUDA_CACHE_MAXSIZE:-4294967296}
unset CUDA_CACHE_DISABLE
mkdir -p "$CUDA_CACHE_PATH"
if [ -n "${GTAP_JIT_CACHE_TAR:-}" ]; then
  if [ -f "$GTAP_JIT_CACHE_TAR" ]; then
    tar xf "$GTAP_JIT_CACHE_TAR" -C "$CUDA_CACHE_PATH" \
      || echo "jit-cache: could not unpack $GTAP_JIT_CACHE_TAR; the PTX is compiled anew" >&2
  else
    echo "jit-cache: GTAP_JIT_CACHE_TAR=$GTAP_JIT_CACHE_TAR is not a file; the PTX is compiled anew" >&2
  fi
fi
