//! The options of `#[gtap::program(...)]`.

use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Lit, MetaNameValue, Token};

/// Valid option names, listed in error messages.
const KEYS: &str = "`name`, `max_frame_bytes`, `max_children`, `split`";

/// Program options, with their defaults.
pub struct Options {
    /// The program's name, for messages and for its GPU kernel's symbol (`gtap_<name>`);
    /// the module's name by default.
    pub name: Option<String>,
    /// Upper bound on any task frame's size; a larger frame is a compile error.
    pub max_frame_bytes: u64,
    /// Most children one task may spawn between two taskwaits.
    pub max_children: u64,
    /// Whether the tasks that qualify get a split task (`split.rs`): by default (`None`)
    /// they do; `split = true` also makes it an error that none qualifies, `split = false`
    /// gives none.
    pub split: Option<bool>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            name: None,
            max_frame_bytes: 512,
            max_children: 256,
            split: None,
        }
    }
}

impl Options {
    /// Parses `key = value, ...`, rejecting unknown and repeated keys.
    pub fn parse(attr: TokenStream) -> syn::Result<Options> {
        let mut opts = Options::default();
        let mut seen: Vec<(String, Span)> = Vec::new();
        let pairs = Punctuated::<MetaNameValue, Token![,]>::parse_terminated.parse2(attr)?;
        for pair in pairs {
            let key = pair
                .path
                .get_ident()
                .map(ToString::to_string)
                .ok_or_else(|| {
                    syn::Error::new_spanned(&pair.path, format!("expected one of {KEYS}"))
                })?;
            if seen.iter().any(|(k, _)| *k == key) {
                return Err(syn::Error::new_spanned(
                    &pair.path,
                    format!("`{key}` is given twice"),
                ));
            }
            seen.push((key.clone(), Span::call_site()));
            if key == "name" {
                opts.name = Some(identifier(&pair.value)?);
                continue;
            }
            if key == "split" {
                opts.split = Some(boolean(&pair.value, &key)?);
                continue;
            }
            let value = positive_int(&pair.value, &key)?;
            match key.as_str() {
                "max_frame_bytes" => opts.max_frame_bytes = value,
                "max_children" => {
                    if value > u64::from(u32::MAX) {
                        return Err(syn::Error::new_spanned(
                            &pair.value,
                            "`max_children` must fit in a u32",
                        ));
                    }
                    opts.max_children = value
                }
                _ => {
                    return Err(syn::Error::new_spanned(
                        &pair.path,
                        format!("unknown program option `{key}`; valid options are {KEYS}"),
                    ));
                }
            }
        }
        Ok(opts)
    }
}

fn boolean(value: &Expr, key: &str) -> syn::Result<bool> {
    if let Expr::Lit(ExprLit {
        lit: Lit::Bool(b), ..
    }) = value
    {
        return Ok(b.value);
    }
    Err(syn::Error::new_spanned(
        value,
        format!("`{key}` takes `true` or `false`"),
    ))
}

fn positive_int(value: &Expr, key: &str) -> syn::Result<u64> {
    if let Expr::Lit(ExprLit {
        lit: Lit::Int(int), ..
    }) = value
    {
        let v: u64 = int.base10_parse()?;
        if v > 0 {
            return Ok(v);
        }
    }
    Err(syn::Error::new_spanned(
        value,
        format!("`{key}` takes a positive integer literal"),
    ))
}

/// A string literal that is a valid identifier (it becomes part of a kernel symbol).
fn identifier(value: &Expr) -> syn::Result<String> {
    if let Expr::Lit(ExprLit {
        lit: Lit::Str(s), ..
    }) = value
    {
        let v = s.value();
        let mut chars = v.chars();
        if chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Ok(v);
        }
    }
    Err(syn::Error::new_spanned(
        value,
        "`name` takes a string of letters, digits and `_`, e.g. `name = \"fib\"`",
    ))
}
