//! The project's own link step for `nvptx64-nvidia-cuda`.
//!
//! rustc links an nvptx cdylib by running a program named `llvm-bitcode-linker`, which rustup
//! does not ship for this target. Any program passed as `-C linker=...` receives the same
//! arguments instead, of this shape:
//!
//! ```text
//! --export-symbol <kernel>... <crate>.rcgu.o... <dep>.rlib... -L <dir> --target nvptx64-nvidia-cuda
//! --target-cpu sm_70 --target-feature=+ptx70 -L <dir> -o <out>.ptx -O3 [--debug]
//! ```
//!
//! Every object and every rlib member is LLVM bitcode. The script written here links the
//! crate's own objects and every member of the rlibs, internalizes every symbol but the
//! exported kernels, drops what is unreachable from them (so only the parts of `core` that are
//! used stay), optimizes at O3 and lowers to PTX with `llc`. It then checks that the PTX
//! declares no undefined (`.extern`) global or function, which the driver would reject. It is a shell script rather than a Rust
//! program so that no second binary has to be built before the device crate can link.

use std::path::{Path, PathBuf};

use crate::BuildError;

/// Writes the link script into `dir` and returns its path.
pub fn write_link_script(dir: &Path, llvm_bin: &Path) -> Result<PathBuf, BuildError> {
    let text = SCRIPT.replace("@LLVM_BIN@", &llvm_bin.display().to_string());
    // The script's content is in its name: rustc sees `-C linker=<path>`, so a changed link
    // step is a changed flag and every device crate is linked again with it.
    let path = dir.join(format!("gtap-ptx-link-{:016x}.sh", fnv1a(text.as_bytes())));
    let io = |what, source| BuildError::Io {
        what,
        path: path.clone(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| io("cannot create the folder of", e))?;
    // Rewrite only when it changed, so the file's timestamp does not trigger rebuilds.
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(&path, &text).map_err(|e| io("cannot write", e))?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| io("cannot make executable", e))?;
    }
    Ok(path)
}

/// FNV-1a, 64 bits: a stable hash for the script's file name.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

const SCRIPT: &str = r#"#!/bin/sh
# Written by gtap-builder: links rustc's nvptx bitcode into PTX. See gtap-host/builder/src/linker.rs.
set -eu
B='@LLVM_BIN@'
objs=""; libs=""; exports=""; out=""; cpu="sm_70"; feat="+ptx70"
while [ $# -gt 0 ]; do
  case "$1" in
    --export-symbol) exports="$exports,$2"; shift 2 ;;
    -o) out="$2"; shift 2 ;;
    -L|--target|-mllvm) shift 2 ;;
    --target-cpu) cpu="$2"; shift 2 ;;
    --target-feature=*) feat="${1#--target-feature=}"; shift ;;
    *.rlib) libs="$libs $1"; shift ;;
    *.o) objs="$objs $1"; shift ;;
    *) shift ;;
  esac
done
if [ -z "$out" ]; then echo "gtap-ptx-link: no -o argument" >&2; exit 2; fi
if [ -z "$exports" ]; then
  echo "gtap-ptx-link: the device crate exports no kernel: write at least one" >&2
  echo "  #[unsafe(no_mangle)] pub unsafe extern \"ptx-kernel\" fn ..." >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$B/llvm-link" $objs -o "$tmp/crate.bc"
members=""
for l in $libs; do
  d="$tmp/$(basename "$l")"; mkdir -p "$d"
  (cd "$d" && "$B/llvm-ar" x "$l")
  for m in "$d"/*.o; do [ -e "$m" ] && members="$members $m"; done
done
# Whole libraries, not `--only-needed`: llvm-link resolves `--only-needed` one file at a time,
# so a definition in a member linked before the member that needs it would be left out (an
# undefined `.extern` in the PTX). Internalizing and dead-global elimination drop what is unused.
if [ -n "$members" ]; then
  "$B/llvm-link" "$tmp/crate.bc" $members -o "$tmp/linked.bc"
else
  cp "$tmp/crate.bc" "$tmp/linked.bc"
fi
"$B/opt" -passes='internalize,globaldce,default<O3>' --internalize-public-api-list="${exports#,}" \
  "$tmp/linked.bc" -o "$tmp/opt.bc"
# -nvptx-fma-level=0: no fusing of a separate multiply and add into one FMA, which would
# change floating-point results from what Rust specifies (use `mul_add` for an FMA).
"$B/llc" -O3 -mcpu="$cpu" -mattr="$feat" -nvptx-fma-level=0 "$tmp/opt.bc" -o "$out"
if grep -n '^\.extern \.\(global\|func\)' "$out" >&2; then
  echo "gtap-ptx-link: the PTX above refers to symbols nothing defines (listed above); the driver" >&2
  echo "  would reject it. This is a bug in the link step: please report it." >&2
  rm -f "$out"
  exit 3
fi
"#;
