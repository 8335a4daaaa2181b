//! What a crate root declares about itself: `#![no_std]` and `#![feature(..)]`, plain or
//! inside `#![cfg_attr(..)]`. Read from the tokens (comments and strings are not attributes),
//! without compiling anything.

use std::path::Path;
use std::str::FromStr;

use proc_macro2::{TokenStream, TokenTree};
use syn::Attribute;
use syn::parse::{ParseStream, Parser};

/// The crate-level attributes of one root file.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CrateAttrs {
    /// `no_std` appears, unconditionally or under some `cfg_attr`.
    pub no_std: bool,
    /// Every feature named in a `feature(..)`, unconditionally or under some `cfg_attr`.
    pub features: Vec<String>,
}

impl CrateAttrs {
    /// Reads the root file at `path`; `None` if it cannot be read or tokenized (the compiler
    /// will then say what is wrong with it).
    pub fn read(path: &Path) -> Option<CrateAttrs> {
        CrateAttrs::parse(&std::fs::read_to_string(path).ok()?)
    }

    /// The attributes of a crate root's source text.
    pub fn parse(source: &str) -> Option<CrateAttrs> {
        // A `#!` first line that is not `#![` is a shebang, which is not Rust.
        let source = match source.strip_prefix("#!") {
            Some(rest) if !rest.trim_start().starts_with('[') => {
                rest.split_once('\n').map_or("", |(_, tail)| tail)
            }
            _ => source,
        };
        let tokens = TokenStream::from_str(source).ok()?;
        let inner = |input: ParseStream| {
            let attrs = Attribute::parse_inner(input)?;
            input.parse::<TokenStream>()?;
            Ok(attrs)
        };
        let attrs = inner.parse2(tokens).ok()?;
        let mut out = CrateAttrs::default();
        for attr in &attrs {
            out.add(
                attr.meta.path().get_ident().map(|i| i.to_string()),
                &attr.meta,
            );
        }
        Some(out)
    }

    /// Records what one inner attribute (`no_std`, `feature(..)`, `cfg_attr(pred, ..)`)
    /// declares.
    fn add(&mut self, name: Option<String>, meta: &syn::Meta) {
        match (name.as_deref(), meta) {
            (Some("no_std"), _) => self.no_std = true,
            (Some("feature"), syn::Meta::List(list)) => self.features.extend(idents(&list.tokens)),
            (Some("cfg_attr"), syn::Meta::List(list)) => {
                // `cfg_attr(PREDICATE, ATTR, ATTR..)`: whatever the predicate, the attributes
                // after it count (the check is that they were written at all).
                let parsed =
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated
                        .parse2(list.tokens.clone());
                for m in parsed.into_iter().flatten().skip(1) {
                    self.add(m.path().get_ident().map(|i| i.to_string()), &m);
                }
            }
            _ => {}
        }
    }

    /// The names in `wanted` that no `feature(..)` declares.
    pub fn missing_features<'a>(&self, wanted: &[&'a str]) -> Vec<&'a str> {
        wanted
            .iter()
            .copied()
            .filter(|w| !self.features.iter().any(|f| f == w))
            .collect()
    }
}

/// The identifiers among `tokens` (a feature list: `a, b, c`).
fn idents(tokens: &TokenStream) -> Vec<String> {
    tokens
        .clone()
        .into_iter()
        .filter_map(|t| match t {
            TokenTree::Ident(i) => Some(i.to_string()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_no_std_and_features_plain_and_under_cfg_attr() {
        let a = CrateAttrs::parse(
            "//! Docs with #![no_std] in a comment do not count.\n\
             #![no_std]\n\
             #![feature(coroutines, coroutine_trait)]\n\
             #![cfg_attr(target_arch = \"nvptx64\", feature(abi_ptx), allow(unused))]\n\
             pub mod x;\n",
        )
        .unwrap();
        assert!(a.no_std);
        assert_eq!(a.features, ["coroutines", "coroutine_trait", "abi_ptx"]);
        assert_eq!(
            a.missing_features(&["coroutines", "type_alias_impl_trait", "abi_ptx"]),
            ["type_alias_impl_trait"]
        );
    }

    #[test]
    fn no_std_only_in_a_comment_or_string_is_not_no_std() {
        let a = CrateAttrs::parse(
            "// #![no_std]\n#![feature(coroutines)]\nconst S: &str = \"#![no_std]\";\n",
        )
        .unwrap();
        assert!(!a.no_std);
        let b = CrateAttrs::parse("#![cfg_attr(not(test), no_std)]\n").unwrap();
        assert!(b.no_std);
    }

    #[test]
    fn a_shebang_is_skipped_and_bad_tokens_give_none() {
        assert!(
            CrateAttrs::parse("#!/usr/bin/env run\n#![no_std]\n")
                .unwrap()
                .no_std
        );
        assert_eq!(CrateAttrs::parse("fn f() { \n"), None);
    }
}
