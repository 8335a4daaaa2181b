#!/usr/bin/env bash
# Source lines for ncu's SASS of the examples' kernels, which has none: the device code is
# built and JIT-compiled without line information, and nearly all of a kernel is inlined.
# This builds the examples' device crate once more with line tables (GTAP_PTX_LINES=1, in a
# target directory of its own: the same instructions as the plain build, each with a `.loc`
# whose comment names its inlining chain), compiles each KERNEL with `ptxas -lineinfo`
# and disassembles it with line numbers. scripts/sass-lines.py then charges the samples of
# ncu's page of the plain kernel (scripts/ncu-source.sh) to source lines with them.
#
# Usage (no GPU needed; here or on the GPU machine), from the checkout whose code was profiled
# (the script builds the tree it is in; LINES_TARGET_DIR, default target/lines, is where):
#   scripts/line-info.sh OUT_DIR KERNEL...      e.g. scripts/line-info.sh lines gtap_fib
# Writes OUT_DIR/KERNEL.sass (nvdisasm -g), OUT_DIR/KERNEL.chains.json.xz (each source
# line's inlining chains, per function) and OUT_DIR/commit.txt (the sources' commit).
# PTXAS and NVDISASM name the tools (default: on PATH). GTAP_CUDA_ARCH as for the plain
# build (the bench's PTX is the default, sm_70); SASS_ARCH (default sm_90) is the GPU whose
# code ptxas makes, which must be the profiled GPU's.
# The JIT compiler of the GPU's driver and this ptxas may schedule a few instructions
# differently; sass-lines.py matches the two listings by opcode and says how many it matched.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,20p' "$0" >&2
  exit 2
fi
out=$1
shift
ptxas=${PTXAS:-ptxas}
nvdisasm=${NVDISASM:-nvdisasm}
arch=${SASS_ARCH:-sm_90}
for tool in "$ptxas" "$nvdisasm"; do
  command -v "$tool" >/dev/null || { echo "line-info: no $tool (set PTXAS / NVDISASM)" >&2; exit 1; }
done
root=$(cd "$(dirname "$0")/.." && pwd)
target=${LINES_TARGET_DIR:-$root/target/lines}
mkdir -p "$out"
# `cargo check` runs the examples' build script, which builds the PTX; nothing else is needed.
(cd "$root" && GTAP_PTX_LINES=1 CARGO_TARGET_DIR=$target cargo check --release -q -p gtap-examples)
ptx=$(ls -t "$target"/release/build/gtap-examples-*/out/gtap_examples.ptx | head -1)
# A `.target ..., debug` module is compiled for the debugger; the line tables stay without it.
plain=$(mktemp --suffix=.ptx)
trap 'rm -f "$plain"' EXIT
sed -E '0,/^\.target /s/^(\.target [a-z_0-9]+), debug$/\1/' "$ptx" >"$plain"
# The sources' commit, `-dirty` when the tree differs from it (sass-lines.py shows the lines'
# text from that commit, or from the working tree when dirty).
{
  git -C "$root" rev-parse --short HEAD | tr -d '\n'
  git -C "$root" diff --quiet HEAD -- gtap-device examples gtap-macros || printf -- -dirty
  echo
} >"$out/commit.txt" 2>/dev/null || true
for kernel in "$@"; do
  cubin="$out/$kernel.cubin"
  "$ptxas" -arch="$arch" -lineinfo -e "$kernel" "$plain" -o "$cubin"
  "$nvdisasm" -g -c "$cubin" >"$out/$kernel.sass"
  rm -f "$cubin"
  python3 "$root/scripts/sass-lines.py" --chains "$plain" "$out/$kernel.sass" \
    | xz >"$out/$kernel.chains.json.xz"
  echo "written: $out/$kernel.sass, $out/$kernel.chains.json.xz" >&2
done
