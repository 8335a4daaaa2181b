//! Checks on a task's signature: what a child's arguments and a task's frame may hold.
//!
//! Arguments are moved into the child's record when it is spawned, and the child may run on
//! another thread (on the GPU, another SM) while the parent goes on. A task may take
//! references and views, which borrow until the taskwait that joins it (see `lifetimes`), but
//! it cannot name lifetimes of its own or return a borrow, cannot be generic (the program is
//! one enum), and cannot be `async`, `const` or have a receiver.

use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{FnArg, ItemFn, Pat, ReturnType, Type};

use crate::lifetimes;

/// Returns every problem found (empty when the signature is fine).
pub fn check_signature(f: &ItemFn) -> Vec<syn::Error> {
    let mut errs = Vec::new();
    let sig = &f.sig;
    let name = &sig.ident;
    if let Some(t) = &sig.asyncness {
        errs.push(syn::Error::new(
            t.span(),
            format!("task `{name}` cannot be `async`: tasks suspend at `taskwait!()` instead of `.await`"),
        ));
    }
    if let Some(t) = &sig.constness {
        errs.push(syn::Error::new(
            t.span(),
            format!("task `{name}` cannot be `const`"),
        ));
    }
    if let Some(t) = &sig.unsafety {
        errs.push(syn::Error::new(
            t.span(),
            format!("task `{name}` cannot be `unsafe fn`; use `unsafe {{}}` blocks inside it"),
        ));
    }
    if let Some(abi) = &sig.abi {
        errs.push(syn::Error::new_spanned(
            abi,
            format!("task `{name}` cannot have an ABI"),
        ));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errs.push(syn::Error::new_spanned(
            &sig.generics,
            format!(
                "task `{name}` cannot be generic: a program's tasks form one enum of concrete frames; \
                 write one task per type you need"
            ),
        ));
    }
    if let Some(v) = &sig.variadic {
        errs.push(syn::Error::new_spanned(v, "tasks cannot be variadic"));
    }
    for arg in &sig.inputs {
        match arg {
            FnArg::Receiver(r) => errs.push(syn::Error::new_spanned(
                r,
                format!("task `{name}` cannot take `self`: tasks are free functions of the program module"),
            )),
            FnArg::Typed(pt) => {
                if !matches!(&*pt.pat, Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none()) {
                    errs.push(syn::Error::new_spanned(
                        &pt.pat,
                        "task parameters must be plain names (`x: T` or `mut x: T`); destructure inside the body",
                    ));
                }
                if let Some(e) = impl_trait(&pt.ty).or_else(|| lifetimes::check_param(&pt.ty)) {
                    errs.push(e);
                }
            }
        }
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && let Some(e) = impl_trait(ty).or_else(|| borrowed_result(ty))
    {
        errs.push(e);
    }
    errs
}

/// An `impl Trait` in a parameter or result type.
fn impl_trait(ty: &Type) -> Option<syn::Error> {
    struct Finder(Option<syn::Error>);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_type_impl_trait(&mut self, t: &'ast syn::TypeImplTrait) {
            if self.0.is_none() {
                self.0 = Some(syn::Error::new_spanned(
                    t,
                    "task parameters and results cannot be `impl Trait`",
                ));
            }
        }
    }
    let mut f = Finder(None);
    f.visit_type(ty);
    f.0
}

/// A borrow in a result type: any lifetime but `'static`, elided ones included.
fn borrowed_result(ty: &Type) -> Option<syn::Error> {
    struct Finder(Option<syn::Error>);
    impl Finder {
        fn found(&mut self, span: proc_macro2::Span) {
            if self.0.is_none() {
                self.0 = Some(syn::Error::new(
                    span,
                    "a task cannot return a borrow: its result is written into its parent's frame \
                     and outlives what the task borrowed. Return values; what a child borrowed \
                     (a `&mut [T]`, a `ViewMut`) is its parent's again after the taskwait",
                ));
            }
        }
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_type_reference(&mut self, r: &'ast syn::TypeReference) {
            if !r.lifetime.as_ref().is_some_and(|l| l.ident == "static") {
                self.found(r.span());
            }
            syn::visit::visit_type_reference(self, r);
        }
        fn visit_lifetime(&mut self, l: &'ast syn::Lifetime) {
            if l.ident != "static" {
                self.found(l.span());
            }
        }
        fn visit_type_bare_fn(&mut self, _: &'ast syn::TypeBareFn) {}
    }
    let mut f = Finder(None);
    f.visit_type(ty);
    // A view with its lifetime elided in the path borrows too.
    if lifetimes::check_param(ty).is_some() {
        f.found(ty.span());
    }
    f.0
}

/// A block task's first parameter must be its `Block` handle: `fn f(b: Block, ..)`.
pub fn check_block_param(f: &ItemFn) -> Result<(), syn::Error> {
    let name = &f.sig.ident;
    let is_block = f.sig.inputs.first().is_some_and(|a| match a {
        FnArg::Typed(pt) => match &*pt.ty {
            Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Block"),
            _ => false,
        },
        FnArg::Receiver(_) => false,
    });
    if is_block {
        Ok(())
    } else {
        Err(syn::Error::new(
            f.sig.paren_token.span.join(),
            format!(
                "block task `{name}` takes its `gtap::Block` handle first: \
                 `fn {name}(block: Block, ..)` (the handle is not an argument of its calls)"
            ),
        ))
    }
}

/// A thread task takes an exclusive view as `ViewMut`: `TeamMut` is how each thread of a
/// block task holds one (only `#[gtap::task(block)]` converts it).
pub fn check_no_team_views(f: &ItemFn) -> Vec<syn::Error> {
    let name = &f.sig.ident;
    f.sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            FnArg::Typed(pt) => match &*pt.ty {
                Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "TeamMut") => {
                    Some(syn::Error::new_spanned(
                        &pt.ty,
                        format!(
                            "thread task `{name}` takes an exclusive view as `ViewMut`: \
                             `TeamMut` is a block task's parameter, of which each thread of \
                             the team reaches its own share"
                        ),
                    ))
                }
                _ => None,
            },
            FnArg::Receiver(_) => None,
        })
        .collect()
}
