//! `#[derive(Plain)]`: `unsafe impl gtap::Plain` for a struct that checks every condition of
//! the trait at compile time, so that user code needs no `unsafe` for its element types.
//!
//! ```text
//! // Input:                              // Output:
//! #[derive(Plain)]                       const _: () = {
//! #[repr(C)]                                 ::gtap::__private::assert_plain::<u32>();   // per field, at its type
//! struct Item { w: u32, v: u32 }             assert!(size_of::<Item>() == 0 + size_of::<u32>() + size_of::<u32>(), "..padding..");
//!                                        };
//!                                        unsafe impl ::gtap::Plain for Item {}
//! ```

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

/// The derive's output for `input`, or errors at the offending tokens.
pub fn derive(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    match expand(&input) {
        Ok(out) => out,
        Err(e) => e.to_compile_error(),
    }
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new(
            name.span(),
            "#[derive(Plain)] is for structs: an enum's tag or a union's fields can hold bytes \
             that are not a value",
        ));
    };
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "#[derive(Plain)] is for structs without generic parameters",
        ));
    }
    let repr_ok = input.attrs.iter().any(|a| {
        a.path().is_ident("repr")
            && a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|r| r.iter().any(|i| i == "C" || i == "transparent"))
    });
    if !repr_ok {
        return Err(syn::Error::new(
            name.span(),
            "#[derive(Plain)] needs #[repr(C)] (or #[repr(transparent)]): the host and the GPU \
             must lay the struct out the same way",
        ));
    }
    let types: Vec<_> = match &data.fields {
        Fields::Named(f) => f.named.iter().map(|f| &f.ty).collect(),
        Fields::Unnamed(f) => f.unnamed.iter().map(|f| &f.ty).collect(),
        Fields::Unit => Vec::new(),
    };
    let field_checks = types.iter().map(|t| {
        quote_spanned! {t.span()=> ::gtap::__private::assert_plain::<#t>(); }
    });
    let msg = format!(
        "gtap: #[derive(Plain)] on `{name}`: the struct has padding bytes, which are not values; \
         reorder its fields from the largest alignment down, or add explicit padding fields"
    );
    Ok(quote! {
        const _: () = {
            #( #field_checks )*
            ::core::assert!(
                ::core::mem::size_of::<#name>() == 0 #( + ::core::mem::size_of::<#types>() )*,
                #msg
            );
        };
        // SAFETY: `#[repr(C)]` or `#[repr(transparent)]` (checked above), every field is
        // `Plain` and there is no padding (both checked at compile time above).
        unsafe impl ::gtap::Plain for #name {}
    })
}
