#!/usr/bin/env bash
# Registers per thread, stack frame and spills of every kernel in a PTX file, as `ptxas -v`
# reports them for one architecture: the figure that sets how many warps of a thread kernel
# fit on an SM (above 128 registers, 12 of the 16 the default grid aims at; above 168, 8).
#
# Usage: scripts/registers.sh [PTX] [ARCH]
#   PTX   default: the examples' PTX of the last release build
#         (target/release/build/gtap-examples-*/out/gtap_examples.ptx, the newest)
#   ARCH  default: sm_90
# ptxas: $PTXAS, else `ptxas` on PATH. A machine without CUDA can use the one in NVIDIA's
# `nvidia-cuda-nvcc` Python wheel (`pip download --no-deps "nvidia-cuda-nvcc==13.0.*"`, unzip,
# `nvidia/cu13/bin/ptxas`); the driver's JIT on the GPU machine gave the same counts for the
# examples' kernels (results/2026-11-27-queues-backoff-h100.md).
# Output: one line per kernel, sorted by name: name, registers, stack bytes, spill bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
ptx=${1:-$(ls -t target/release/build/gtap-examples-*/out/gtap_examples.ptx 2>/dev/null | head -1)}
arch=${2:-sm_90}
ptxas=${PTXAS:-ptxas}
if [ -z "$ptx" ] || [ ! -f "$ptx" ]; then
  echo "registers.sh: no PTX file (give one, or build: cargo build --release -p gtap-examples)" >&2
  exit 1
fi
if ! command -v "$ptxas" >/dev/null; then
  echo "registers.sh: no ptxas ($ptxas); set PTXAS (see the comment at the top of this script)" >&2
  exit 1
fi
"$ptxas" -arch="$arch" -v "$ptx" -o /dev/null 2>&1 | awk '
  /Compiling entry function/ { match($0, /\x27[A-Za-z0-9_]+\x27/); k = substr($0, RSTART + 1, RLENGTH - 2) }
  /Function properties for/ { p = ($0 ~ ("for " k "$")) }
  /bytes stack frame/ && p { stack = $1; spill = $5 }
  /Used [0-9]+ registers/ && k != "" {
    match($0, /Used [0-9]+/); regs = substr($0, RSTART + 5, RLENGTH - 5)
    printf "%-32s %4d registers  %5d stack bytes  %4d spill bytes\n", k, regs, stack, spill
    k = ""; p = 0
  }' | sort
