//! Each summing task's split task: the hidden task a runtime starts instead of it when the
//! granularity policy splits by a budget of work (`gtap_device::task::split`). Every
//! program's qualifying tasks get one unless it says `#[gtap::program(split = false)]`;
//! `split = true` makes it an error that none qualifies.
//!
//! ```text
//! // Input:                              // Output (inside the same module), simplified:
//! #[gtap::task]                          #[gtap::task] // hidden, named "fib (split)" in statistics
//! pub fn fib(n: u32) -> u64 {            fn __gtap_split_fib(__gtap_calls: SplitCalls<(u32,)>, __gtap_budget: u32) -> u64 {
//!     if n < 2 { return n as u64; }          let kids = slots!(u64; 32);
//!     let a = spawn!(fib(n - 1));            let mut bundle = split_bundle(); // in the frame, across the taskwait
//!     let b = spawn!(fib(n - 2));            let walked = {
//!     taskwait!();                               let mut buffer = split_buffer();
//!     a.get() + b.get()                          let (sum, ran, mut pending) = __gtap_seqw_fib(&__gtap_calls, __gtap_budget, &mut buffer);
//! }                                              split_count_walked(ctx, ran);
//!                                                let next = split_next_budget(__gtap_budget);
//!                                                // the oldest pending calls one by one, the rest as one bundle
//!                                                while let Some(calls) = pending.take_task::<2>(split_singles(ctx), &raw mut bundle) {
//!                                                    spawn!(into kids, task, __gtap_split_fib(calls, next));
//!                                                }
//!                                                sum
//!                                            };
//!                                            taskwait!();
//!                                            walked + kids.iter().sum::<u64>()
//!                                        }
//!                                        // The walk (inlined): the summing loop (`seq_sum`) over
//!                                        // at most `budget` bodies from the task's calls, each spawn
//!                                        // site keeping its child in a variable put on the stack after
//!                                        // the body; its pending calls left in the buffer.
//!                                        fn __gtap_seqw_fib(__gtap_calls: &SplitCalls<(u32,)>, __gtap_budget: u32, buffer: &mut SplitBuffer<(u32,)>) -> (u64, u32, SplitPending<(u32,)>) { .. }
//!                                        // and in `impl Program`: SPLITS = true, split(Args::fib(a), b) = Args::__gtap_split_fib(one call, b);
//!                                        // the split task's sequential version is fib's, on each of its calls.
//! ```
//!
//! The parameters that every call passes on unchanged (`fixed`) stay parameters of the split
//! task; the others make up each call (`SplitCalls`).
//!
//! Which tasks have one: those whose sequential version is the summing loop with handles
//! (`let a = spawn!(..)` only, no `slots!`: each spawn site is a top-level statement, run at
//! most once per body, so each site's child fits a variable of its own, and the walk makes
//! room for them before the body runs), whose spawns and taskwait name no queue and
//! force no task (an EPAQ program put its kinds of work in queues of their own, and a
//! forced spawn says the program wants that task), that names no sequential version of its
//! own (`#[gtap::task(seq = ..)]`: the user said how its calls run), and whose result type is at most 64
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
    /// The task it splits.
    pub of: Ident,
    /// The hidden split task, as a `#[gtap::task]` of the program (its items come from the
    /// same expansion as every task's).
    pub task: ItemFn,
    /// The walk its body calls.
    pub walk: TokenStream,
    /// Its arm of `Program::split`, matching a value `a` of the task's arguments.
    pub arm: TokenStream,
    /// Its arm of `Program::run_seq` (arguments `a`, result pointer `out`): the task's
    /// sequential version run on each of its calls, their results summed.
    pub seq_arm: TokenStream,
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
    let (fixed, stacked): (Vec<usize>, Vec<usize>) = (0..names.len()).partition(|&i| sum.fixed[i]);
    let fixed_names: Vec<&Ident> = fixed.iter().map(|&i| &names[i]).collect();
    let fixed_types: Vec<&Type> = fixed.iter().map(|&i| types[i]).collect();
    let tuple = {
        let stacked_types = stacked.iter().map(|&i| types[i]);
        quote!((#( #stacked_types, )*))
    };
    let sites = sum.sites;
    let ctx = crate::lower::ctx_ident();
    // The walk and the spawns run in the task's own body, as a hand-written split would:
    // its buffer is then a local of the task's step (local memory, not a pointer's), and
    // the kernel calls no function that spawns (a spawn can fail the task, so after such a
    // call the kernel reloads the warp's state and branches to its failure path, which
    // lengthens live ranges across its whole loop and raises its registers).
    let task_fn: ItemFn = syn::parse_quote! {
        #[doc(hidden)]
        #vis fn #split(
            #( #fixed_names: #fixed_types, )*
            __gtap_calls: ::gtap::__private::SplitCalls<#tuple>,
            __gtap_budget: u32,
        ) -> #ret {
            let __gtap_kids = slots!(#ret; { ::gtap::__private::SPLIT_PENDING });
            // The calls of the bundle it makes, if any, after the first: a local of its frame
            // (borrowed across the taskwait), which the bundle's task reads.
            let mut __gtap_bundle = ::gtap::__private::split_bundle();
            let __gtap_walked: #ret = {
                let mut __gtap_buffer = ::gtap::__private::split_buffer();
                let (__gtap_sum, __gtap_ran, mut __gtap_pending) = #walk_fn(
                    #( #fixed_names, )* &__gtap_calls, __gtap_budget, &mut __gtap_buffer
                );
                // SAFETY: the running task's own context.
                let __gtap_singles = unsafe {
                    ::gtap::__private::split_count_walked::<Program>(#ctx, __gtap_ran);
                    ::gtap::__private::split_singles::<Program>(#ctx)
                };
                let __gtap_next = ::gtap::__private::split_next_budget(__gtap_budget);
                // SAFETY: the bundle is this task's own, kept until after its taskwait, and
                // touched by nothing else here.
                while let ::core::option::Option::Some(__gtap_calls) = unsafe {
                    __gtap_pending.take_task::<#sites>(__gtap_singles, &raw mut __gtap_bundle)
                } {
                    spawn!(into __gtap_kids, task, #split(#( #fixed_names, )* __gtap_calls, __gtap_next));
                }
                __gtap_sum
            };
            taskwait!();
            let _ = &__gtap_bundle;
            __gtap_walked + __gtap_kids.iter().sum::<#ret>()
        }
    };
    let walk = walk_items(
        task,
        params,
        (&fixed, &stacked),
        &walk_fn,
        &tuple,
        ret,
        &sum,
    );
    let (arm, seq_arm) = program_arms(name, names, &sum.fixed, ret);
    Some(Split {
        of: name.clone(),
        task: task_fn,
        walk,
        arm,
        seq_arm,
    })
}

/// The split task's arms of `Program::split` (a call of task `name` made its split task's,
/// one call of a bundle) and of `Program::run_seq` (task `name`'s sequential version on each
/// of its calls, summed). `fixed[i]`: parameter `names[i]` is the same in every call.
fn program_arms(
    name: &Ident,
    names: &[Ident],
    fixed: &[bool],
    ret: &TokenStream,
) -> (TokenStream, TokenStream) {
    let split = split_ident(name);
    let args_struct = format_ident!("__GtapArgs_{}", split);
    let fixed_names = names.iter().zip(fixed).filter(|(_, f)| **f).map(|(n, _)| n);
    let stacked_names: Vec<&Ident> = names
        .iter()
        .zip(fixed)
        .filter(|(_, f)| !**f)
        .map(|(n, _)| n)
        .collect();
    let arm = quote! {
        Args::#name(a) => Args::#split(#args_struct {
            #( #fixed_names: a.#fixed_names, )*
            __gtap_calls: ::gtap::__private::SplitCalls::one((#( a.#stacked_names, )*)),
            __gtap_budget: budget,
            __gtap_borrow: ::core::marker::PhantomData,
        }),
    };
    let counted = crate::lower::seq_counted_fn_ident(name);
    let call_args = names.iter().zip(fixed).map(|(n, &f)| match f {
        true => quote!(a.#n),
        false => quote!(#n),
    });
    // Its spawns are not counted: the policy never runs a split task inline (its spawns
    // are forced), so nothing weighs them.
    let seq_arm = quote! {
        Args::#split(a) => {
            let mut __gtap_result: #ret = 0;
            ::gtap::__private::split_run_each(&a.__gtap_calls, |(#( #stacked_names, )*)| {
                __gtap_result += #counted(#( #call_args, )* 0).0;
            });
            // SAFETY: `out` holds this task's result type (trait contract).
            unsafe { out.cast::<#ret>().write(__gtap_result) };
            0
        }
    };
    (arm, seq_arm)
}

/// The walk of a split task: the summing loop over at most `budget` runs of the task's body
/// (at least one), from the split task's calls (the youngest first, the others on the
/// stack: `SplitStack::start`), stopped early when the next body's children might not fit
/// the stack, its pending calls left in the buffer. Each body's spawn sites keep their
/// children in variables of their own: the first site's child is the walk's next call
/// (held, not stacked), and the others are put on the stack after the body, last site
/// first, so that the calls run in the program's order (`SplitStack::put`,
/// `SplitStack::next_call`). Returns the sum of the bodies' own parts and the calls it ran
/// besides the first. Inlined into the split task's step, so that the stack's buffer is a
/// local of it. `(fixed, stacked)`: the indices of the parameters every call shares and of
/// those each call has its own of.
fn walk_items(
    task: &ItemFn,
    params: &Punctuated<FnArg, Comma>,
    (fixed, stacked): (&[usize], &[usize]),
    walk_fn: &Ident,
    tuple: &TokenStream,
    ret: &TokenStream,
    sum: &Summing,
) -> TokenStream {
    let vis = &task.vis;
    let (stack, total, spawns) = hidden();
    let fixed_params = fixed.iter().map(|&i| &params[i]);
    let pats: Vec<&Pat> = stacked
        .iter()
        .filter_map(|&i| match &params[i] {
            FnArg::Typed(t) => Some(&*t.pat),
            FnArg::Receiver(_) => None,
        })
        .collect();
    let (body, sites) = (&sum.body, sum.sites);
    let (children, ran): (Vec<Ident>, Vec<Ident>) = (0..sites).map(site_ident).unzip();
    let (child0, ran0) = (&children[0], &ran[0]);
    let later_last_first = children[1..].iter().rev();
    let later_ran_last_first = ran[1..].iter().rev();
    let at = Span::call_site();
    let budget = Ident::new("__gtap_budget", at);
    quote! {
        #[doc(hidden)]
        #[allow(warnings, clippy::all)]
        #[inline(always)]
        #vis fn #walk_fn<'__gtap_b>(
            #( #fixed_params, )*
            __gtap_calls: &::gtap::__private::SplitCalls<#tuple>,
            #budget: u32,
            __gtap_buffer: &'__gtap_b mut ::gtap::__private::SplitBuffer<#tuple>,
        ) -> (
            #ret,
            u32,
            ::gtap::__private::SplitPending<'__gtap_b, #tuple>,
        ) {
            let mut #stack = ::gtap::__private::SplitStack::new(__gtap_buffer);
            let mut #total: #ret = 0;
            let mut #spawns: u32 = 0;
            let __gtap_budget_bodies: u32 = if #budget == 0 { 1 } else { #budget };
            let mut __gtap_left = __gtap_budget_bodies;
            // SAFETY: the stack is empty, and a split task's calls leave room for a body's
            // sites beside them (`SplitPending::take_task`, `SplitCalls::one`).
            let mut __gtap_next = unsafe { #stack.start::<#sites>(__gtap_calls) };
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
                // SAFETY: the stack had room for the body's sites: `start` left it for the
                // first body, and `ready_for` said so before any later body's call was taken.
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
            // Every body but the first ran a call here rather than as a task of its own.
            let __gtap_ran = __gtap_budget_bodies - __gtap_left - 1;
            (#total, __gtap_ran, #stack.into_pending())
        }
    }
}
