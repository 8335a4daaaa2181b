#!/usr/bin/env bash
# Builds every test binary and example in release mode into .gpu-bin/ (git-ignored), so that
# they can run on a GPU machine that has no Rust: see scripts/gpu-run.sh and the README.
# Usage: scripts/gpu-build.sh            (PTX for sm_70, JIT-compiled by the driver)
#        GTAP_CUDA_ARCH=sm_90 scripts/gpu-build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rustup toolchain install >/dev/null
rm -rf .gpu-bin && mkdir -p .gpu-bin/tests .gpu-bin/examples
# Test binaries: every integration and unit test of the workspace, but those that need cargo
# or rustc (below), which run in CI.
cargo test --workspace --release --no-run --message-format=json 2>/dev/null \
  | grep -o '"executable":"[^"]*"' | sed 's/"executable":"//; s/"$//' | sort -u \
  | while read -r exe; do
      name=$(basename "$exe")
      case "$exe" in */examples/*) continue ;; esac
      # Tests that run cargo or rustc (trybuild, the builder's set-up checks and toolchain
      # pin, the template crate) run in CI: the GPU machine has no Rust. So does the test of
      # the suite script on stub binaries (gpu_scripts): the GPU machine runs the real suite.
      case "$name" in compiletest-*|template-*|setup-*|wrong_toolchain-*|gtap_builder-*|gpu_scripts-*) continue ;; esac
      # gtap-plot: its binary, its unit tests and its command-line tests (which run the binary
      # from cargo's build layout); none of them is about the GPU.
      case "$exe" in */deps/gtap_plot-*|*/deps/gtap_plot_cli-*|*/gtap-plot) continue ;; esac
      # Proc-macro test binaries link the toolchain's libstd .so, which the GPU machine lacks.
      if ldd "$exe" 2>/dev/null | grep -q 'libstd-'; then continue; fi
      # Debug info would take the folder past the GPU machine's 64 MiB transfer limit.
      objcopy --strip-debug "$exe" ".gpu-bin/tests/$name"
    done
cargo build --release -p gtap-examples --examples
for e in $(find target/release/examples -maxdepth 1 -type f -executable ! -name '*-*'); do
  objcopy --strip-debug "$e" ".gpu-bin/examples/$(basename "$e")"
done
# The plot tool, for the charts scripts/side-by-side.sh draws where the benchmarks ran.
cargo build --release -p gtap-plot
objcopy --strip-debug target/release/gtap-plot .gpu-bin/gtap-plot
cp scripts/gpu-run.sh scripts/gpu-sanitize.sh scripts/gpu-soak.sh .gpu-bin/
# The commit these binaries are built from, for records made where there is no git history
# (scripts/side-by-side.sh reads it); "-dirty" when tracked files differ from it.
echo "$(git rev-parse HEAD)$(git diff --quiet HEAD -- || echo -dirty)" >.gpu-bin/COMMIT
# The same, as one compressed file: the device tool carries at most 64 MiB with the working
# tree. There: tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
# Level 9: its 64 MiB dictionary spans several of the test binaries, which share most of
# their code (the runtime and the programs' PTX), so the bundle is about a third of level
# 6's (11 against 32 MB for 48 binaries), at about two minutes on two cores; at level 6 the
# bundle and the tree together no longer fit.
tar -C .gpu-bin -cf - tests examples gtap-plot gpu-run.sh gpu-sanitize.sh gpu-soak.sh COMMIT | xz -T2 -9 >.gpu-bin/bundle.tar.xz
echo "built into .gpu-bin:"
ls .gpu-bin/tests .gpu-bin/examples
du -sh .gpu-bin .gpu-bin/bundle.tar.xz
