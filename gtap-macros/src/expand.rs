//! Generating the program: one frame type per task, the task enum, the `Program` impl.
//!
//! ```text
//! // Input:                                 // Output (inside the same module):
//! #[gtap::task]                             pub type __GtapFrame_fib = impl Coroutine<*mut Ctx, Yield = (), Return = u64>;
//! pub fn fib(n: u32) -> u64 { BODY }        #[define_opaque(__GtapFrame_fib)]
//!                                           fn __gtap_frame_fib(n: u32) -> __GtapFrame_fib {
//!                                               #[coroutine] static move |mut ctx: *mut Ctx| -> u64 { let mut n = n; LOWERED BODY }
//!                                           }
//!                                           pub fn fib(n: u32) -> Call<Program, u64> { Call::__new(Task::fib(__gtap_frame_fib(n))) }
//!                                           pub struct Program;
//!                                           pub enum Task { fib(__GtapFrame_fib), .. }
//!                                           impl gtap::Program for Program { .. match on Task .. }
//!                                           const _: () = if size_of::<__GtapFrame_fib>() > max { panic!("{}", frame_message(..)) };
//!                                           #[cfg(nvptx64)] extern "ptx-kernel" fn gtap_fib(run) { thread_worker::<Program, ProfileOff, SchedWorkStealing>(run) }
//!                                           #[cfg(all(nvptx64, gtap_lab))] extern "ptx-kernel" fn gtap_fib_profiled(run) { .. }  // and _one_at_a_time, _global_queue
//! ```

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::token::Comma;
use syn::{FnArg, Ident, ItemFn, ItemMod, Pat, ReturnType, Type};

use crate::ast::ProgramModule;
use crate::attr::Options;
use crate::lifetimes;
use crate::locals;
use crate::lower;
use crate::seq::{self, SeqOut};
use crate::split::{self, Split};
use crate::valid;

