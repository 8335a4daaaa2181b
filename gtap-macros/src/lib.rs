//! gtap's task-language macros.
//!
//! ```ignore
//! #[gtap::program]
//! pub mod fib {
//!     use gtap::prelude::*;
//!
//!     #[gtap::task]
//!     pub fn fib(n: u32) -> u64 {
//!         if n < 2 {
//!             return n as u64;
//!         }
//!         let a = spawn!(fib(n - 1));
//!         let b = spawn!(fib(n - 2));
//!         taskwait!();
//!         a.get() + b.get()
//!     }
//! }
//! ```
//!
//! `#[gtap::program]` sees every task of the module at once, which is what lets it build one
//! task enum with static dispatch. It works in stages, each in its own files:
//!
//! | stage | file | what |
//! |---|---|---|
//! | parse | `ast.rs`, `attr.rs`, `syntax.rs` | the module, its options, the `spawn!`/`taskwait!`/`slots!` forms |
//! | check | `valid.rs` | task signatures: what cannot cross to a child or into a record |
//! | lower | `lower.rs` | each body: `taskwait!()` to `yield`, handles and their scopes |
//! | lifetimes | `lifetimes.rs` | the one lifetime a task's borrowed arguments share, `'task` |
//! | expand | `expand.rs`, `locals.rs`, `seq.rs` | frames (with the arguments read before the first taskwait copied into locals), the task enum, the `Program` impl, size checks, each thread task's sequential version (`seq::f`) |
//!
//! `#[derive(Plain)]` (`plain.rs`) checks a struct for `gtap::Plain` and implements it.
//!
//! On an error the macro still emits the module (best effort) plus `compile_error!`s pointing
//! at the user's tokens, so one mistake does not cascade into many.

mod ast;
mod attr;
mod expand;
mod lifetimes;
mod locals;
mod lower;
mod plain;
mod seq;
mod seq_fixed;
mod seq_sum;
mod split;
mod syntax;
mod valid;

use proc_macro::TokenStream;

/// Makes an inline module a task program: every `#[gtap::task]` fn inside becomes a task.
/// Options: `max_frame_bytes = N` (default 512), `max_children = N` (default 256).
#[proc_macro_attribute]
pub fn program(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::program(attr.into(), item.into()).into()
}

/// Marks a task inside a `#[gtap::program]` module. On its own it is an error. Options:
/// `block` (a block task, run by a whole thread block) and `seq = path` (the function, taking
/// the task's arguments and returning its result, that is its sequential version instead of
/// the one generated from its body).
#[proc_macro_attribute]
pub fn task(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::stray_task(attr.into(), item.into()).into()
}

/// Spawns a child task; only inside a `#[gtap::task]` fn, where the program macro rewrites it.
#[proc_macro]
pub fn spawn(input: TokenStream) -> TokenStream {
    expand::stray_macro("spawn", input.into()).into()
}

/// Waits for the children spawned since the last taskwait; only inside a `#[gtap::task]` fn.
#[proc_macro]
pub fn taskwait(input: TokenStream) -> TokenStream {
    expand::stray_macro("taskwait", input.into()).into()
}

/// `unsafe impl gtap::Plain` for a `#[repr(C)]` struct of `Plain` fields without padding,
/// each condition checked at compile time: its values may then fill a `gtap::DeviceVec`.
///
/// ```ignore
/// #[derive(Clone, Copy, gtap::Plain)]
/// #[repr(C)]
/// pub struct Item {
///     pub weight: u32,
///     pub value: u32,
/// }
/// ```
#[proc_macro_derive(Plain)]
pub fn derive_plain(input: TokenStream) -> TokenStream {
    plain::derive(input.into()).into()
}

/// Storage for the results of a variable number of children; only inside a `#[gtap::task]` fn.
#[proc_macro]
pub fn slots(input: TokenStream) -> TokenStream {
    expand::stray_macro("slots", input.into()).into()
}
