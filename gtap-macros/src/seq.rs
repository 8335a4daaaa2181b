//! Each thread task's sequential version (its serial elision): the task's body with every
//! `spawn!` a plain call of the child's sequential version and every `taskwait!()` nothing.
//!
//! ```text
//! // Input:                         // Output (inside the same module), simplified:
//! #[gtap::task]                     pub fn __gtap_seqc_fib(n: u32, mut __gtap_spawns: u32) -> (u64, u32) {
//! pub fn fib(n: u32) -> u64 {           let result = (|| -> u64 {
//!     if n < 2 { return n as u64; }         if n < 2 { return n as u64; }
//!     let a = spawn!(fib(n - 1));           let v = { let (v, s) = __gtap_seqc_fib(n - 1, __gtap_spawns + 1);
//!                                                     __gtap_spawns = s; v };
//!                                           let a = unsafe { seq_spawn(&slot_1, v, 0u32) };
//!     ..                                    ..
//!     taskwait!();                          seq_wait(0u32);
//!                                           let a = unsafe { slot_1.__joined() };
//!     a.get() + b.get()                     a.get() + b.get()
//! }                                     })();
//!                                       (result, __gtap_spawns)
//!                                   }
//!                                   pub fn __gtap_seq_fib(n: u32) -> u64 { __gtap_seqc_fib(n, 0).0 }
//!                                   pub mod seq { pub use super::__gtap_seq_fib as fib; }
//!                                   // and in `impl Program`: SEQ = true, run_seq matching on `Args`
//! ```
//!
//! A task that calls only itself, at one or two sites (fib, nqueens, the trees), also gets
//! inlined copies with the same body, `__gtap_seqi1_fib`, `__gtap_seqi2_fib`, .. (more for
//! a smaller body): the counting version calls the first where it recurses and is never
//! inlined itself, each copy calls the next and the last calls the counting version, so
//! each real call runs two to four levels of the recursion ([`levels`]).
//!
//! A task whose result is the sum of its children's gets a loop over a stack of pending
//! calls instead of the recursion ([`seq_sum`]); on the CPU only if it is too large for
//! three or four levels per call or reads its children through `slots!`
//! ([`SUM_MAX_LEVELS`]).
//!
//! Users call `seq::fib(40)`; a runtime calls the counting version through
//! `Program::run_seq` when it runs a spawn inline instead of making it a task, and learns
//! how many spawns the call ran as plain calls. The body keeps its handles, so that it reads
//! exactly as the task's: a handle is filled when its child returns, and becomes readable
//! at the `taskwait!()` that would have joined it. Block tasks have none: their bodies are
//! written for a team of threads (`Block::sync`, per-thread spawns).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::token::Comma;
use syn::{FnArg, ItemFn, Visibility};

use crate::{lower, seq_sum};

/// The most direct calls of sequential versions in a body that is unrolled ([`levels`]).
const UNROLL_MAX_CALLS: usize = 2;

/// How many levels per call a self-recursive body of at most so many tokens runs
/// ([`levels`]), smallest bodies first; a larger one runs two.
const LEVELS_BY_SIZE: [(usize, usize); 2] = [(60, 4), (120, 3)];

