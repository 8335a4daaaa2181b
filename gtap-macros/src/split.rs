//! Each summing task's split task: the hidden task a runtime starts instead of it when the
//! granularity policy splits by a budget of work (`gtap_device::task::split`). Every
//! program's qualifying tasks get one unless it says `#[gtap::program(split = false)]`;
//! `split = true` makes it an error that none qualifies.
//!
//! ```text
//! // Input:                              // Output (inside the same module), simplified:
//! #[gtap::task]                          #[gtap::task] // hidden, named "fib (split)" in statistics
//! pub fn fib(n: u32) -> u64 {            fn __gtap_split_fib(n: u32, __gtap_budget: u32) -> u64 {
//!     if n < 2 { return n as u64; }          let kids = slots!(u64; 32);
//!     let a = spawn!(fib(n - 1));            let walked = {
//!     let b = spawn!(fib(n - 2));                let mut buffer = split_buffer();
//!     taskwait!();                               let (sum, ran, mut pending) = __gtap_seqw_fib(n, __gtap_budget, &mut buffer);
//!     a.get() + b.get()                          split_count_walked(ctx, ran);
//! }                                              while let Some((n,)) = pending.take_oldest() {
//!                                                    spawn!(into kids, task, __gtap_split_fib(n, next_budget(..)));
//!                                                }
//!                                                sum
//!                                            };
//!                                            taskwait!();
//!                                            walked + kids.iter().sum::<u64>()
//!                                        }
//!                                        // The walk (inlined): the summing loop (`seq_sum`) over
//!                                        // at most `budget` bodies, each spawn site keeping its child
//!                                        // in a variable put on the stack after the body; its
//!                                        // pending calls left in the buffer.
//!                                        fn __gtap_seqw_fib(n: u32, __gtap_budget: u32, buffer: &mut SplitBuffer<(u32,)>) -> (u64, u32, SplitPending<(u32,)>) { .. }
//!                                        // and in `impl Program`: SPLITS = true, split(Args::fib(a), b) = Args::__gtap_split_fib(..);
//!                                        // the split task's sequential version is fib's.
//! ```
//!
//! Which tasks have one: those whose sequential version is the summing loop with handles
//! (`let a = spawn!(..)` only, no `slots!`: each spawn site is a top-level statement, run at
//! most once per body, so each site's child fits a variable of its own, and the walk makes
//! room for them before the body runs), whose spawns and taskwait name no queue and
//! force no task (an EPAQ program put its kinds of work in queues of their own, and a
//! forced spawn says the program wants that task), and whose result type is at most 64
//! bits wide (the 32 result slots in its record must fit the default frame limit, which
//! the program must not have lowered). A search that spawns into `slots!` from a loop
//! (nqueens) would need a walk that stops mid-body; it keeps the per-spawn policy.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;
use syn::token::Comma;
use syn::{FnArg, Ident, ItemFn, Pat, Type};

use crate::seq::summing;
use crate::seq_sum::{Push, Summing, hidden, site_ident};

/// Result types whose 32 slots fit a frame of the default size.
const SPLIT_RESULTS: [&str; 5] = ["u8", "u16", "u32", "u64", "usize"];

/// The frame limit (`max_frame_bytes`) below which no task is split: the default.
pub const MIN_FRAME_BYTES: u64 = 512;

/// What one task's split adds to its program.
pub struct Split {
    /// The task it splits, and that task's parameter names.
    pub of: Ident,
    pub of_args: Vec<Ident>,
    /// The hidden split task, as a `#[gtap::task]` of the program (its items come from the
    /// same expansion as every task's).
    pub task: ItemFn,
    /// The walk its body calls.
    pub walk: TokenStream,
    /// Its arm of `Program::split`, matching a value `a` of the task's arguments.
    pub arm: TokenStream,
}

/// The split task's name for `name`.
pub fn split_ident(name: &Ident) -> Ident {
    format_ident!("__gtap_split_{}", name)
}

