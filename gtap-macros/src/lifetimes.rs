//! A task's argument lifetime: the one region that everything its parameters borrow lives
//! for.
//!
//! A task may take references and views (`&[T]`, `&mut [T]`, `View<'_, T>`), written with
//! elided lifetimes. The macro gives all of them one name, `'task`:
//!
//! ```text
//! // Input:                                 // Output:
//! fn sort(d: &mut [u32], v: View<'_, u8>)   fn __gtap_frame_sort<'task>(d: &'task mut [u32], v: View<'task, u8>) -> __GtapFrame_sort<'task>
//!                                           pub struct __GtapArgs_sort<'task> { d: &'task mut [u32], v: View<'task, u8>, .. }
//!                                           pub fn sort<'task>(d: &'task mut [u32], v: View<'task, u8>) -> Call<'task, Program, ()>
//!                                           enum Task { sort(__GtapFrame_sort<'static>), .. }   // stored: 'static
//! ```
//!
//! The body is type-checked once, in the frame fn, where `'task` is a lifetime parameter:
//! the body cannot assume anything about it beyond "longer than this task", so storing the
//! frame as `'static` afterwards (the task enum, the records) cannot let it keep a borrow
//! past its own completion. The task's `Call` carries `'task`, and whoever consumes the call
//! (a parent's `spawn!`, a runtime) keeps that borrow alive until the task is complete.
//!
//! Checks here, on the syntax: a parameter may name no lifetime but `'_` and `'static` (one
//! region for all; a task cannot be generic), and the view types must say `'_` (an elided
//! lifetime hidden in a path cannot be seen, and would make the arguments struct fail with a
//! less helpful message).

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{GenericArgument, Lifetime, PathArguments, Type, TypeBareFn, TypeReference};

/// The name of a task's argument lifetime, as it appears in the generated code (and in the
/// compiler's messages about what outlives it).
pub fn task_lifetime() -> Lifetime {
    Lifetime::new("'task", Span::call_site())
}

/// `ty` with every elided and anonymous (`'_`) lifetime named `lt`. Lifetimes inside
/// function-pointer types and `Fn(..)` sugar are theirs, not the task's, and stay.
pub fn name_elided(ty: &Type, lt: &Lifetime) -> Type {
    struct Namer<'a>(&'a Lifetime);
    impl VisitMut for Namer<'_> {
        fn visit_type_reference_mut(&mut self, r: &mut TypeReference) {
            match &r.lifetime {
                None => r.lifetime = Some(self.0.clone()),
                Some(l) if l.ident == "_" => r.lifetime = Some(self.0.clone()),
                Some(_) => {}
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
        fn visit_lifetime_mut(&mut self, l: &mut Lifetime) {
            if l.ident == "_" {
                *l = self.0.clone();
            }
        }
        fn visit_type_bare_fn_mut(&mut self, _: &mut TypeBareFn) {}
        fn visit_path_arguments_mut(&mut self, args: &mut PathArguments) {
            if let PathArguments::AngleBracketed(_) = args {
                syn::visit_mut::visit_path_arguments_mut(self, args);
            }
        }
    }
    let mut ty = ty.clone();
    Namer(lt).visit_type_mut(&mut ty);
    ty
}

/// Whether `ty` borrows: it holds a reference that is not `&'static`, or names `'_`.
pub fn borrows(ty: &Type) -> bool {
    let named = name_elided(ty, &task_lifetime());
    struct Finds(bool);
    impl<'ast> Visit<'ast> for Finds {
        fn visit_lifetime(&mut self, l: &'ast Lifetime) {
            self.0 |= l.ident == "task";
        }
    }
    let mut f = Finds(false);
    f.visit_type(&named);
    f.0
}

/// The view types whose lifetime must be written (`View<'_, T>`): their name, if `ty` holds
/// one without a lifetime argument.
const VIEWS: &[&str] = &["View", "ViewMut", "AtomicView"];

/// Problems with the lifetimes a parameter type names: named ones other than `'static`, and
/// views without their `'_`.
pub fn check_param(ty: &Type) -> Option<syn::Error> {
    struct Check(Option<syn::Error>);
    impl<'ast> Visit<'ast> for Check {
        fn visit_lifetime(&mut self, l: &'ast Lifetime) {
            if l.ident != "_" && l.ident != "static" && self.0.is_none() {
                self.0 = Some(syn::Error::new(
                    l.span(),
                    format!(
                        "a task parameter cannot name the lifetime `{l}`: write `&T`, `&mut T` or \
                         `View<'_, T>`. Everything a task's arguments borrow lives for one region, \
                         until the `taskwait!()` that joins the task"
                    ),
                ));
            }
        }
        fn visit_type_bare_fn(&mut self, _: &'ast TypeBareFn) {}
        fn visit_path_segment(&mut self, seg: &'ast syn::PathSegment) {
            let name = seg.ident.to_string();
            if VIEWS.contains(&name.as_str()) && self.0.is_none() {
                let has_lifetime = match &seg.arguments {
                    PathArguments::AngleBracketed(a) => a
                        .args
                        .iter()
                        .any(|g| matches!(g, GenericArgument::Lifetime(_))),
                    _ => false,
                };
                if !has_lifetime {
                    self.0 = Some(syn::Error::new(
                        seg.span(),
                        format!(
                            "write the view's lifetime: `{name}<'_, T>` (a task's arguments \
                             borrow until the `taskwait!()` that joins it)"
                        ),
                    ));
                }
            }
            syn::visit::visit_path_segment(self, seg);
        }
    }
    let mut c = Check(None);
    c.visit_type(ty);
    c.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn named(ty: &str) -> String {
        let ty: Type = syn::parse_str(ty).unwrap();
        name_elided(&ty, &task_lifetime())
            .to_token_stream()
            .to_string()
            .replace(' ', "")
    }

    #[test]
    fn elided_and_anonymous_lifetimes_become_the_task_lifetime() {
        assert_eq!(named("&mut [u32]"), "&'taskmut[u32]");
        assert_eq!(named("View<'_, u8>"), "View<'task,u8>");
        assert_eq!(named("(&u32, &'static str)"), "(&'tasku32,&'staticstr)");
        assert_eq!(named("fn(&u32) -> u32"), "fn(&u32)->u32");
        assert_eq!(named("u64"), "u64");
    }

    #[test]
    fn borrowing_types() {
        for (ty, b) in [
            ("&[u32]", true),
            ("View<'_, u32>", true),
            ("&'static [u32]", false),
            ("u32", false),
            ("fn(&u32)", false),
        ] {
            let ty: Type = syn::parse_str(ty).unwrap();
            assert_eq!(borrows(&ty), b, "{}", ty.to_token_stream());
        }
    }

    #[test]
    fn named_lifetimes_and_bare_views_are_refused() {
        for ty in ["&'a [u32]", "View<u32>", "Option<ViewMut<u8>>"] {
            let ty: Type = syn::parse_str(ty).unwrap();
            assert!(check_param(&ty).is_some(), "{}", ty.to_token_stream());
        }
        for ty in ["&[u32]", "gtap::View<'_, u32>", "&'static str", "u32"] {
            let ty: Type = syn::parse_str(ty).unwrap();
            assert!(check_param(&ty).is_none(), "{}", ty.to_token_stream());
        }
    }
}
