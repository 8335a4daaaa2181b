//! Which GPU the PTX is for: the `sm_XX` target and the PTX ISA version it needs.
//!
//! PTX is forward compatible: the driver JIT-compiles PTX for `sm_70` on any GPU of compute
//! capability 7.0 or newer. So the default is `sm_70` with PTX ISA 7.0, which runs on every
//! GPU from Volta on (the H100/H200 included). A newer target only pays off where the code
//! uses instructions that `sm_70` lacks, or to let `llc` schedule for the chip.

use core::fmt;
use core::str::FromStr;

use crate::BuildError;

/// A PTX target: an `sm_XX` name plus the PTX ISA version that goes with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CudaArch {
    /// Compute capability times ten, e.g. 90 for `sm_90`.
    sm: u32,
    /// Whether this is the architecture-specific `a` variant (`sm_90a`).
    arch_specific: bool,
}

/// Targets `llc` accepts, with the lowest PTX ISA version (times ten) that supports each.
/// The PTX ISA reference lists these pairs in its "PTX ISA versions" table.
const TARGETS: &[(u32, u32)] = &[
    (70, 70),
    (72, 70),
    (75, 70),
    (80, 70),
    (86, 71),
    (87, 74),
    (89, 78),
    (90, 78),
    (100, 86),
    (120, 87),
];

impl CudaArch {
    /// `sm_70`, PTX ISA 7.0: the default, JIT-compiled by the driver on every GPU from Volta on.
    pub const SM_70: CudaArch = CudaArch {
        sm: 70,
        arch_specific: false,
    };
    /// `sm_80` (A100).
    pub const SM_80: CudaArch = CudaArch {
        sm: 80,
        arch_specific: false,
    };
    /// `sm_90` (H100, H200, GH200).
    pub const SM_90: CudaArch = CudaArch {
        sm: 90,
        arch_specific: false,
    };

    /// The target name as `llc -mcpu` and the PTX `.target` directive spell it.
    pub fn name(self) -> String {
        format!(
            "sm_{}{}",
            self.sm,
            if self.arch_specific { "a" } else { "" }
        )
    }

    /// Compute capability as (major, minor): `sm_90` is (9, 0).
    pub fn compute_capability(self) -> (u32, u32) {
        (self.sm / 10, self.sm % 10)
    }

    /// The PTX ISA version feature for `llc`, e.g. `+ptx78`.
    pub fn ptx_feature(self) -> String {
        let base = TARGETS
            .iter()
            .find(|(sm, _)| *sm == self.sm)
            .map(|(_, ptx)| *ptx)
            .unwrap_or(78);
        // The `a` variants appeared with PTX ISA 8.0.
        let ptx = if self.arch_specific {
            base.max(80)
        } else {
            base
        };
        format!("+ptx{ptx}")
    }
}

impl Default for CudaArch {
    fn default() -> Self {
        CudaArch::SM_70
    }
}

impl fmt::Display for CudaArch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for CudaArch {
    type Err = BuildError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BuildError::BadArch {
            given: s.to_string(),
            known: TARGETS
                .iter()
                .map(|(sm, _)| format!("sm_{sm}"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let rest = s.trim().strip_prefix("sm_").ok_or_else(bad)?;
        let (digits, arch_specific) = match rest.strip_suffix('a') {
            Some(d) => (d, true),
            None => (rest, false),
        };
        let sm: u32 = digits.parse().map_err(|_| bad())?;
        if !TARGETS.iter().any(|(t, _)| *t == sm) || (arch_specific && sm < 90) {
            return Err(bad());
        }
        Ok(CudaArch { sm, arch_specific })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_runs_on_volta_and_later() {
        let a = CudaArch::default();
        assert_eq!(a.name(), "sm_70");
        assert_eq!(a.ptx_feature(), "+ptx70");
        assert_eq!(a.compute_capability(), (7, 0));
    }

    #[test]
    fn parses_hopper_targets() {
        let a: CudaArch = "sm_90".parse().unwrap();
        assert_eq!(a, CudaArch::SM_90);
        assert_eq!(a.ptx_feature(), "+ptx78");
        let b: CudaArch = "sm_90a".parse().unwrap();
        assert_eq!(b.name(), "sm_90a");
        assert_eq!(b.ptx_feature(), "+ptx80");
    }

    #[test]
    fn rejects_unknown_targets_and_lists_known_ones() {
        for bad in ["sm_35", "90", "sm_9x", "sm_80a", "compute_90"] {
            let err = bad.parse::<CudaArch>().unwrap_err().to_string();
            assert!(err.contains(bad), "{err}");
            assert!(err.contains("sm_90"), "{err}");
        }
    }
}