/// The name the statistics give a split task of `name`.
pub fn split_display(name: &Ident) -> String {
    format!("{name} (split)")
}

/// The split of thread task `task` (parameters `params`, each a plain name in `names`,
/// result type `ret`), when it qualifies (module docs).
pub fn split_task(
    task: &ItemFn,
    params: &Punctuated<FnArg, Comma>,
    names: &[Ident],
    ret: &TokenStream,
) -> Option<Split> {
    if !SPLIT_RESULTS.contains(&ret.to_string().as_str()) || names.len() != params.len() {
        return None;
    }
    let sum = summing(task, params, names, ret, Push::Sites)?;
    if sum.slots || sum.queued {
        return None;
    }
    let types: Vec<&Type> = params
        .iter()
        .filter_map(|p| match p {
            FnArg::Typed(t) => Some(&*t.ty),
            FnArg::Receiver(_) => None,
        })
        .collect();
    let name = &task.sig.ident;
    let split = split_ident(name);
    let walk_fn = format_ident!("__gtap_seqw_{}", name);
    let vis = &task.vis;
    let stacked: Vec<usize> = (0..names.len()).filter(|&i| !sum.fixed[i]).collect();
    let pending: Vec<Ident> = stacked
        .iter()
        .map(|i| format_ident!("__gtap_a{i}"))
        .collect();
    let child_args: Vec<Ident> = (0..names.len())
        .map(|i| match sum.fixed[i] {
            true => names[i].clone(),
            false => format_ident!("__gtap_a{i}"),
        })
        .collect();
    let ctx = crate::lower::ctx_ident();
    // The walk and the spawns run in the task's own body, as a hand-written split would:
    // its buffer is then a local of the task's step (local memory, not a pointer's), and
    // the kernel calls no function that spawns (a spawn can fail the task, so after such a
    // call the kernel reloads the warp's state and branches to its failure path, which
    // lengthens live ranges across its whole loop and raises its registers).
    let task_fn: ItemFn = syn::parse_quote! {
        #[doc(hidden)]
        #vis fn #split(#( #names: #types, )* __gtap_budget: u32) -> #ret {
            let __gtap_kids = slots!(#ret; { ::gtap::__private::SPLIT_PENDING });
            let __gtap_walked: #ret = {
                let mut __gtap_buffer = ::gtap::__private::split_buffer();
                let (__gtap_sum, __gtap_ran, mut __gtap_pending) =
                    #walk_fn(#( #names, )* __gtap_budget, &mut __gtap_buffer);
                // SAFETY: the running task's own context.
                unsafe { ::gtap::__private::split_count_walked::<Program>(#ctx, __gtap_ran) };
                let __gtap_next = ::gtap::__private::split_next_budget(__gtap_budget);
                while let ::core::option::Option::Some((#( #pending, )*)) =
                    __gtap_pending.take_oldest()
                {
                    spawn!(into __gtap_kids, task, #split(#( #child_args, )* __gtap_next));
                }
                __gtap_sum
            };
            taskwait!();
            __gtap_walked + __gtap_kids.iter().sum::<#ret>()
        }
    };
    let walk = walk_items(task, params, names, &walk_fn, &stacked, ret, &sum);
    let args_struct = format_ident!("__GtapArgs_{}", split);
    let arm = quote! {
        Args::#name(a) => Args::#split(#args_struct {
            #( #names: a.#names, )*
            __gtap_budget: budget,
            __gtap_borrow: ::core::marker::PhantomData,
        }),
    };
    Some(Split {
        of: name.clone(),
        of_args: names.to_vec(),
        task: task_fn,
        walk,
        arm,
    })
}

/// The walk of a split task: the summing loop over at most `budget` runs of the task's body
/// (at least one), stopped early when the next body's children might not fit the stack, its
/// pending calls left in the buffer. Each body's spawn sites keep their children in
/// variables of their own: the first site's child is the walk's next call (held, not
/// stacked), and the others are put on the stack after the body, last site first, so that
/// the calls run in the program's order (`SplitStack::put`, `SplitStack::next_call`).
/// Returns the sum of the bodies' own parts and the spawns it ran (not left pending).
/// Inlined into the split task's step, so that the stack's buffer is a local of it.
fn walk_items(
    task: &ItemFn,
    params: &Punctuated<FnArg, Comma>,
    names: &[Ident],
    walk_fn: &Ident,
    stacked: &[usize],
    ret: &TokenStream,
    sum: &Summing,
) -> TokenStream {
    let vis = &task.vis;
    let (stack, total, spawns) = hidden();
    let (pats, stacked_types): (Vec<&Pat>, Vec<&Type>) = stacked
        .iter()
        .filter_map(|&i| match &params[i] {
            FnArg::Typed(t) => Some((&*t.pat, &*t.ty)),
            FnArg::Receiver(_) => None,
        })
        .unzip();
    let names: Vec<&Ident> = stacked.iter().map(|&i| &names[i]).collect();
    let (body, sites) = (&sum.body, sum.sites);
    let (children, ran): (Vec<Ident>, Vec<Ident>) = (0..sites).map(site_ident).unzip();
    let (child0, ran0) = (&children[0], &ran[0]);
    let later_last_first = children[1..].iter().rev();
    let later_ran_last_first = ran[1..].iter().rev();
    let tuple = quote!((#( #stacked_types, )*));
    let at = Span::call_site();
    let budget = Ident::new("__gtap_budget", at);
    quote! {
        #[doc(hidden)]
        #[allow(warnings, clippy::all)]
        #[inline(always)]
        #vis fn #walk_fn(
            #params,
            #budget: u32,
            __gtap_buffer: &mut ::gtap::__private::SplitBuffer<#tuple>,
        ) -> (
            #ret,
            u32,
            ::gtap::__private::SplitPending<'_, #tuple>,
        ) {
            let mut #stack = ::gtap::__private::SplitStack::new(__gtap_buffer);
            let mut #total: #ret = 0;
            let mut #spawns: u32 = 0;
            let mut __gtap_left: u32 = if #budget == 0 { 1 } else { #budget };
            let mut __gtap_next = (#( #names, )*);
            loop {
                let (#( #pats, )*) = __gtap_next;
                #(
                    let mut #children: ::core::mem::MaybeUninit<#tuple> =
                        ::core::mem::MaybeUninit::uninit();
                    let mut #ran = false;
                )*
                let __gtap_part: #ret = (|| -> #ret #body)();
                // The first site's child is the next call: held in registers rather than put
                // and popped, so that the walk's chain of dependent steps passes through
                // local memory only from a leaf. The others are put, last site first.
                // SAFETY: the stack had room for the body's sites: it was empty (and a body's
                // sites fit an empty stack, `ready_for`'s assertion) or `ready_for` said so
                // before the body's call was taken.
                #( unsafe { #stack.put(#later_last_first, #later_ran_last_first) }; )*
                #total += __gtap_part;
                __gtap_left -= 1;
                // One condition and a next call chosen without a branch around it: the lanes
                // walking different calls leave the loop together or not at all.
                if __gtap_left == 0 || !#stack.ready_for::<#sites>(#ran0) {
                    // SAFETY: the body's sites had room, and the first was not put.
                    unsafe { #stack.put(#child0, #ran0) };
                    break;
                }
                // SAFETY: `ready_for` said there is a next call; the first site's child is
                // initialized when its site ran.
                __gtap_next = unsafe { #stack.next_call(#child0, #ran0) };
            }
            // Each site that ran counted one spawn; those still pending did not run here.
            let __gtap_ran = #spawns.wrapping_sub(#stack.len() as u32);
            (#total, __gtap_ran, #stack.into_pending())
        }
    }
}
