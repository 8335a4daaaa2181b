//! Reading what the host needs from PTX text before the driver sees it: the `.target`
//! architecture (to refuse PTX built for a newer GPU with a clear message) and the `.entry`
//! names (to list the kernels a module has).
//!
//! This is no PTX parser: it skips comments and quoted strings, then looks at the token after
//! each `.target` and `.entry` directive. That is enough for the PTX that LLVM and `nvcc` emit.

use std::fmt;

/// A PTX `.target` architecture such as `sm_90` or `sm_90a`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PtxTarget {
    /// The number after `sm_`: 70, 86, 90, 100, 120, ...
    pub number: u32,
    /// `a` (architecture-specific: runs only on exactly this GPU) or `f` (family-specific).
    pub suffix: Option<char>,
}

impl PtxTarget {
    /// Parses `sm_<digits>` with an optional `a` or `f` suffix. Anything else is `None`.
    pub fn parse(text: &str) -> Option<PtxTarget> {
        let rest = text.strip_prefix("sm_")?;
        let digits_end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (digits, tail) = rest.split_at(digits_end);
        if digits.len() < 2 {
            return None;
        }
        let suffix = match tail {
            "" => None,
            "a" => Some('a'),
            "f" => Some('f'),
            _ => return None,
        };
        Some(PtxTarget {
            number: digits.parse().ok()?,
            suffix,
        })
    }

    /// The compute capability this target needs: `sm_86` is (8, 6), `sm_120` is (12, 0).
    pub fn compute_capability(&self) -> (u32, u32) {
        (self.number / 10, self.number % 10)
    }

    /// Whether this target is newer than a GPU of compute capability `device`, so that the
    /// driver cannot run it there. (An `a` target on a *different* GPU of the same or older
    /// generation also fails; the driver's JIT reports that.)
    pub fn is_newer_than(&self, device: (u32, u32)) -> bool {
        self.compute_capability() > device
    }
}

impl fmt::Display for PtxTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm_{}", self.number)?;
        match self.suffix {
            Some(s) => write!(f, "{s}"),
            None => Ok(()),
        }
    }
}

/// The `sm_XX` name of a compute capability: (9, 0) is `sm_90`, (12, 0) is `sm_120`.
pub fn sm_name(compute_capability: (u32, u32)) -> String {
    format!("sm_{}{}", compute_capability.0, compute_capability.1)
}

/// The text after the first `.target` directive, e.g. `sm_90a` (options such as `, debug`
/// left off), or `None` when there is none.
pub fn target(ptx: &str) -> Option<String> {
    directive_operands(ptx, ".target").next()
}

/// The names of the kernels (`.entry` directives), in the order they appear.
pub fn entries(ptx: &str) -> Vec<String> {
    directive_operands(ptx, ".entry").collect()
}

/// The identifier after each occurrence of the whole token `directive`, outside comments.
fn directive_operands<'a>(ptx: &str, directive: &'a str) -> impl Iterator<Item = String> + 'a {
    let code = strip_comments(ptx);
    let mut found = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(directive) {
        let before_ok = rest[..at]
            .chars()
            .next_back()
            .is_none_or(char::is_whitespace);
        let after = &rest[at + directive.len()..];
        if before_ok && after.starts_with(char::is_whitespace) {
            let name: String = after
                .trim_start()
                .chars()
                .take_while(|&c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '%')
                .collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
        rest = after;
    }
    found.into_iter()
}

/// `ptx` with `//` and `/* */` comments replaced by a space; quoted strings (`.file` paths)
/// are kept as they are, so a `//` inside one starts no comment.
fn strip_comments(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    let mut chars = ptx.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('"', _) => {
                out.push('"');
                for q in chars.by_ref() {
                    out.push(q);
                    if q == '"' {
                        break;
                    }
                }
            }
            ('/', Some('/')) => {
                out.push(' ');
                for q in chars.by_ref() {
                    if q == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                out.push(' ');
                let mut prev = ' ';
                for q in chars.by_ref() {
                    if prev == '*' && q == '/' {
                        break;
                    }
                    prev = q;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LLVM_STYLE: &str = r#"//
// Generated by LLVM NVPTX Back-End
//

.version 7.0
.target sm_70
.address_size 64

	// .globl	add                     // -- Begin function add
.file 1 "/src/kernels//lib.rs"
                                        // @add
.visible .entry add(
	.param .u64 add_param_0
)
{
	ret;
}
/* .entry hidden( */
.visible .func helper()
{
	ret;
}
.weak .entry _ZN7kernels4walk17h0123456789abcdefE  (
	.param .u32 p
)
{
	ret;
}
"#;

    #[test]
    fn finds_target_and_entries_outside_comments() {
        assert_eq!(target(LLVM_STYLE).as_deref(), Some("sm_70"));
        assert_eq!(
            entries(LLVM_STYLE),
            ["add", "_ZN7kernels4walk17h0123456789abcdefE"]
        );
    }

    #[test]
    fn target_options_and_missing_target() {
        assert_eq!(
            target(".version 8.0\n.target sm_90a, debug\n").as_deref(),
            Some("sm_90a")
        );
        assert_eq!(
            target(".version 8.0\n.target\tsm_80,texmode_independent\n").as_deref(),
            Some("sm_80")
        );
        assert_eq!(
            target(".version 8.0\n// .target sm_90\n.entry k() { ret; }"),
            None
        );
        assert_eq!(target(""), None);
        // `.targetx` is no `.target` directive.
        assert_eq!(target(".targetx sm_90\n"), None);
    }

    #[test]
    fn parses_sm_names() {
        assert_eq!(
            PtxTarget::parse("sm_70"),
            Some(PtxTarget {
                number: 70,
                suffix: None
            })
        );
        assert_eq!(
            PtxTarget::parse("sm_90a"),
            Some(PtxTarget {
                number: 90,
                suffix: Some('a')
            })
        );
        assert_eq!(
            PtxTarget::parse("sm_100f"),
            Some(PtxTarget {
                number: 100,
                suffix: Some('f')
            })
        );
        assert_eq!(
            PtxTarget::parse("sm_120").map(|t| t.compute_capability()),
            Some((12, 0))
        );
        assert_eq!(
            PtxTarget::parse("sm_86").map(|t| t.compute_capability()),
            Some((8, 6))
        );
        for bad in ["compute_90", "sm_", "sm_9", "sm_90x", "sm_90ab", "90"] {
            assert_eq!(PtxTarget::parse(bad), None, "{bad}");
        }
        for name in ["sm_70", "sm_90a", "sm_100f"] {
            assert_eq!(PtxTarget::parse(name).unwrap().to_string(), name);
        }
    }

    #[test]
    fn newer_targets_are_refused_older_ones_run() {
        let t = |s| PtxTarget::parse(s).unwrap();
        assert!(t("sm_90").is_newer_than((8, 6)));
        assert!(t("sm_89").is_newer_than((8, 6)));
        assert!(t("sm_100").is_newer_than((9, 0)));
        assert!(t("sm_120").is_newer_than((10, 0)));
        assert!(!t("sm_86").is_newer_than((8, 6)));
        assert!(!t("sm_80").is_newer_than((8, 6)));
        assert!(!t("sm_70").is_newer_than((9, 0)));
        assert!(!t("sm_90a").is_newer_than((9, 0)));
        assert!(!t("sm_90").is_newer_than((12, 0)));
    }

    #[test]
    fn sm_names_of_compute_capabilities() {
        assert_eq!(sm_name((9, 0)), "sm_90");
        assert_eq!(sm_name((8, 6)), "sm_86");
        assert_eq!(sm_name((12, 0)), "sm_120");
    }
}