/// How many levels of its recursion the sequential version of task `name`, whose body
/// `block` calls the sequential versions of `calls` (one entry per call site), runs per
/// call through the GPU's call ABI: 1 (not unrolled) to 4. A recursion through that ABI
/// pays at every call (the registers it saves and restores in local memory), and a call
/// that runs several levels pays once for them all: its out-of-line version calls an
/// inlined copy of the body where it recurses, that copy the next, and the last copy the
/// out-of-line version. Only a task that calls itself, at one or two sites and nowhere
/// else: each site is a copy of the body, and a call of another task would copy that
/// task's body. The smaller the body, the more levels ([`LEVELS_BY_SIZE`]): the copies are
/// inlined into the out-of-line version, whose registers count for every kernel that can
/// call it, and many copies of a large body (a loop of placements with its own helpers
/// inlined, say) take more registers than the kernel needs otherwise.
fn levels(name: &syn::Ident, calls: &[syn::Ident], block: &syn::Block) -> usize {
    if !(1..=UNROLL_MAX_CALLS).contains(&calls.len()) || calls.iter().any(|c| c != name) {
        return 1;
    }
    let size = tokens(quote!(#block));
    LEVELS_BY_SIZE
        .iter()
        .find(|&&(most, _)| size <= most)
        .map_or(2, |&(_, levels)| levels)
}

/// The most levels per call on the CPU (`levels` are the GPU's): a call costs little there,
/// and a fourth copy of the body made the recursion slower, not faster.
const CPU_MAX_LEVELS: usize = 3;

/// The inlined copies of a sequential version that runs `levels` levels per call on the
/// GPU and at most [`CPU_MAX_LEVELS`] on the CPU: for each, its number (from 1), the copy
/// its body calls (`None`: the out-of-line version), and the `cfg` of the target it is for
/// (empty: both). A copy whose next differs between the targets is there twice.
fn copies(levels: usize) -> Vec<(usize, Option<usize>, TokenStream)> {
    let cpu_levels = levels.min(CPU_MAX_LEVELS);
    let next = |k: usize, chain: usize| (k + 1 < chain).then_some(k + 1);
    let gpu = quote!(#[cfg(target_arch = "nvptx64")]);
    let cpu = quote!(#[cfg(not(target_arch = "nvptx64"))]);
    let mut out = Vec::new();
    for k in 1..levels {
        let (on_gpu, on_cpu) = (next(k, levels), next(k, cpu_levels));
        if k >= cpu_levels {
            out.push((k, on_gpu, gpu.clone()));
        } else if on_gpu == on_cpu {
            out.push((k, on_gpu, TokenStream::new()));
        } else {
            out.push((k, on_gpu, gpu.clone()));
            out.push((k, on_cpu, cpu.clone()));
        }
    }
    out
}

/// The tokens in `ts`, a group's delimiters counted as one.
fn tokens(ts: TokenStream) -> usize {
    ts.into_iter()
        .map(|t| match t {
            proc_macro2::TokenTree::Group(g) => 1 + tokens(g.stream()),
            _ => 1,
        })
        .sum()
}

/// The most levels per call of a recursive sequential version for which a summing task whose
/// children's results come through handles runs its summing loop on the CPU too
/// ([`seq_sum`]); a body small enough for more levels (fib) runs its recursion there, which
/// the CPU runs faster than the loop. On the GPU every summing task runs the loop: its
/// recursion saves and restores registers in local memory at every call, and a loop that
/// keeps its newest pending call out of memory (`SumStack`) runs fib's leaves faster than a
/// hand-written explicit stack. A task whose children's results go to `slots!` (nqueens)
/// runs the loop on both: the recursion clears and sums the slots at every call, and was
/// several times slower.
const SUM_MAX_LEVELS: usize = 2;

/// The body of task `task`'s summing loop, its spawns pushing as `push` says, when it
/// qualifies ([`seq_sum::summing_body`]).
pub fn summing(
    task: &ItemFn,
    params: &Punctuated<FnArg, Comma>,
    arg_names: &[syn::Ident],
    ret: &TokenStream,
    push: seq_sum::Push,
) -> Option<seq_sum::Summing> {
    let types: Vec<TokenStream> = params
        .iter()
        .map(|p| match p {
            FnArg::Typed(t) => {
                let ty = &t.ty;
                quote!(#ty)
            }
            FnArg::Receiver(_) => quote!(&self),
        })
        .collect();
    let t = seq_sum::Task {
        name: &task.sig.ident,
        params,
        names: arg_names,
    };
    seq_sum::summing_body(&t, &task.block, ret, &types, push)
}

/// A summing task's counting version, the loop over its body, and the function that builds
/// its children's tuples of the arguments it stacks (all but the fixed ones; on every
/// target, as the split task's walk uses it on every target too, `split`).
fn summing_items(
    task: &ItemFn,
    params: &Punctuated<FnArg, Comma>,
    arg_names: &[syn::Ident],
    ret: &TokenStream,
    counted_params: &Punctuated<FnArg, Comma>,
    sum: &seq_sum::Summing,
    target: &TokenStream,
) -> TokenStream {
    let name = &task.sig.ident;
    let vis = &task.vis;
    let counted_fn = lower::seq_counted_fn_ident(name);
    let args_fn = seq_sum::args_fn_ident(name);
    let stacked = |i: &usize| !sum.fixed[*i];
    let (pats, types): (Vec<&syn::Pat>, Vec<&syn::Type>) = params
        .iter()
        .enumerate()
        .filter(|(i, _)| stacked(i))
        .filter_map(|(_, p)| match p {
            FnArg::Typed(t) => Some((&*t.pat, &*t.ty)),
            FnArg::Receiver(_) => None,
        })
        .unzip();
    let names: Vec<&syn::Ident> = arg_names
        .iter()
        .enumerate()
        .filter(|(i, _)| stacked(i))
        .map(|(_, n)| n)
        .collect();
    let head = quote! {
        #[doc(hidden)]
        #[allow(warnings, clippy::all)]
        #[inline(never)]
        #target
        #vis fn #counted_fn(#counted_params) -> (#ret, u32)
    };
    let lp = seq_sum::summing_fn(head, &pats, &names, ret, sum);
    quote! {
        #[doc(hidden)]
        #[allow(warnings, clippy::all)]
        #[inline(always)]
        #vis fn #args_fn(#params) -> (#( #types, )*) {
            (#( #names, )*)
        }

        #lp
    }
}

/// What one task adds for its sequential version.
pub struct SeqOut {
    /// The hidden sequential fn.
    pub items: TokenStream,
    /// Its `run_seq` arm, matching a value `a` of the task's arguments struct.
    pub arm: TokenStream,
    /// Its re-export in `mod seq`.
    pub reexport: TokenStream,
    /// The task named it (`#[gtap::task(seq = ..)]`): its `run_seq` arm returns
    /// `UNCOUNTED`.
    pub named: bool,
}

/// The sequential version of thread task `task`, whose calls take `arg_names` (its
/// parameters `params`, each a plain name); `tasks`: every task of the program that has one,
/// with its number of arguments.
///
/// The body goes into the counting version, `__gtap_seqc_<task>(args.., spawns) -> (R,
/// u32)`, which threads a count of the spawns it ran as plain calls through its children's
/// calls (a value in a register, where a pointer to a counter would cost a memory round
/// trip per call): the GPU's granularity policy weighs an inline call's cycles by the
/// spawns it saved. The body runs inside a closure called at once, so that its `return`s
/// return its result and the count is added after. `__gtap_seq_<task>`, what users call,
/// starts the count at 0 and drops it.
pub fn seq_task(
    task: &ItemFn,
    params: &Punctuated<FnArg, Comma>,
    arg_names: &[syn::Ident],
    ret: &TokenStream,
    tasks: &[(syn::Ident, usize)],
    siblings: &[lower::Sibling],
) -> SeqOut {
    let name = &task.sig.ident;
    let spawns = syn::Ident::new(lower::SPAWNS, Span::call_site());
    // Errors are the task's own lowering's; the same body lowers to the same ones here.
    let plain = lower::lower_seq((*task.block).clone(), tasks, siblings, None);
    let levels = levels(name, &plain.seq_calls, &task.block);
    let mut counted_params = params.clone();
    counted_params.push(syn::parse_quote!(mut #spawns: u32));
    let recursive = |levels: usize, target: TokenStream| {
        let r = Recursion {
            tasks,
            siblings,
            plain: &plain.block,
            counted_params: &counted_params,
            ret,
            target,
        };
        recursive_items(task, &r, levels)
    };
    let counted = match summing(task, params, arg_names, ret, seq_sum::Push::Checked) {
        // Small enough to unroll, through handles: the loop on the GPU, the recursion on
        // the CPU ([`SUM_MAX_LEVELS`]).
        Some(sum) if !sum.slots && levels > SUM_MAX_LEVELS => {
            let gpu = quote!(#[cfg(target_arch = "nvptx64")]);
            let lp = summing_items(task, params, arg_names, ret, &counted_params, &sum, &gpu);
            let cpu = quote!(#[cfg(not(target_arch = "nvptx64"))]);
            let rec = recursive(levels.min(CPU_MAX_LEVELS), cpu);
            quote!(#lp #rec)
        }
        Some(sum) => {
            let both = TokenStream::new();
            summing_items(task, params, arg_names, ret, &counted_params, &sum, &both)
        }
        None => recursive(levels, TokenStream::new()),
    };
    let doc = format!(
        "The sequential version of task `{name}`: its body with every `spawn!` a call and \
         every `taskwait!()` nothing (generated)."
    );
    seq_out(task, params, arg_names, ret, counted, &doc, false)
}

/// The sequential version of thread task `task` that names its own, `path`
/// (`#[gtap::task(seq = path)]`): a counting version that calls `path` with the task's
/// arguments and returns the count it was given, since `path` runs no spawns. Its type is
/// checked where it is called: `path` takes the task's arguments and returns its result.
/// Out of line, as the generated ones are, so that a kernel's `run_seq` does not carry it.
pub fn given_seq_task(
    task: &ItemFn,
    params: &Punctuated<FnArg, Comma>,
    arg_names: &[syn::Ident],
    ret: &TokenStream,
    path: &syn::Path,
) -> SeqOut {
    let name = &task.sig.ident;
    let counted_fn = lower::seq_counted_fn_ident(name);
    let spawns = syn::Ident::new(lower::SPAWNS, Span::call_site());
    let vis = &task.vis;
    let mut counted_params = params.clone();
    counted_params.push(syn::parse_quote!(#spawns: u32));
    // The arguments spanned at the path, so that a type error names the function given.
    let args = arg_names
        .iter()
        .map(|a| syn::Ident::new(&a.to_string(), path.span()));
    let call = quote_spanned!(path.span()=> #path(#( #args ),*));
    let counted = quote! {
        #[doc(hidden)]
        #[allow(warnings, clippy::all)]
        #[inline(never)]
        #vis fn #counted_fn(#counted_params) -> (#ret, u32) {
            let __gtap_result: #ret = #call;
            (__gtap_result, #spawns)
        }
    };
    let path = quote!(#path).to_string().replace(' ', "");
    let doc = format!(
        "The sequential version of task `{name}`: `{path}`, which the task names \
         (`#[gtap::task(seq = {path})]`)."
    );
    seq_out(task, params, arg_names, ret, counted, &doc, true)
}

/// The items, `run_seq` arm and re-export of a task's sequential version around its
/// counting version `counted` (`__gtap_seqc_<task>`), documented in `mod seq` by `doc`;
/// `named`: the task named it (`#[gtap::task(seq = ..)]`).
fn seq_out(
    task: &ItemFn,
    params: &Punctuated<FnArg, Comma>,
    arg_names: &[syn::Ident],
    ret: &TokenStream,
    counted: TokenStream,
    doc: &str,
    named: bool,
) -> SeqOut {
    let name = &task.sig.ident;
    let vis = &task.vis;
    let seq_fn = lower::seq_fn_ident(name);
    let counted_fn = lower::seq_counted_fn_ident(name);
    let items = quote! {
        #counted

        #[doc(hidden)]
        #[allow(warnings, clippy::all)]
        #[inline(always)]
        #vis fn #seq_fn(#params) -> #ret {
            #counted_fn(#( #arg_names, )* 0).0
        }
    };
    // A named version's calls are reported as such (`Program::run_seq`): they run no
    // spawns, and their work is not a count of them.
    let spawns = if named {
        quote!(::gtap::device::task::program::UNCOUNTED)
    } else {
        quote!(__gtap_spawns)
    };
    let arm = quote! {
        Args::#name(a) => {
            let (__gtap_result, __gtap_spawns) = #counted_fn(#( a.#arg_names, )* 0);
            // SAFETY: `out` holds this task's result type (trait contract).
            unsafe { out.cast::<#ret>().write(__gtap_result) };
            #spawns
        }
    };
    let outer = reexport_vis(vis);
    let reexport = quote! {
        #[doc = #doc]
        #[allow(unused_imports)]
        #outer use super::#seq_fn as #name;
    };
    SeqOut {
        items,
        arm,
        reexport,
        named,
    }
}

/// What the recursive counting version of a task is made of, but the task itself.
struct Recursion<'a> {
    /// Every task of the program that has a sequential version, with its number of
    /// arguments, and the program's sibling tasks (as [`seq_task`] takes them).
    tasks: &'a [(syn::Ident, usize)],
    siblings: &'a [lower::Sibling],
    /// The task's body lowered for its sequential version.
    plain: &'a syn::Block,
    /// The counting version's parameters, and the task's result type.
    counted_params: &'a Punctuated<FnArg, Comma>,
    ret: &'a TokenStream,
    /// The `cfg` of the targets it is for (empty: every target).
    target: TokenStream,
}

/// The recursive counting version of task `task` made of `r`, running `levels` levels per
/// call ([`levels`]): the out-of-line version and its inlined copies.
fn recursive_items(task: &ItemFn, r: &Recursion<'_>, levels: usize) -> TokenStream {
    let name = &task.sig.ident;
    let vis = &task.vis;
    let counted_fn = lower::seq_counted_fn_ident(name);
    let spawns = syn::Ident::new(lower::SPAWNS, Span::call_site());
    let (counted_params, ret, all) = (r.counted_params, r.ret, &r.target);
    // The body that calls inlined copy `to`, or the out-of-line version (the plain body).
    let calling = |to: Option<usize>| match to {
        Some(to) => {
            lower::lower_seq((*task.block).clone(), r.tasks, r.siblings, Some((name, to))).block
        }
        None => r.plain.clone(),
    };
    let outer = calling((levels > 1).then_some(1));
    // Not inlined into its callers when unrolled: a caller (`run_seq` in the GPU kernel)
    // would otherwise hold every level of the body, whose registers count for the kernel.
    let never = (levels > 1).then(|| quote!(#[inline(never)]));
    // No lints, and none of the task's attributes: the body is the task's, whose frame
    // already reports them (rustc would report each twice, once per copy).
    let inlined = copies(levels).into_iter().map(|(k, next, target)| {
        let inline_fn = lower::seq_inline_fn_ident(name, k);
        let body = calling(next);
        quote! {
            #[doc(hidden)]
            #[allow(warnings, clippy::all)]
            #[inline(always)]
            #all
            #target
            #vis fn #inline_fn(#counted_params) -> (#ret, u32) {
                let __gtap_result: #ret = (|| -> #ret #body)();
                (__gtap_result, #spawns)
            }
        }
    });
    quote! {
        #[doc(hidden)]
        #[allow(warnings, clippy::all)]
        #never
        #all
        #vis fn #counted_fn(#counted_params) -> (#ret, u32) {
            let __gtap_result: #ret = (|| -> #ret #outer)();
            (__gtap_result, #spawns)
        }

        #( #inlined )*
    }
}

/// `mod seq`, with every task's sequential version under the task's name.
pub fn seq_module(reexports: &[&TokenStream]) -> TokenStream {
    if reexports.is_empty() {
        return TokenStream::new();
    }
    quote! {
        /// The sequential versions of this program's tasks, each under its task's name
        /// (generated): `seq::f(x)` runs task `f`'s body on the calling thread with every
        /// `spawn!` a plain call and every `taskwait!()` nothing, and returns its result.
        /// Runtimes call them for the spawns they run inline.
        pub mod seq {
            #( #reexports )*
        }
    }
}

/// The visibility inside `mod seq` that reaches as far as `vis` does from the program
/// module: a path one module further down.
fn reexport_vis(vis: &Visibility) -> TokenStream {
    match vis {
        Visibility::Public(_) => quote!(pub),
        Visibility::Inherited => quote!(pub(super)),
        Visibility::Restricted(r) => {
            let path = &r.path;
            let first = path.segments.first().map(|s| s.ident.to_string());
            match first.as_deref() {
                Some("crate") => quote!(#vis),
                Some("self") => {
                    let rest = path.segments.iter().skip(1);
                    quote!(pub(in super #( :: #rest )*))
                }
                _ => quote!(pub(in super::#path)),
            }
        }
    }
}
