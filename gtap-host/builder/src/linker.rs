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
//! crate's own objects, then the members of the rlibs with `--only-needed` (so only the parts
//! of `core` that are used come in), internalizes every symbol but the exported kernels,
//! optimizes at O3 and lowers to PTX with `llc`. It is a shell script rather than a Rust
//! program so that no second binary has to be built before the device crate can link.

use std::path::{Path, PathBuf};

use crate::BuildError;

/// Writes the link script into `dir` and returns its path.
pub fn write_link_script(dir: &Path, llvm_bin: &Path) -> Result<PathBuf, BuildError> {
    let path = dir.join("gtap-ptx-link.sh");
    let text = SCRIPT.replace("@LLVM_BIN@", &llvm_bin.display().to_string());
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
if [ -n "$members" ]; then
  "$B/llvm-link" "$tmp/crate.bc" --only-needed $members -o "$tmp/linked.bc"
else
  cp "$tmp/crate.bc" "$tmp/linked.bc"
fi
"$B/opt" -passes='internalize,default<O3>' --internalize-public-api-list="${exports#,}" \
  "$tmp/linked.bc" -o "$tmp/opt.bc"
"$B/llc" -O3 -mcpu="$cpu" -mattr="$feat" "$tmp/opt.bc" -o "$out"
"#;