/// `#[gtap::program(...)] mod m { ... }`.
pub fn program(attr: TokenStream, item: TokenStream) -> TokenStream {
    let module: ItemMod = match syn::parse2(item.clone()) {
        Ok(m) => m,
        Err(_) => {
            let err = syn::Error::new(
                Span::call_site(),
                "#[gtap::program] goes on an inline module: `mod name { ... }`",
            );
            return with_error(item, err);
        }
    };
    let parsed = match ProgramModule::parse(module.clone()) {
        Ok(p) => p,
        Err(e) => return with_error(quote!(#module), e),
    };
    // A bad option is reported, and the program still expands with the defaults, so that
    // the option's error is the only one.
    let (opts, opt_err) = match Options::parse(attr) {
        Ok(o) => (o, None),
        Err(e) => (Options::default(), Some(e)),
    };
    let mut out = expand(parsed, &opts);
    if let Some(e) = opt_err {
        out.extend(e.to_compile_error());
    }
    out
}

fn with_error(item: TokenStream, err: syn::Error) -> TokenStream {
    let err = err.to_compile_error();
    quote! { #item #err }
}

struct TaskOut {
    name: syn::Ident,
    frame_ty: TokenStream,
    /// The `#[repr(C)]` struct of the task's arguments (or `Infallible` for a fallback).
    args_ty: TokenStream,
    /// Builds the frame from a value `a` of `args_ty`.
    start: TokenStream,
    items: TokenStream,
    /// Stands in for a task whose signature was rejected (see [`fallback_task`]).
    fallback: bool,
    /// The task's sequential version (thread tasks that are not fallbacks).
    seq: Option<SeqOut>,
    /// A block task (`#[gtap::task(block)]`).
    block: bool,
    /// Its body has a spawn the granularity policy weighs ([`lower::Lowered::weighs`]).
    weighs: bool,
    /// A hidden split task's arm of `Program::run_seq` ([`Split::seq_arm`]).
    split_seq: Option<TokenStream>,
    /// Its name in statistics and messages.
    display: String,
}

fn expand(parsed: ProgramModule, opts: &Options) -> TokenStream {
    let ProgramModule {
        mut module,
        tasks,
        block,
        seq: given,
        errors: module_errors,
    } = parsed;
    // A program with any block task runs on teams; one with both kinds is mixed.
    let kinds = Kinds {
        block: block.iter().any(|&b| b),
        mixed: block.iter().any(|&b| b) && !block.iter().all(|&b| b),
    };
    let (splits, split_error) = program_splits(&tasks, &given, kinds, opts);
    let (mut all_tasks, mut all_block, mut all_given) = (tasks, block, given);
    let mut split_of: Vec<Option<&Split>> = vec![None; all_tasks.len()];
    for s in &splits {
        all_tasks.push(s.task.clone());
        all_block.push(false);
        all_given.push(None);
        split_of.push(Some(s));
    }
    let mut errors = module_errors;
    if kinds.block {
        errors.extend(all_given.iter().flatten().map(|path| {
            syn::Error::new_spanned(
                path,
                "a program with block tasks has no sequential versions (its tasks run on \
                 teams): remove `seq = ..`",
            )
        }));
    }
    let kinds_of = TaskKinds {
        block: &all_block,
        given: &all_given,
        split_of: &split_of,
    };
    let (outs, has_taskwait, mut errors) =
        expand_tasks(&all_tasks, &kinds_of, !kinds.block, errors);
    errors.extend(split_error);
    let module_name = opts
        .name
        .clone()
        .unwrap_or_else(|| module.ident.to_string());
    let all_names: Vec<_> = outs.iter().map(|o| &o.name).collect();
    let name_strs: Vec<_> = outs.iter().map(|o| o.display.clone()).collect();
    let walks = splits.iter().map(|s| &s.walk);
    let frames: Vec<_> = outs.iter().map(|o| &o.frame_ty).collect();
    let args_tys: Vec<_> = outs.iter().map(|o| &o.args_ty).collect();
    let items = outs.iter().map(|o| &o.items);
    let seq_items = outs.iter().filter_map(|o| o.seq.as_ref().map(|s| &s.items));
    let reexports: Vec<_> = outs
        .iter()
        .filter_map(|o| o.seq.as_ref().map(|s| &s.reexport))
        .collect();
    let seq_module = seq::seq_module(&reexports);
    let size_checks = size_checks(&outs, opts, &module_name);
    let errs = errors.iter().map(syn::Error::to_compile_error);
    let variant_docs: Vec<String> = name_strs
        .iter()
        .map(|n| format!("The frame of task `{n}`."))
        .collect();
    let args_docs: Vec<String> = name_strs
        .iter()
        .map(|n| format!("The arguments of task `{n}`."))
        .collect();
    let program_impl = program_impl(&outs, &splits, opts, &module_name, has_taskwait, kinds);
    let kernel = kernel(kinds, &module_name);

    let generated = quote! {
        /// This module's task program (generated by `#[gtap::program]`).
        pub struct Program;

        /// One variant per task of this program, holding its frame (generated).
        #[allow(non_camel_case_types)]
        pub enum Task { #( #[doc = #variant_docs] #all_names(#frames), )* }

        /// One variant per task of this program, holding its arguments, with a layout the
        /// host and the GPU agree on (generated).
        #[repr(C)]
        #[allow(non_camel_case_types)]
        pub enum Args { #( #[doc = #args_docs] #all_names(#args_tys), )* }

        #( #items )*

        #( #seq_items )*

        #( #walks )*

        #seq_module

        #program_impl

        #kernel

        #( #size_checks )*
        #( #errs )*
    };
    if let Some((_, items)) = module.content.as_mut() {
        items.push(syn::Item::Verbatim(generated));
    }
    quote!(#module)
}

/// What each task of a program is, one entry per task (split tasks included).
struct TaskKinds<'a> {
    /// A block task.
    block: &'a [bool],
    /// The sequential version it names (`#[gtap::task(seq = f)]`).
    given: &'a [Option<syn::Path>],
    /// The split it is the hidden task of.
    split_of: &'a [Option<&'a Split>],
}

/// Every task's items (a stand-in for each whose signature was rejected), whether any task
/// waits, and every error found so far (`errors`: the module's own, first).
fn expand_tasks(
    tasks: &[ItemFn],
    kinds: &TaskKinds<'_>,
    elide: bool,
    mut errors: Vec<syn::Error>,
) -> (Vec<TaskOut>, bool, Vec<syn::Error>) {
    let (block, split_of) = (kinds.block, kinds.split_of);
    let mut outs = Vec::new();
    let mut has_taskwait = false;
    let sig_errors: Vec<Vec<syn::Error>> = tasks
        .iter()
        .zip(block)
        .map(|(task, &task_block)| {
            let mut sig_errors = valid::check_signature(task);
            if task_block && sig_errors.is_empty() {
                sig_errors.extend(valid::check_block_param(task).err());
            }
            if !task_block {
                sig_errors.extend(valid::check_no_team_views(task));
            }
            sig_errors
        })
        .collect();
    // The tasks whose spawns a sequential version calls directly.
    // (Not the split tasks: a split task's sequential version is its task's.)
    let seq_tasks: Vec<(Ident, usize)> = tasks
        .iter()
        .zip(block)
        .zip(&sig_errors)
        .zip(split_of)
        .filter(|(((_, b), e), s)| !**b && e.is_empty() && s.is_none())
        .map(|(((t, _), _), _)| (t.sig.ident.clone(), t.sig.inputs.len()))
        .collect();
    // Every task, for the check that a body calls none like a function.
    let siblings: Vec<lower::Sibling> = tasks
        .iter()
        .map(|t| lower::Sibling {
            name: t.sig.ident.clone(),
            ret: result_type(t),
            seq: elide && seq_tasks.iter().any(|(n, _)| *n == t.sig.ident),
        })
        .collect();
    for ((((task, &task_block), sig_errors), split), given) in tasks
        .iter()
        .zip(block)
        .zip(sig_errors)
        .zip(split_of)
        .zip(kinds.given)
    {
        if !sig_errors.is_empty() {
            errors.extend(sig_errors);
            outs.push(fallback_task(task));
            continue;
        }
        let index = outs.len() as u32;
        let seq = elide && split.is_none();
        let seq = seq.then_some(SeqOf {
            tasks: &seq_tasks,
            given: given.as_ref(),
        });
        let (mut out, waits, errs) = expand_task(task, index, task_block, seq, &siblings);
        if let Some(s) = split {
            out.split_seq = Some(s.seq_arm.clone());
            out.display = split::split_display(&s.of);
        }
        has_taskwait |= waits;
        errors.extend(errs);
        outs.push(out);
    }
    (outs, has_taskwait, errors)
}

/// The split tasks of a program ([`split::split_task`]): those of the tasks that qualify,
/// unless it said `split = false`; with `split = true`, an error when none can be made.
fn program_splits(
    tasks: &[ItemFn],
    given: &[Option<syn::Path>],
    kinds: Kinds,
    opts: &Options,
) -> (Vec<Split>, Option<syn::Error>) {
    if opts.split == Some(false) {
        return (Vec::new(), None);
    }
    let why = if kinds.block {
        Some("a program with block tasks has no sequential versions to walk")
    } else if opts.max_frame_bytes < split::MIN_FRAME_BYTES {
        Some(
            "a split task keeps 32 results in its frame, which needs `max_frame_bytes` of at least 512",
        )
    } else {
        None
    };
    let splits = if why.is_none() {
        splits(tasks, given)
    } else {
        Vec::new()
    };
    if !splits.is_empty() || opts.split.is_none() {
        return (splits, None);
    }
    let msg = format!(
        "`split = true`: no task of this program can be split by a budget of work ({}); \
         a task qualifies when its result is an unsigned integer of at most 64 bits that is the \
         sum of its children's, read through handles (`let a = spawn!(f(..)); .. taskwait!(); \
         a.get() + b.get()`), and no spawn or taskwait names a queue or forces a task",
        why.unwrap_or("none has that form")
    );
    (Vec::new(), Some(syn::Error::new(Span::call_site(), msg)))
}

/// The split tasks of a thread program's tasks that qualify ([`split::split_task`]); none
/// for a task whose signature is rejected (its errors are its own expansion's), nor for one
/// that names its own sequential version: the user said how its calls run sequentially,
/// and a split task would walk them through its body instead.
fn splits(tasks: &[ItemFn], given: &[Option<syn::Path>]) -> Vec<Split> {
    tasks
        .iter()
        .zip(given)
        .filter(|(_, given)| given.is_none())
        .map(|(t, _)| t)
        .filter(|t| {
            valid::check_signature(t).is_empty() && valid::check_no_team_views(t).is_empty()
        })
        .filter_map(|t| {
            let (params, _) = call_params(t, false);
            let (names, _) = names_and_types(&params);
            split::split_task(t, &params, &names, &result_type(t))
        })
        .collect()
}

/// One compile-time check per (non-fallback) task that its frame fits `max_frame_bytes`.
fn size_checks<'a>(
    outs: &'a [TaskOut],
    opts: &Options,
    module_name: &'a str,
) -> impl Iterator<Item = TokenStream> + 'a {
    let max_frame = opts.max_frame_bytes as usize;
    outs.iter().filter(|o| !o.fallback).map(move |o| {
        let ty = &o.frame_ty;
        let task = o.name.to_string();
        quote_spanned! {o.name.span()=>
            const _: () = {
                let size = ::core::mem::size_of::<#ty>();
                if size > #max_frame {
                    ::core::panic!(
                        "{}",
                        ::gtap::__private::frame_message(size, #max_frame, #task, #module_name)
                            .as_str()
                    );
                }
            };
        }
    })
}

/// `impl gtap::Program for Program`: building, resuming and naming the tasks.
fn program_impl(
    outs: &[TaskOut],
    splits: &[Split],
    opts: &Options,
    module_name: &str,
    has_taskwait: bool,
    kinds: Kinds,
) -> TokenStream {
    let names: Vec<_> = outs
        .iter()
        .filter(|o| !o.fallback)
        .map(|o| &o.name)
        .collect();
    let fallback_names: Vec<_> = outs
        .iter()
        .filter(|o| o.fallback)
        .map(|o| &o.name)
        .collect();
    let all_names: Vec<_> = outs.iter().map(|o| &o.name).collect();
    let name_strs: Vec<_> = outs.iter().map(|o| o.display.clone()).collect();
    let starts: Vec<_> = outs.iter().map(|o| &o.start).collect();
    let max_children = opts.max_children as u32;
    let indices = (0..outs.len() as u32).collect::<Vec<_>>();
    let ctx = quote!(::gtap::__private::Ctx);
    let seq = seq_impl(outs, kinds.block);
    let split_impl = split_impl(splits);
    let (is_block, mixed) = (kinds.block, kinds.mixed);
    let kind_arms = outs.iter().map(|o| {
        let (name, block) = (&o.name, o.block);
        quote!(Task::#name(_) => #block,)
    });
    quote! {
        impl ::gtap::Program for Program {
            type Task = Task;
            type Args = Args;

            #[inline(always)]
            fn start(args: Args) -> Task {
                match args { #( Args::#all_names(a) => #starts, )* }
            }
            const NAME: &'static str = #module_name;
            const HAS_TASKWAIT: bool = #has_taskwait;
            const MAX_CHILDREN: u32 = #max_children;
            const BLOCK: bool = #is_block;
            const MIXED: bool = #mixed;

            fn task_is_block(task: &Task) -> bool {
                match task { #( #kind_arms )* }
            }

            #[inline(always)]
            unsafe fn resume(task: ::core::pin::Pin<&mut Task>, ctx: *mut #ctx) -> ::gtap::Step {
                // SAFETY: the caller keeps the frame pinned in its record (trait contract), so
                // projecting the pin to the variant's frame is sound.
                match unsafe { task.get_unchecked_mut() } {
                    #(
                        Task::#names(frame) => {
                            // SAFETY: as above; the frame is not moved while pinned.
                            let frame = unsafe { ::core::pin::Pin::new_unchecked(frame) };
                            match ::core::ops::Coroutine::resume(frame, ctx) {
                                ::core::ops::CoroutineState::Yielded(()) => ::gtap::Step::Wait,
                                ::core::ops::CoroutineState::Complete(value) => {
                                    // SAFETY: `ctx` describes this task (trait contract); its
                                    // parent gave a slot of this task's result type.
                                    unsafe { ::gtap::__private::deliver(ctx, value) };
                                    ::gtap::Step::Done
                                }
                            }
                        }
                    )*
                    #( Task::#fallback_names(never) => match *never {}, )*
                }
            }

            fn task_name(task: &Task) -> &'static str {
                match task { #( Task::#all_names(_) => #name_strs, )* }
            }

            const TASK_NAMES: &'static [&'static str] = &[#( #name_strs ),*];

            fn task_index(task: &Task) -> u32 {
                match task { #( Task::#all_names(_) => #indices, )* }
            }

            #seq

            #split_impl
        }
    }
}

/// `Program::SPLITS` and `Program::split` of a program with split tasks (none: the defaults).
fn split_impl(splits: &[Split]) -> TokenStream {
    if splits.is_empty() {
        return TokenStream::new();
    }
    let arms = splits.iter().map(|s| &s.arm);
    quote! {
        const SPLITS: bool = true;

        #[inline(always)]
        fn split(args: Args, budget: u32) -> Args {
            match args {
                #( #arms )*
                other => other,
            }
        }
    }
}

/// `Program::SEQ` and `Program::run_seq` of a thread program: a `match` on the arguments
/// that calls the task's sequential version. Block programs keep the defaults (none).
fn seq_impl(outs: &[TaskOut], is_block: bool) -> TokenStream {
    if is_block {
        return TokenStream::new();
    }
    let arms = outs.iter().map(|o| match (&o.seq, &o.split_seq) {
        (Some(s), _) => s.arm.clone(),
        // A split task's sequential version is its task's, on each of its calls.
        (None, Some(arm)) => arm.clone(),
        (None, None) => {
            let name = &o.name;
            quote!(Args::#name(never) => match never {},)
        }
    });
    let weighs = outs.iter().any(|o| o.weighs && o.seq.is_some());
    let named = outs.iter().any(|o| o.seq.as_ref().is_some_and(|s| s.named));
    quote! {
        const SEQ: bool = true;
        const WEIGHS: bool = #weighs;
        const NAMED_SEQ: bool = #named;

        #[inline(always)]
        unsafe fn run_seq(args: Args, out: *mut u8) -> u32 {
            match args { #( #arms )* }
        }
    }
}

/// The program's GPU kernel: block programs get the block-level kernel (one worker per
/// thread block) and no profiled one (the profiler records warps' rounds); a program with
/// both kinds of task gets the mixed kernel (warps run thread tasks, blocks block tasks).
fn kernel(kinds: Kinds, module_name: &str) -> TokenStream {
    let kernel_name = format!("gtap_{module_name}");
    if kinds.mixed {
        return quote! {
            /// The GPU kernel of this program (thread and block tasks): every warp runs
            /// thread tasks, and every thread block, all its warps together, the block tasks
            /// its leader takes (generated).
            #[cfg(target_arch = "nvptx64")]
            #[unsafe(export_name = #kernel_name)]
            pub unsafe extern "ptx-kernel" fn __gtap_kernel(run: *mut ::gtap::__private::GpuRun) {
                // SAFETY: the host's GPU runtime launches this kernel with a control block it
                // filled for this mixed program, and the shared memory its blocks need.
                unsafe { ::gtap::__private::gpu_mixed_worker::<Program>(run) }
            }
        };
    }
    if !kinds.block {
        return thread_kernels(module_name);
    }
    quote! {
        /// The GPU kernel of this program (block-level workers): a persistent loop in
        /// which every thread block runs one block task at a time (generated).
        #[cfg(target_arch = "nvptx64")]
        #[unsafe(export_name = #kernel_name)]
        pub unsafe extern "ptx-kernel" fn __gtap_kernel(run: *mut ::gtap::__private::GpuRun) {
            // SAFETY: the host's GPU runtime launches this kernel with a control block it
            // filled for this block program, and the shared memory its blocks need.
            unsafe { ::gtap::__private::gpu_block_worker::<Program>(run) }
        }
    }
}

/// A thread program's kernels: the plain one (work stealing, no profiler) and, in the lab
/// build, the profiled one (any scheduler, chosen by the run's tuning bits) and one per
/// ablation scheduler.
fn thread_kernels(module_name: &str) -> TokenStream {
    let kernel_name = format!("gtap_{module_name}");
    let profiled_kernel_name = format!("gtap_{module_name}_profiled");
    let one_at_a_time_kernel_name = format!("gtap_{module_name}_one_at_a_time");
    let global_queue_kernel_name = format!("gtap_{module_name}_global_queue");
    quote! {
        /// The GPU kernel of this program (thread-level workers): a persistent loop over
        /// the run's control block, which the host's GPU runtime sets up (generated).
        #[cfg(target_arch = "nvptx64")]
        #[unsafe(export_name = #kernel_name)]
        pub unsafe extern "ptx-kernel" fn __gtap_kernel(run: *mut ::gtap::__private::GpuRun) {
            // SAFETY: the host's GPU runtime launches this kernel with a control block it
            // filled for this program, and the shared memory the worker needs.
            unsafe {
                ::gtap::__private::gpu_thread_worker::<
                    Program,
                    ::gtap::__private::ProfileOff,
                    ::gtap::__private::SchedWorkStealing,
                >(run)
            }
        }

        /// The lab kernels of this program (generated): the profiled kernel, the same loop
        /// recording a per-warp timeline under any scheduler, and the two ablation
        /// schedulers' kernels. They exist only when this crate is built for the GPU with
        /// `--cfg gtap_lab` (gtap-builder's `PtxBuilder::lab(true)` or `GTAP_LAB=1`); the
        /// cfg is only looked at in the GPU build.
        #[cfg(target_arch = "nvptx64")]
        #[allow(unexpected_cfgs)]
        #[doc(hidden)]
        pub mod __gtap_lab {
            use ::gtap::__private::{GpuRun, ProfileOff, ProfileOn, gpu_thread_worker};
            use ::gtap::__private::{SchedByTuning, SchedGlobalQueue, SchedOneAtATime};

            #[cfg(gtap_lab)]
            #[unsafe(export_name = #profiled_kernel_name)]
            pub unsafe extern "ptx-kernel" fn __gtap_profiled(run: *mut GpuRun) {
                // SAFETY: as for the plain kernel; the host allocated the profile buffers
                // the run names, or left their addresses 0.
                unsafe { gpu_thread_worker::<super::Program, ProfileOn, SchedByTuning>(run) }
            }

            #[cfg(gtap_lab)]
            #[unsafe(export_name = #one_at_a_time_kernel_name)]
            pub unsafe extern "ptx-kernel" fn __gtap_one_at_a_time(run: *mut GpuRun) {
                // SAFETY: as for the plain kernel.
                unsafe { gpu_thread_worker::<super::Program, ProfileOff, SchedOneAtATime>(run) }
            }

            #[cfg(gtap_lab)]
            #[unsafe(export_name = #global_queue_kernel_name)]
            pub unsafe extern "ptx-kernel" fn __gtap_global_queue(run: *mut GpuRun) {
                // SAFETY: as for the plain kernel; the host allocated the global queue.
                unsafe { gpu_thread_worker::<super::Program, ProfileOff, SchedGlobalQueue>(run) }
            }
        }
    }
}

/// A block task's `Block` parameter: its pattern and its type.
type BlockParam = (Box<Pat>, Box<Type>);

/// A task's parameters as its calls see them: a block task's first parameter, its `Block`
/// handle (pattern and type), is split off, as it is no argument of its calls.
fn call_params(task: &ItemFn, block: bool) -> (Punctuated<FnArg, Comma>, Option<BlockParam>) {
    let mut params = task.sig.inputs.clone();
    let block_param = if block {
        let first = params.iter().next().cloned();
        params = params.into_iter().skip(1).collect();
        match first {
            Some(FnArg::Typed(pt)) => Some((pt.pat, pt.ty)),
            _ => None,
        }
    } else {
        None
    };
    (params, block_param)
}

/// The names (plain-ident patterns only) and the types of `params`.
fn names_and_types(params: &Punctuated<FnArg, Comma>) -> (Vec<Ident>, Vec<&Type>) {
    let arg_names = params
        .iter()
        .filter_map(|a| match a {
            FnArg::Typed(pt) => match &*pt.pat {
                Pat::Ident(p) => Some(p.ident.clone()),
                _ => None,
            },
            FnArg::Receiver(_) => None,
        })
        .collect();
    let arg_types = params
        .iter()
        .filter_map(|a| match a {
            FnArg::Typed(pt) => Some(&*pt.ty),
            FnArg::Receiver(_) => None,
        })
        .collect();
    (arg_names, arg_types)
}

/// A block task's parameters declared `TeamMut<..>` with a plain name: their types become
/// `ViewMut<..>` (what callers lend). Returns their names and declared types, for each
/// thread to take its `TeamMut` at the start of the body (`gtap_device::data::TeamMut`), and
/// for each typed parameter in order whether it is one.
fn team_views(params: &mut Punctuated<FnArg, Comma>) -> (Vec<(Ident, Type)>, Vec<bool>) {
    let (mut names, mut is_team) = (Vec::new(), Vec::new());
    for param in params.iter_mut() {
        let FnArg::Typed(pt) = param else { continue };
        let team = match (&*pt.ty, &*pt.pat) {
            (Type::Path(tp), Pat::Ident(p)) => tp
                .path
                .segments
                .last()
                .filter(|last| tp.qself.is_none() && last.ident == "TeamMut")
                .map(|last| (p.ident.clone(), last.arguments.clone())),
            _ => None,
        };
        is_team.push(team.is_some());
        if let Some((name, args)) = team {
            // The user's own type names `TeamMut` in the body (so their import is used).
            names.push((name, (*pt.ty).clone()));
            *pt.ty = syn::parse_quote!(::gtap::ViewMut #args);
        }
    }
    (names, is_team)
}

/// The task's result type, `()` when it has none.
fn result_type(task: &ItemFn) -> TokenStream {
    match &task.sig.output {
        ReturnType::Default => quote!(()),
        ReturnType::Type(_, ty) => quote!(#ty),
    }
}

/// Which kinds of task a program has.
#[derive(Clone, Copy)]
struct Kinds {
    /// At least one block task: the program runs on teams (GPU thread blocks).
    block: bool,
    /// Block tasks and thread tasks both.
    mixed: bool,
}

/// The frame type, frame constructor and task constructor of one task (the `index`-th of
/// its program); its sequential version too when `seq_tasks` is given (a thread task of a
/// program of thread tasks only).
/// What a task's sequential version is made from: the program's tasks that have one (with
/// their numbers of arguments), and the function the task names as its own, if it does.
#[derive(Clone, Copy)]
struct SeqOf<'a> {
    tasks: &'a [(Ident, usize)],
    given: Option<&'a syn::Path>,
}

fn expand_task(
    task: &ItemFn,
    index: u32,
    block: bool,
    seq_of: Option<SeqOf<'_>>,
    siblings: &[lower::Sibling],
) -> (TaskOut, bool, Vec<syn::Error>) {
    let name = task.sig.ident.clone();
    let TaskNames {
        frame_ty,
        frame_fn,
        args_struct,
    } = TaskNames::of(&name);
    let ret = result_type(task);
    let (mut params, block_param) = call_params(task, block);
    let (team, is_team) = if block {
        team_views(&mut params)
    } else {
        (Vec::new(), Vec::new())
    };
    let (arg_names, arg_types) = names_and_types(&params);
    // Every elided lifetime of the parameters is the task's argument lifetime (`lifetimes`):
    // a parameter of the frame fn, the arguments struct and the constructor, and `'static`
    // where the frame and the arguments are stored and where their types are checked.
    let lt = lifetimes::task_lifetime();
    let statik = syn::Lifetime::new("'static", Span::call_site());
    let types_g: Vec<Type> = arg_types
        .iter()
        .map(|t| lifetimes::name_elided(t, &lt))
        .collect();
    let types_static: Vec<Type> = arg_types
        .iter()
        .map(|t| lifetimes::name_elided(t, &statik))
        .collect();
    let borrows = arg_types.iter().any(|t| lifetimes::borrows(t));
    let params_g = params_with_types(&params, &types_g);

    let lowered = lower::lower((*task.block).clone(), block, siblings);
    // Only a task that names its sequential version runs whole: a generated version does
    // what the per-child calls do, and the policy reads more from those (a call that was a
    // leaf, a round of heavy leaf tasks, which a whole call of a leaf task would hide).
    let whole = lowered.whole && !block && seq_of.is_some_and(|of| of.given.is_some());
    let body = frame_body(
        task,
        &lowered.block,
        &arg_names,
        &team,
        block_param.as_ref(),
        whole,
    );
    let items = task_items(
        task,
        &TaskSig {
            index,
            block,
            borrows,
            ret: &ret,
            arg_names: &arg_names,
            arg_types: &arg_types,
            types_g: &types_g,
            types_static: &types_static,
            is_team: &is_team,
            params_g: &params_g,
        },
        &body,
    );
    let start = quote!(Task::#name(#frame_fn(#( a.#arg_names ),*)));
    let seq = seq_of.filter(|_| !block).map(|of| match of.given {
        Some(path) => seq::given_seq_task(task, &params, &arg_names, &ret, path),
        None => seq::seq_task(task, &params, &arg_names, &ret, of.tasks, siblings),
    });
    let out = TaskOut {
        name,
        frame_ty: quote!(#frame_ty<'static>),
        args_ty: quote!(#args_struct<'static>),
        start,
        items,
        fallback: false,
        seq,
        block,
        weighs: lowered.weighs,
        split_seq: None,
        display: task.sig.ident.to_string(),
    };
    (out, lowered.has_taskwait, lowered.errors)
}

/// The names the macro gives a task's generated items.
struct TaskNames {
    frame_ty: Ident,
    frame_fn: Ident,
    args_struct: Ident,
}

impl TaskNames {
    fn of(name: &Ident) -> TaskNames {
        TaskNames {
            frame_ty: format_ident!("__GtapFrame_{}", name),
            frame_fn: format_ident!("__gtap_frame_{}", name),
            args_struct: format_ident!("__GtapArgs_{}", name),
        }
    }
}

/// What [`task_items`] needs of a task's signature, as [`expand_task`] prepared it.
struct TaskSig<'a> {
    /// The task's index in its program.
    index: u32,
    block: bool,
    /// Some argument borrows (the `Call` must keep the borrow).
    borrows: bool,
    ret: &'a TokenStream,
    arg_names: &'a [Ident],
    arg_types: &'a [&'a Type],
    /// The argument types with their elided lifetimes named `'task`, and `'static`.
    types_g: &'a [Type],
    types_static: &'a [Type],
    is_team: &'a [bool],
    /// The parameters with `types_g`.
    params_g: &'a TokenStream,
}

/// A task's frame type and frame fn (its body as a coroutine), its type checks, its
/// constructor (the function users call, which returns a `Call`) and its arguments struct.
fn task_items(task: &ItemFn, sig: &TaskSig, body: &TokenStream) -> TokenStream {
    let TaskNames {
        frame_ty,
        frame_fn,
        args_struct,
    } = TaskNames::of(&task.sig.ident);
    let name = &task.sig.ident;
    let (vis, attrs) = (&task.vis, &task.attrs);
    let TaskSig {
        index,
        block,
        borrows,
        ret,
        arg_names,
        arg_types,
        types_g,
        types_static,
        is_team,
        params_g,
    } = *sig;
    let lt = lifetimes::task_lifetime();
    // Block frames are copied to every thread of the team, so they must be movable: no
    // borrow of a local may cross a taskwait (the compiler checks it for a non-`static`
    // coroutine). Thread-task frames stay put in their records and may borrow themselves.
    let movability = if block { quote!() } else { quote!(static) };
    let ctx = lower::ctx_ident();
    let ctx_ty = quote!(::gtap::__private::Ctx);
    let type_checks = type_checks(task, arg_types, types_static, is_team, ret, block);
    let gpu_root = arg_types.iter().zip(types_g).map(|(t, g)| {
        quote_spanned! {t.span()=> (&::gtap::__private::Probe::<#g>::new()).__gtap_gpu_root() }
    });

    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        pub type #frame_ty<#lt> = impl ::core::ops::Coroutine<*mut #ctx_ty, Yield = (), Return = #ret>;

        #[doc(hidden)]
        #[define_opaque(#frame_ty)]
        #[allow(unused_mut, unused_assignments, non_snake_case, clippy::all)]
        fn #frame_fn<#lt>(#params_g) -> #frame_ty<#lt> {
            #[coroutine]
            #movability move |mut #ctx: *mut #ctx_ty| -> #ret #body
        }

        #type_checks

        #( #attrs )*
        // `needless_borrow`: the probes' `&` picks the method (see `gtap_device::task::gpu_root`).
        #[allow(clippy::too_many_arguments, clippy::needless_borrow)]
        #vis fn #name<#lt>(#( #arg_names: #types_g ),*) -> ::gtap::Call<#lt, Program, #ret> {
            use ::gtap::__private::{ProbeGpuRoot as _, ProbeHostRef as _};
            let args = #args_struct::<#lt> {
                #( #arg_names, )*
                __gtap_borrow: ::core::marker::PhantomData,
            };
            // SAFETY: the two types differ only in the lifetime, which has no part in the
            // layout. What the arguments borrow lives for `'task`, and the `Call` says so:
            // whoever consumes it keeps that borrow until the task is complete.
            let args = unsafe {
                ::core::mem::transmute::<#args_struct<#lt>, #args_struct<'static>>(args)
            };
            let gpu_root = true #( && #gpu_root )*;
            // SAFETY: `args` borrows for `'task` (above); task `#index` is this one, which
            // returns `#ret`.
            unsafe { ::gtap::Call::__from_args(Args::#name(args), #index, #borrows, gpu_root) }
        }

        #[doc(hidden)]
        #[repr(C)]
        #[allow(non_camel_case_types)]
        pub struct #args_struct<#lt> {
            #( pub #arg_names: #types_g, )*
            /// The lifetime of what the arguments borrow (none but `'static` for a stored one).
            pub __gtap_borrow: ::core::marker::PhantomData<&#lt ()>,
        }
    }
}

/// `params` with each type replaced by the one in `types` (the same order), patterns kept.
fn params_with_types(params: &Punctuated<FnArg, Comma>, types: &[Type]) -> TokenStream {
    let mut types = types.iter();
    let params = params.iter().map(|a| match a {
        FnArg::Typed(pt) => {
            let (attrs, pat) = (&pt.attrs, &pt.pat);
            let ty = types.next().expect("one type per typed parameter");
            quote!(#( #attrs )* #pat: #ty)
        }
        FnArg::Receiver(r) => quote!(#r),
    });
    quote!(#( #params ),*)
}

/// The coroutine's body: the block task's handle, the arguments read before the first
/// taskwait copied into locals (see `locals`), then the lowered body. A task that may run
/// `whole` (one that names its sequential version, whose every spawn the policy weighs)
/// first asks the runtime whether it runs as its sequential version instead
/// (`gtap_device::task::ctx::run_whole`): where the policy would run every spawn of the
/// body inline, one call of the task's sequential version does the same work as those
/// calls, without a decision and a timed call for each child.
fn frame_body(
    task: &ItemFn,
    lowered_body: &syn::Block,
    arg_names: &[Ident],
    team: &[(Ident, Type)],
    block_param: Option<&BlockParam>,
    whole: bool,
) -> TokenStream {
    let (team_names, team_types): (Vec<_>, Vec<_>) = team.iter().cloned().unzip();
    let locals = locals::to_localize(&task.block, &quote!(#lowered_body), arg_names)
        .into_iter()
        .map(|n| quote!(let mut #n = #n;));
    match block_param {
        // The user's own type names the handle (so their `use gtap::Block` is used).
        Some((pat, ty)) => quote! {{
            // SAFETY: this is a block task, run only by a block-program runtime.
            let #pat: #ty = unsafe { <#ty>::__new() };
            #( #locals )*
            // SAFETY: once per thread of the team, with the view the task was lent.
            #( let mut #team_names = unsafe { <#team_types>::__from_view(#team_names) }; )*
            #lowered_body
        }},
        None => {
            let name = &task.sig.ident;
            let ctx = lower::ctx_ident();
            let whole = whole.then(|| {
                quote! {
                    // SAFETY: `ctx` is this task's context, given for its first resume.
                    if unsafe { ::gtap::__private::runs_whole::<Program>(#ctx) } {
                        // SAFETY: as above; the call is this task's own, with its arguments.
                        return unsafe {
                            ::gtap::__private::run_whole(#ctx, self::#name(#( #arg_names ),*))
                        };
                    }
                }
            });
            quote! {{
                #whole
                #( #locals )*
                #lowered_body
            }}
        }
    }
}

/// Compile-time checks, at the user's tokens, that every parameter may cross to a child
/// (`Send`, no drop glue; `Copy` for a block task) and the result may cross back. The
/// parameters are checked as `types_static`: their elided lifetimes as `'static`.
fn type_checks(
    task: &ItemFn,
    arg_types: &[&Type],
    types_static: &[Type],
    is_team: &[bool],
    ret: &TokenStream,
    block: bool,
) -> TokenStream {
    let sig_span = task.sig.span();
    let arg_checks = arg_types.iter().zip(types_static).enumerate().map(|(i, (t, st))| {
        // A team view is lent whole to the team, and no thread holds it whole (`TeamMut`).
        let block = block && !is_team.get(i).copied().unwrap_or(false);
        let drop_msg = format!(
            "gtap: a task parameter of type `{}` has drop glue (it owns memory or runs code when \
             dropped): arguments move between threads and task records, and a GPU never runs a \
             drop. Pass plain values, views (`gtap::View`, `gtap::ViewMut`) or references",
            quote!(#t)
                .to_string()
                .replace(" <", "<")
                .replace("< ", "<")
                .replace(" >", ">")
        )
        .replace('{', "{{")
        .replace('}', "}}");
        let block_check = block.then(|| {
            quote_spanned! {t.span()=> const _: fn() = ::gtap::__private::assert_block_arg::<#st>; }
        });
        quote_spanned! {t.span()=>
            const _: fn() = ::gtap::__private::assert_task_arg::<#st>;
            const _: () = ::core::assert!(!::gtap::__private::has_drop_glue::<#st>(), #drop_msg);
            #block_check
        }
    });
    let ret_span = match &task.sig.output {
        ReturnType::Default => sig_span,
        ReturnType::Type(_, ty) => ty.span(),
    };
    let ret_check =
        quote_spanned! {ret_span=> const _: fn() = ::gtap::__private::assert_task_result::<#ret>; };
    quote! {
        #( #arg_checks )*
        #ret_check
    }
}

/// A stand-in for a task whose signature was rejected: its constructor keeps the signature
/// (so callers do not cascade into "not found" errors) and its variant can never exist.
fn fallback_task(task: &ItemFn) -> TaskOut {
    let name = task.sig.ident.clone();
    let vis = &task.vis;
    let mut sig = task.sig.clone();
    sig.asyncness = None;
    sig.constness = None;
    sig.unsafety = None;
    let ret = result_type(task);
    sig.output = syn::parse_quote!(-> ::gtap::Call<'static, Program, #ret>);
    let items = quote! {
        #[allow(unused_variables, clippy::all)]
        #vis #sig { ::core::unreachable!() }
    };
    TaskOut {
        name,
        frame_ty: quote!(::core::convert::Infallible),
        args_ty: quote!(::core::convert::Infallible),
        start: quote!(match a {}),
        items,
        fallback: true,
        seq: None,
        block: false,
        weighs: false,
        split_seq: None,
        display: task.sig.ident.to_string(),
    }
}

/// `#[gtap::task]` outside a program module.
pub fn stray_task(_attr: TokenStream, item: TokenStream) -> TokenStream {
    let err = syn::Error::new(
        Span::call_site(),
        "#[gtap::task] only works on a fn inside a #[gtap::program] module: \
         `#[gtap::program] mod my_program { #[gtap::task] fn f(..) { .. } }`",
    )
    .to_compile_error();
    quote! { #item #err }
}

/// `spawn!`, `taskwait!` or `slots!` where the program macro did not rewrite it.
pub fn stray_macro(name: &str, _input: TokenStream) -> TokenStream {
    let msg = format!(
        "`{name}!` can only be used directly in the body of a #[gtap::task] fn inside a \
         #[gtap::program] module (not in closures, nested fns or other macros' arguments)"
    );
    quote! { ::core::compile_error!(#msg) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expansion of a one-task program, as text without spaces.
    fn expand_text(task: TokenStream) -> String {
        let out = program(quote!(name = "p"), quote!(mod m { #task }));
        out.to_string().replace(' ', "")
    }

    #[test]
    fn arguments_the_body_names_become_locals() {
        let text = expand_text(quote! {
            #[gtap::task]
            fn f(n: u32, unused: u32, mut m: u32) -> u64 {
                m += n;
                m as u64
            }
        });
        assert!(text.contains("letmutn=n;"), "{text}");
        assert!(text.contains("letmutm=m;"), "{text}");
        // Left as a capture, so that the compiler still warns that it is unused.
        assert!(!text.contains("letmutunused=unused;"), "{text}");
    }

    #[test]
    fn a_program_weighs_its_spawns_unless_every_one_is_a_task() {
        let weighed = expand_text(quote! {
            #[gtap::task]
            pub fn f(n: u32) -> u64 {
                let a = spawn!(task, f(n - 1));
                let b = spawn!(f(n - 2));
                taskwait!();
                a.get() + b.get()
            }
        });
        assert!(weighed.contains("constWEIGHS:bool=true;"), "{weighed}");
        let forced = expand_text(quote! {
            #[gtap::task]
            pub fn f(n: u32) {
                if n > 0 {
                    spawn!(task, f(n - 1));
                    spawn!(task, f(n - 2));
                }
            }
        });
        assert!(forced.contains("constWEIGHS:bool=false;"), "{forced}");
    }

    #[test]
    fn a_thread_task_gets_a_sequential_version_that_calls_its_children_directly() {
        let text = expand_text(quote! {
            #[gtap::task]
            pub fn f(n: u32) -> u64 {
                let a = spawn!(f(n - 1));
                spawn!(self::f(n - 2));
                spawn!(g(n));
                taskwait!();
                a.get()
            }
        });
        // The body is the counting version's; what users call starts the count at 0.
        assert!(
            text.contains("pubfn__gtap_seqc_f(n:u32,mut__gtap_spawns:u32)->(u64,u32)"),
            "{text}"
        );
        assert!(
            text.contains("pubfn__gtap_seq_f(n:u32)->u64{__gtap_seqc_f(n,0).0}"),
            "{text}"
        );
        // Each spawn counts itself and its child's spawns.
        assert!(
            text.contains("=__gtap_seqc_f(n-1,__gtap_spawns+1);"),
            "{text}"
        );
        assert!(
            text.contains("=__gtap_seqc_f(n-2,__gtap_spawns+1);"),
            "{text}"
        );
        assert!(
            text.contains("__gtap_spawns=__gtap_spawns_after;__gtap_value"),
            "{text}"
        );
        // Not a task of this program: through the `Call`, whose error the task reports.
        assert!(
            text.contains("into_call::<self::Program,_>(g(n)).__run_seq_counted(__gtap_spawns+1)"),
            "{text}"
        );
        assert!(text.contains("pubmodseq{"), "{text}");
        assert!(text.contains("pubusesuper::__gtap_seq_fasf;"), "{text}");
        assert!(text.contains("constSEQ:bool=true;"), "{text}");
    }

    #[test]
    fn a_small_self_recursive_sequential_version_runs_four_levels_per_call() {
        // Not a sum (which would run a loop on the GPU, as the next test shows).
        let text = expand_text(quote! {
            #[gtap::task]
            fn f(n: u32) -> u64 {
                let a = spawn!(f(n - 1));
                let b = spawn!(f(n - 2));
                taskwait!();
                a.get() ^ b.get()
            }
        });
        // The out-of-line version is never inlined and calls the first inlined copy, each
        // copy the next, the last the out-of-line one: four levels on the GPU, three on
        // the CPU.
        let gpu = "#[cfg(target_arch=\"nvptx64\")]";
        let cpu = "#[cfg(not(target_arch=\"nvptx64\"))]";
        assert_chain(
            &text,
            &[
                "#[inline(never)]fn__gtap_seqc_f(",
                "#[inline(always)]fn__gtap_seqi1_f(",
                &format!("#[inline(always)]{gpu}fn__gtap_seqi2_f("),
                &format!("#[inline(always)]{gpu}fn__gtap_seqi3_f("),
                &format!("#[inline(always)]{cpu}fn__gtap_seqi2_f("),
            ],
            [
                "__gtap_seqi1_f",
                "__gtap_seqi2_f",
                "__gtap_seqi3_f",
                "__gtap_seqc_f",
                "__gtap_seqc_f",
            ],
        );
        assert!(!text.contains("__gtap_seqi4_"), "{text}");
        assert!(!text.contains(&format!("{cpu}fn__gtap_seqi3_f")), "{text}");
    }

    #[test]
    fn a_small_summing_task_loops_on_the_gpu_and_recurses_on_the_cpu() {
        let text = expand_text(quote! {
            #[gtap::task]
            fn f(n: u32) -> u64 {
                if n < 2 {
                    return n as u64;
                }
                let a = spawn!(f(n - 1));
                let b = spawn!(f(n - 2));
                taskwait!();
                a.get() + b.get()
            }
        });
        let gpu = "#[cfg(target_arch=\"nvptx64\")]";
        let cpu = "#[cfg(not(target_arch=\"nvptx64\"))]";
        // The GPU's loop keeps its newest pending call beside its buffer (handles: a fixed
        // number of children).
        assert!(
            text.contains(&format!("#[inline(never)]{gpu}fn__gtap_seqc_f(")),
            "{text}"
        );
        assert!(text.contains("SumStack::<_,true>::new("), "{text}");
        // The CPU's recursion, three levels per call, and no GPU copy of it.
        assert_chain(
            &text,
            &[
                &format!("#[inline(never)]{cpu}fn__gtap_seqc_f("),
                &format!("#[inline(always)]{cpu}fn__gtap_seqi1_f("),
                &format!("#[inline(always)]{cpu}fn__gtap_seqi2_f("),
            ],
            ["__gtap_seqi1_f", "__gtap_seqi2_f", "__gtap_seqc_f"],
        );
        assert!(!text.contains("__gtap_seqi3_"), "{text}");
    }

    /// That each of `signatures` in `text` calls the function of the same place in `calls`
    /// where its task recursed (`f(n - 1)`).
    fn assert_chain<const N: usize>(text: &str, signatures: &[&str; N], calls: [&str; N]) {
        for (signature, call) in signatures.iter().zip(calls) {
            let at = text
                .find(signature)
                .unwrap_or_else(|| panic!("{signature}: {text}"));
            // From the signature to the next function's.
            let body = &text[at + signature.len()..];
            let body = &body[..body.find("fn__gtap_").unwrap_or(body.len())];
            let call = format!("={call}(n-1,__gtap_spawns+1);");
            assert!(
                body.contains(&call),
                "{signature} should call {call}: {text}"
            );
        }
    }

    #[test]
    fn a_larger_self_recursive_sequential_version_runs_fewer_levels_per_call() {
        // About 90 tokens: three levels.
        let medium = expand_text(quote! {
            #[gtap::task]
            fn f(n: u32, a: u32, b: u32) -> u64 {
                if n < 2 {
                    return (a ^ b) as u64;
                }
                let x = a.wrapping_mul(3).wrapping_add(b).rotate_left(5);
                let p = spawn!(f(n - 1, x, b));
                let q = spawn!(f(n - 2, b, x));
                taskwait!();
                p.get().wrapping_add(q.get())
            }
        });
        assert!(
            medium.contains("#[inline(always)]fn__gtap_seqi2_f("),
            "{medium}"
        );
        assert!(!medium.contains("__gtap_seqi3_"), "{medium}");
        // Over 120: two.
        let large = expand_text(quote! {
            #[gtap::task]
            fn f(n: u32, a: u32, b: u32, c: u32) -> u64 {
                if n < 2 {
                    return (a ^ b ^ c) as u64;
                }
                let x = a.wrapping_mul(3).wrapping_add(b).rotate_left(5) ^ c.wrapping_sub(a);
                let y = b.wrapping_mul(7).wrapping_add(c).rotate_left(3) ^ a.wrapping_sub(b);
                let z = c.wrapping_mul(11).wrapping_add(a).rotate_left(7) ^ b.wrapping_sub(c);
                let p = spawn!(f(n - 1, x, y, z));
                let q = spawn!(f(n - 2, y, z, x));
                taskwait!();
                p.get().wrapping_add(q.get()).wrapping_mul((x ^ y ^ z) as u64 | 1)
            }
        });
        assert!(
            large.contains("#[inline(never)]fn__gtap_seqc_f("),
            "{large}"
        );
        assert!(
            large.contains("#[inline(always)]fn__gtap_seqi1_f("),
            "{large}"
        );
        assert!(!large.contains("__gtap_seqi2_"), "{large}");
    }

    #[test]
    fn a_sequential_version_that_calls_another_task_or_three_sites_is_not_unrolled() {
        for body in [
            quote! {
                #[gtap::task]
                fn f(n: u32) -> u64 {
                    let a = spawn!(g(n));
                    taskwait!();
                    a.get()
                }
                #[gtap::task]
                fn g(n: u32) -> u64 {
                    n as u64
                }
            },
            quote! {
                #[gtap::task]
                fn f(n: u32) -> u64 {
                    let a = spawn!(f(n - 1));
                    let b = spawn!(f(n - 2));
                    let c = spawn!(f(n - 3));
                    taskwait!();
                    a.get().max(b.get()).max(c.get())
                }
            },
        ] {
            let text = expand_text(body);
            assert!(!text.contains("__gtap_seqi"), "{text}");
            assert!(!text.contains("inline(never)"), "{text}");
        }
    }

    /// Whether the sequential version of the one task in `text` is the summing loop.
    fn sums(text: &str) -> bool {
        text.contains("SumStack::<_,")
    }

    #[test]
    fn a_task_that_sums_its_children_gets_a_loop_instead_of_a_recursion() {
        // nqueens' shape: children in a loop, into slots, summed; a base case first.
        let text = expand_text(quote! {
            #[gtap::task]
            fn q(n: u32, row: u32, cols: u32) -> u64 {
                if row == n {
                    return 1;
                }
                let mut free = !cols & ((1u32 << n) - 1);
                let counts = slots!(u64; 32);
                while free != 0 {
                    let bit = free & free.wrapping_neg();
                    free ^= bit;
                    spawn!(into counts, queue(0), q(n, row + 1, cols | bit));
                }
                taskwait!();
                counts.iter().sum()
            }
        });
        assert!(sums(&text), "{text}");
        assert!(
            !text.contains("__gtap_seqi1_q"),
            "no inlined copies: {text}"
        );
        // The loop's function is kept out of its callers; a full stack runs the child by
        // it; each spawn takes one of its slots' 32, as the task's would.
        assert!(text.contains("#[inline(never)]fn__gtap_seqc_q("), "{text}");
        // `n` passes unchanged to every child: the stack leaves it out, and a full stack's
        // call passes the parameter itself.
        assert!(
            text.contains("=__gtap_seqc_q(n,__gtap_a1,__gtap_a2,__gtap_spawns+1);"),
            "{text}"
        );
        assert!(text.contains("Err((__gtap_a1,__gtap_a2,))"), "{text}");
        assert!(
            text.contains("seq_slot_taken(&mut__gtap_taken_counts,__gtap_cap_counts)"),
            "{text}"
        );
        assert!(text.contains("let__gtap_cap_counts:usize=32;"), "{text}");
        // Handles read whole, plus a term of its own: that term is the body's part.
        let text = expand_text(quote! {
            #[gtap::task]
            fn nodes(d: u32, width: u32, pad0: u32, pad1: u32, pad2: u32, pad3: u32) -> usize {
                if d == 0 {
                    return 1;
                }
                let x = (pad0 ^ pad1).wrapping_add(pad2.rotate_left(3)) ^ pad3.wrapping_mul(7);
                let y = x.wrapping_mul(31) ^ (pad0 | pad3).wrapping_sub(pad1 & pad2);
                let a = spawn!(nodes(d - 1, width, x, y, pad2, pad3));
                let b = spawn!(nodes(d - 1, width, y, x, pad3, pad2));
                taskwait!();
                (a.get() + 1) + b.get()
            }
        });
        assert!(sums(&text), "parentheses looked through: {text}");
        let text = expand_text(quote! {
            #[gtap::task]
            fn nodes(d: u32) -> usize {
                if d == 0 {
                    return 1;
                }
                let a = spawn!(nodes(d - 1));
                let b = spawn!(nodes(d - 1));
                taskwait!();
                a.get() * 2 + b.get()
            }
        });
        assert!(
            !sums(&text),
            "`a.get() * 2` is a term that names a handle: {text}"
        );
    }

    /// The parameters a summing loop's stack leaves out, by `Err((..))`'s parts: only those
    /// each spawn passes on as they are, unbound again, of a scalar type.
    #[test]
    fn a_summing_loop_stacks_only_the_arguments_that_change() {
        let stacked = |sig: TokenStream, prelude: TokenStream, call: TokenStream| {
            let text = expand_text(quote! {
                #[gtap::task]
                fn q #sig -> u64 {
                    if row == 9 {
                        return 1;
                    }
                    #prelude
                    let counts = slots!(u64; 4);
                    spawn!(into counts, #call);
                    spawn!(into counts, #call);
                    taskwait!();
                    counts.iter().sum()
                }
            });
            assert!(sums(&text), "{text}");
            let at = text.find("Err((").expect("a push") + 5;
            text[at..at + text[at..].find("))").unwrap()].to_string()
        };
        let sig = quote!((n: u32, row: u32, k: u64));
        assert_eq!(
            stacked(sig.clone(), quote!(), quote!(q(n, row + 1, k))),
            "__gtap_a1,"
        );
        // Changed at a spawn, or bound again before it: stacked.
        assert_eq!(
            stacked(sig.clone(), quote!(), quote!(q(n + 0, row + 1, k))),
            "__gtap_a0,__gtap_a1,"
        );
        assert_eq!(
            stacked(
                sig.clone(),
                quote!(let n = n + 1;),
                quote!(q(n, row + 1, k))
            ),
            "__gtap_a0,__gtap_a1,"
        );
        assert_eq!(
            stacked(
                sig.clone(),
                quote!(let f = |k: u64| k;),
                quote!(q(n, row + 1, k))
            ),
            "__gtap_a1,__gtap_a2,"
        );
        // A macro that might bind it, against one that cannot.
        assert_eq!(
            stacked(sig.clone(), quote!(my_macro!(n);), quote!(q(n, row + 1, k))),
            "__gtap_a0,__gtap_a1,"
        );
        assert_eq!(
            stacked(sig, quote!(assert!(n > 0);), quote!(q(n, row + 1, k))),
            "__gtap_a1,"
        );
        // `mut`, or not a scalar: stacked.
        assert_eq!(
            stacked(
                quote!((mut n: u32, row: u32)),
                quote!(),
                quote!(q(n, row + 1))
            ),
            "__gtap_a0,__gtap_a1,"
        );
        assert_eq!(
            stacked(
                quote!((n: [u32; 2], row: u32)),
                quote!(),
                quote!(q(n, row + 1))
            ),
            "__gtap_a0,__gtap_a1,"
        );
    }

    #[test]
    fn a_task_that_does_not_only_sum_its_children_keeps_its_recursion() {
        // Each body is nqueens-sized (two levels per call), so that only the summing test
        // tells them apart; the first is the one that qualifies.
        let body = |ret: TokenStream, tail: TokenStream, extra: TokenStream| {
            expand_text(quote! {
                #[gtap::task]
                fn f(n: u32, a: u32, b: u32, c: u32) -> #ret {
                    if n < 2 {
                        return (a ^ b ^ c) as #ret;
                    }
                    let x = a.wrapping_mul(3).wrapping_add(b).rotate_left(5) ^ c.wrapping_sub(a);
                    let y = b.wrapping_mul(7).wrapping_add(c).rotate_left(3) ^ a.wrapping_sub(b);
                    let z = c.wrapping_mul(11).wrapping_add(a).rotate_left(7) ^ b.wrapping_sub(c);
                    let p = spawn!(f(n - 1, x, y, z));
                    let q = spawn!(f(n - 2, y, z, x));
                    #extra
                    taskwait!();
                    #tail
                }
            })
        };
        let sum = quote!(p.get() + q.get() + (x as u64));
        assert!(
            sums(&body(quote!(u64), sum.clone(), quote!())),
            "the control"
        );
        for (why, text) in [
            (
                "a float sum depends on its order",
                body(quote!(f64), quote!(p.get() + q.get()), quote!()),
            ),
            (
                "a signed sum may overflow in another order",
                body(quote!(i64), quote!(p.get() + q.get()), quote!()),
            ),
            (
                "not a sum",
                body(quote!(u64), quote!(p.get() * q.get()), quote!()),
            ),
            (
                "a handle missing",
                body(quote!(u64), quote!(p.get() + 1), quote!()),
            ),
            (
                "a handle twice",
                body(quote!(u64), quote!(p.get() + p.get() + q.get()), quote!()),
            ),
            (
                "a return after a spawn",
                body(
                    quote!(u64),
                    sum.clone(),
                    quote!(if x == 0 {
                        return 0;
                    }),
                ),
            ),
            (
                "a detached child",
                body(quote!(u64), sum.clone(), quote!(spawn!(f(0, x, y, z));)),
            ),
            (
                "a child of another task",
                body(quote!(u64), sum.clone(), quote!(spawn!(g(x));)),
            ),
            (
                "a second taskwait",
                body(quote!(u64), sum.clone(), quote!(taskwait!();)),
            ),
            (
                "a handle used elsewhere",
                body(quote!(u64), sum.clone(), quote!(let _kept = &p;)),
            ),
        ] {
            assert!(!sums(&text), "{why}: {text}");
        }
        // A parameter that borrows: its pending tuples could not be stored.
        let text = expand_text(quote! {
            #[gtap::task]
            fn h(n: u32, v: gtap::View<'_, u32>) -> u64 {
                let a = spawn!(h(n - 1, v));
                taskwait!();
                a.get()
            }
        });
        assert!(!sums(&text), "{text}");
    }

    #[test]
    fn a_block_program_has_no_sequential_versions() {
        let text = expand_text(quote! {
            #[gtap::task(block)]
            fn f(b: Block, n: u32) -> u64 {
                n as u64
            }
        });
        assert!(!text.contains("__gtap_seq_f"), "{text}");
        assert!(!text.contains("SEQ"), "{text}");
    }

    #[test]
    fn a_taskwait_rebinds_handles_through_their_slots() {
        let text = expand_text(quote! {
            #[gtap::task]
            fn f(n: u32) -> u64 {
                let a = spawn!(f(n - 1));
                taskwait!();
                a.get()
            }
        });
        // The pending handle is not read after the suspension, so it is not saved.
        assert!(
            text.contains("leta=unsafe{__gtap_slot_1.__joined()}"),
            "{text}"
        );
        assert!(!text.contains("a.__joined()"), "{text}");
        let text = expand_text(quote! {
            #[gtap::task]
            fn g(n: u32) -> u64 {
                let hs = slots!(u64; 4);
                spawn!(into hs, g(n - 1));
                taskwait!();
                hs.iter().sum()
            }
        });
        assert!(
            text.contains("leths=unsafe{__gtap_slots_1.__joined()}"),
            "{text}"
        );
    }
}
