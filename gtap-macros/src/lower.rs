//! Lowering a task body: `spawn!`/`taskwait!`/`slots!` become calls on the runtime and
//! `yield`s, and every result handle is checked to be joined before its block ends.
//!
//! ```text
//! // Input:                               // Output (inside the frame's coroutine):
//! let a = spawn!(fib(n - 1));             let SLOT_a = Slot::new();
//!                                         let PENDING_a = unsafe { spawn::<Program, _>(ctx, &SLOT_a, fib(n - 1), 0) };
//!                                         let a = PENDING_a;
//! spawn!(fib(n - 2));                     unsafe { spawn_detached(ctx, { let c: Call<'task, _, _> = fib(n - 2); c }, 0) };
//! taskwait!();                            if unsafe { begin_wait(ctx, 0) } { ctx = yield (); }
//!                                         end_borrow(PENDING_a);                  // the child's arguments borrowed until here
//!                                         let a = unsafe { SLOT_a.__joined() };   // Joined, from the slot
//! a.get()                                 a.get()
//! ```
//!
//! The rules, checked here on the syntax:
//! - `spawn!` is a statement: `let h = spawn!(..);`, `spawn!(..);` or `spawn!(into hs, ..);`.
//! - A handle (`let h = spawn!` or `let hs = slots!`) must be joined by a `taskwait!()` at the
//!   top level of its own block, after it: otherwise a running child could write into frame
//!   storage the parent has reused. `break`/`continue` may not leave such a block before that.
//! - None of the three may appear inside closures, async blocks or nested items.
//! - A task of the program called like a function (`fib(n - 1)` outside `spawn!`) runs
//!   nothing: it only makes a `Call`. Each such call is an error that says to write `spawn!`
//!   (or `seq::fib` for a plain call), and is replaced by a stand-in of the task's result
//!   type, so that `fib(n - 1) + fib(n - 2)` gives that one error and no type errors.
//!
//! Reading a handle before its join is caught by the types: `taskwait!()` re-binds every
//! handle in scope from `Pending` to `Joined`, and only `Joined` can be read.
//!
//! What a child's arguments borrow (see `lifetimes` and `gtap_device::data`): a child with a
//! handle keeps the borrow in its zero-sized pending handle, which the taskwait at the top
//! level of the handle's block ends after its suspension, so the borrow checker sees the
//! lent data borrowed for as long as the child may run. A child without a handle (and every
//! child of a block task, whose frame may not borrow across a taskwait) may take only what
//! lives for the spawning task's own argument lifetime `'task`. A `taskwait!()` in
//! expression position (a `match` arm without braces) waits, but joins no handle: it is not
//! on every path.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Block, Expr, Ident, Macro, Pat, Stmt};

use crate::lifetimes;
use crate::syntax::{Kind, SlotsArgs, SpawnArgs, TaskwaitArgs};

/// A task of the program, as a body being lowered may name it.
#[derive(Clone)]
pub struct Sibling {
    pub name: Ident,
    /// Its result type, as written in its signature (`()` when none).
    pub ret: TokenStream,
    /// Whether it has a sequential version (`seq::name`).
    pub seq: bool,
}

/// The result of lowering one task body.
pub struct Lowered {
    pub block: Block,
    pub has_taskwait: bool,
    pub errors: Vec<syn::Error>,
    /// In a sequential version: the spawns lowered to direct calls of a sequential version,
    /// each with the task it calls.
    pub seq_calls: Vec<Ident>,
    /// A thread task with a spawn the granularity policy weighs (one not marked `task`).
    pub weighs: bool,
    /// A thread task whose every spawn the policy weighs, none naming a queue: if it names
    /// its sequential version, it may run whole as that where the policy would run each of
    /// its spawns inline (`gtap_device::task::ctx::run_whole`).
    pub whole: bool,
}

/// The name of the coroutine's resume argument, invisible to user code (mixed-site hygiene).
pub fn ctx_ident() -> Ident {
    Ident::new("__gtap_ctx", Span::mixed_site())
}

/// Lowers `block`, the body of a task; `block_task` for `#[gtap::task(block)]` (see
/// `gtap_device::task::block`: handle spawns are block-wide and own their slots, taskwaits
/// always suspend and say which one they are, `into`/`slots!` are not available).
/// `siblings`: every task of the program.
pub fn lower(block: Block, block_task: bool, siblings: &[Sibling]) -> Lowered {
    lower_with(block, block_task, None, siblings, None)
}

/// Lowers `block`, the body of a thread task, into the body of its sequential version (the
/// serial elision): a `spawn!` runs the child at once, by a direct call of its sequential
/// version when the call names one of `tasks` (name and number of arguments), and
/// `taskwait!()` evaluates its queue and re-binds the handles as joined. The rules checked
/// are the task's: a body that lowers without errors as a task lowers without errors here.
/// `redirect`: the direct calls of task `.0` go to its inlined sequential version number
/// `.1` ([`seq_inline_fn_ident`]) rather than its out-of-line one.
pub fn lower_seq(
    block: Block,
    tasks: &[(Ident, usize)],
    siblings: &[Sibling],
    redirect: Option<(&Ident, usize)>,
) -> Lowered {
    lower_with(
        block,
        false,
        Some(tasks.to_vec()),
        siblings,
        redirect.map(|(task, to)| (task.clone(), to)),
    )
}

fn lower_with(
    mut block: Block,
    block_task: bool,
    seq: Option<Vec<(Ident, usize)>>,
    siblings: &[Sibling],
    seq_redirect: Option<(Ident, usize)>,
) -> Lowered {
    let mut l = Lowerer {
        block_task,
        seq,
        seq_redirect,
        seq_calls: Vec::new(),
        siblings: siblings.to_vec(),
        wait_sites: 0,
        ctx: ctx_ident(),
        scopes: Vec::new(),
        loop_depth: 0,
        opaque_depth: 0,
        has_taskwait: false,
        weighs: false,
        unweighed: false,
        errors: Vec::new(),
        counter: 0,
    };
    l.lower_block(&mut block);
    Lowered {
        block,
        has_taskwait: l.has_taskwait,
        errors: l.errors,
        seq_calls: l.seq_calls,
        weighs: l.weighs,
        whole: l.weighs && !l.unweighed,
    }
}

enum Entry {
    /// A result handle: must be joined at the top level of this block. `slot`: the hidden
    /// `Slot` or `Slots` it borrows, in a thread task (the taskwait re-binds the handle
    /// through it).
    Handle {
        ident: Ident,
        joined: bool,
        slot: Option<Ident>,
        /// The hidden binding of the pending handle (thread tasks), which holds the borrow of
        /// the child's arguments until the joining taskwait ends it.
        pending: Option<Ident>,
    },
    /// A plain binding that hides an earlier handle of the same name.
    Plain(String),
}

struct Scope {
    entries: Vec<Entry>,
    /// Loop nesting depth at which this block was entered.
    loop_depth: usize,
    /// The names that `.get()` is called on anywhere in this block: a task called like a
    /// function into one of them was meant to be spawned (see [`Lowerer::plain_call_error`]).
    read_as_handles: Vec<String>,
}

struct Lowerer {
    /// Lowering a block task.
    block_task: bool,
    /// Lowering a task's sequential version: the program's thread tasks that have one, with
    /// their numbers of arguments.
    seq: Option<Vec<(Ident, usize)>>,
    /// In a sequential version: a task whose direct calls go to one of its inlined copies
    /// rather than its out-of-line version, and that copy's number.
    seq_redirect: Option<(Ident, usize)>,
    /// In a sequential version: the tasks of the direct calls lowered so far.
    seq_calls: Vec<Ident>,
    /// Every task of the program: a call of one outside `spawn!` is an error.
    siblings: Vec<Sibling>,
    /// Taskwaits lowered so far (a block task's taskwait sites are numbered from 1).
    wait_sites: u32,
    ctx: Ident,
    scopes: Vec<Scope>,
    loop_depth: usize,
    /// >0 inside closures, async blocks and nested items, where no task macro may appear.
    opaque_depth: usize,
    has_taskwait: bool,
    /// See [`Lowered::weighs`].
    weighs: bool,
    /// A spawn the policy does not weigh, or one that names a queue (see [`Lowered::whole`]).
    unweighed: bool,
    errors: Vec<syn::Error>,
    counter: usize,
}

fn task_macro(expr: &Expr) -> Option<(&Macro, Kind)> {
    match expr {
        Expr::Macro(m) => Kind::of(&m.mac).map(|k| (&m.mac, k)),
        _ => None,
    }
}

impl Lowerer {
    /// Notes a spawn of the task's own body for [`Lowered::weighs`] and [`Lowered::whole`].
    fn note_spawn(&mut self, args: &SpawnArgs) {
        let weighed = weighed(args, self.block_task, &self.seq);
        self.weighs |= weighed;
        self.unweighed |= !weighed || args.queue.is_some();
    }

    fn err(&mut self, span: Span, msg: impl std::fmt::Display) {
        self.errors.push(syn::Error::new(span, msg));
    }

    fn err_opaque(&mut self, span: Span, kind: Kind) {
        self.err(
            span,
            format!(
                "`{}` cannot be used here: it must be directly in the task's body, not inside a \
                 closure, an async block, a nested item or the arguments of a spawn",
                kind.name()
            ),
        );
    }

    fn hidden_ident(&mut self, base: &str) -> Ident {
        self.counter += 1;
        Ident::new(
            &format!("__gtap_{base}_{}", self.counter),
            Span::mixed_site(),
        )
    }

    fn lower_block(&mut self, block: &mut Block) {
        self.scopes.push(Scope {
            entries: Vec::new(),
            loop_depth: self.loop_depth,
            read_as_handles: get_receivers(block),
        });
        let mut out = Vec::with_capacity(block.stmts.len());
        for stmt in std::mem::take(&mut block.stmts) {
            self.lower_stmt(stmt, &mut out);
        }
        block.stmts = out;
        let scope = self.scopes.pop().expect("scope pushed above");
        for entry in scope.entries {
            if let Entry::Handle {
                ident,
                joined: false,
                ..
            } = entry
            {
                self.err(
                    ident.span(),
                    format!(
                        "the child spawned into `{ident}` is not joined before the end of this block: \
                         add `taskwait!();` after it, at the top level of this block (not inside an \
                         `if` or a loop). To discard a child's result, spawn it without binding it: \
                         `spawn!(f(x));`"
                    ),
                );
            }
        }
    }

    fn lower_stmt(&mut self, stmt: Stmt, out: &mut Vec<Stmt>) {
        match stmt {
            Stmt::Local(mut local) => {
                let init_macro = local
                    .init
                    .as_ref()
                    .filter(|i| i.diverge.is_none())
                    .and_then(|i| task_macro(&i.expr))
                    .map(|(m, k)| (m.clone(), k));
                match init_macro {
                    Some((mac, kind)) if self.opaque_depth == 0 => {
                        self.lower_let(&local.pat, &mac, kind, out)
                    }
                    _ => {
                        if let Some(init) = &mut local.init {
                            self.plain_call_into_handle(&local.pat, &mut init.expr);
                            self.visit_expr_mut(&mut init.expr);
                            if let Some((_, diverge)) = &mut init.diverge {
                                self.visit_expr_mut(diverge);
                            }
                        }
                        self.note_plain_bindings(&local.pat);
                        out.push(Stmt::Local(local));
                    }
                }
            }
            Stmt::Macro(sm) if Kind::of(&sm.mac).is_some() => {
                let kind = Kind::of(&sm.mac).expect("checked");
                if self.opaque_depth > 0 {
                    self.err_opaque(sm.mac.span(), kind);
                } else {
                    self.lower_macro_stmt(&sm.mac, kind, out);
                }
            }
            Stmt::Expr(expr, semi) => {
                if let (Some((mac, kind)), 0) = (task_macro(&expr), self.opaque_depth) {
                    let mac = mac.clone();
                    self.lower_macro_stmt(&mac, kind, out);
                } else {
                    let mut expr = expr;
                    self.visit_expr_mut(&mut expr);
                    out.push(Stmt::Expr(expr, semi));
                }
            }
            Stmt::Item(mut item) => {
                self.opaque_depth += 1;
                self.visit_item_mut(&mut item);
                self.opaque_depth -= 1;
                out.push(Stmt::Item(item));
            }
            other => out.push(other),
        }
    }

    /// `let PAT = spawn!(..)` / `let PAT = slots!(..)` / `let PAT = taskwait!(..)`.
    fn lower_let(&mut self, pat: &Pat, mac: &Macro, kind: Kind, out: &mut Vec<Stmt>) {
        let ident = match pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.mutability.is_none() && p.subpat.is_none() => {
                Some(p.ident.clone())
            }
            Pat::Wild(_) => None,
            _ => {
                self.err(
                    pat.span(),
                    format!(
                        "bind the result of `{}` to a plain name, like `let h = ...`",
                        kind.name()
                    ),
                );
                return;
            }
        };
        match kind {
            Kind::Spawn => self.lower_let_spawn(ident, mac, out),
            Kind::Slots => self.lower_let_slots(ident, mac, out),
            Kind::Taskwait => {
                self.err(
                    mac.span(),
                    "`taskwait!()` has no value; write it as a statement: `taskwait!();`",
                );
            }
        }
    }

    /// `let h = spawn!(..)` (`ident` is `h`; `None` for `let _ = spawn!(..)`).
    fn lower_let_spawn(&mut self, ident: Option<Ident>, mac: &Macro, out: &mut Vec<Stmt>) {
        let Some(args) = self.parse::<SpawnArgs>(mac) else {
            return;
        };
        if let Some(into) = &args.into {
            self.err(
                into.span(),
                "`spawn!(into HANDLES, ..)` is a statement: its result goes to HANDLES",
            );
            return;
        }
        let Some(ident) = ident else {
            return self.emit_spawn_detached(&args, out);
        };
        self.check_no_task_macros(&args.call);
        let slot = self.hidden_ident("slot");
        let call_var = self.hidden_ident("call");
        let pending = self.hidden_ident("pending");
        if self.seq.is_some() {
            return self.seq_let_spawn(ident, slot, call_var, &args, out);
        }
        self.note_spawn(&args);
        let ctx = &self.ctx;
        let call = &args.call;
        let queue = queue_expr(args.queue.as_ref());
        let checked = checked_call(&args);
        // The call is checked on its own first, so a wrong call is one error.
        out.push(syn::parse_quote_spanned! {call.span()=>
            let #call_var = #checked;
        });
        if self.block_task {
            // The handle owns its slot (block frames are copied between threads), and the
            // child may take only what lives for this task's argument lifetime.
            let lt = lifetimes::task_lifetime();
            out.push(syn::parse_quote_spanned! {call.span()=>
                let #call_var: ::gtap::Call<#lt, _, _> = #call_var;
            });
            out.push(syn::parse_quote_spanned! {call.span()=>
                let mut #ident = ::gtap::__private::BlockPending::__new();
            });
            let spawn = unsafe_block(quote_spanned! {call.span()=>
                ::gtap::__private::spawn_block(#ctx, #ident.__slot(), #call_var, #queue)
            });
            out.push(syn::parse_quote_spanned! {call.span()=> #spawn; });
            self.push_handle(ident, None, None);
            return;
        }
        out.push(syn::parse_quote_spanned! {call.span()=>
            let #slot = ::gtap::__private::Slot::new();
        });
        let spawn = unsafe_block(quote_spanned! {call.span()=>
            ::gtap::__private::spawn(#ctx, &#slot, #call_var, #queue)
        });
        out.push(syn::parse_quote_spanned! {call.span()=> let #pending = #spawn; });
        // The taskwait re-binds the handle through the slot, so this binding may
        // never be read.
        out.push(syn::parse_quote_spanned! {call.span()=>
            #[allow(unused_variables)]
            let #ident = #pending;
        });
        self.push_handle(ident, Some(slot), Some(pending));
    }

    /// `let hs = slots!(T; N)` (`ident` is `hs`; `None` for `let _ = slots!(..)`).
    fn lower_let_slots(&mut self, ident: Option<Ident>, mac: &Macro, out: &mut Vec<Stmt>) {
        if self.block_task {
            return self.err(
                mac.span(),
                "`slots!` is not available in block tasks yet: spawn with one handle per \
                 child (`let h = spawn!(..)`), or without handles",
            );
        }
        let Some(args) = self.parse::<SlotsArgs>(mac) else {
            return;
        };
        let Some(ident) = ident else {
            self.err(
                mac.span(),
                "bind `slots!` to a name: `let hs = slots!(u64; 16);`",
            );
            return;
        };
        let store = self.hidden_ident("slots");
        let ty = &args.ty;
        // A literal or a path is a valid const argument as it is; anything else
        // needs braces (and braces around a literal draw a lint).
        let len = match &args.len {
            len @ (Expr::Lit(_) | Expr::Path(_)) => quote!(#len),
            len => quote!({ #len }),
        };
        let pending = self.hidden_ident("pending");
        out.push(syn::parse_quote_spanned! {mac.span()=>
            let #store = ::gtap::__private::Slots::<#ty, #len>::new();
        });
        out.push(syn::parse_quote_spanned! {mac.span()=>
            let #pending = ::gtap::__private::PendingSlots::__new(&#store);
        });
        out.push(syn::parse_quote_spanned! {mac.span()=>
            #[allow(unused_variables)]
            let #ident = #pending;
        });
        self.push_handle(ident, Some(store), Some(pending));
    }

    /// `spawn!(..);`, `spawn!(into hs, ..);`, `taskwait!(..);`, `slots!(..);` as statements.
    fn lower_macro_stmt(&mut self, mac: &Macro, kind: Kind, out: &mut Vec<Stmt>) {
        match kind {
            Kind::Spawn => {
                let Some(args) = self.parse::<SpawnArgs>(mac) else {
                    return;
                };
                self.check_no_task_macros(&args.call);
                match &args.into {
                    None => self.emit_spawn_detached(&args, out),
                    Some(into) if self.block_task => self.err(
                        into.span(),
                        "`spawn!(into ..)` is not available in block tasks yet",
                    ),
                    Some(into) if self.seq.is_some() => {
                        let value = self.seq_call(&args.call);
                        let queue = queue_expr(args.queue.as_ref());
                        out.push(syn::parse_quote_spanned! {args.call.span()=>
                            ::gtap::__private::seq_spawn_into(&#into, #value, #queue);
                        });
                    }
                    Some(into) => {
                        self.note_spawn(&args);
                        let (ctx, call) = (&self.ctx, &args.call);
                        let queue = queue_expr(args.queue.as_ref());
                        let checked = checked_call(&args);
                        let spawn = unsafe_block(quote_spanned! {call.span()=>
                            ::gtap::__private::spawn_into(#ctx, &#into, #checked, #queue)
                        });
                        out.push(syn::parse_quote_spanned! {call.span()=> #spawn; });
                    }
                }
            }
            Kind::Taskwait => {
                let Some(args) = self.parse::<TaskwaitArgs>(mac) else {
                    return;
                };
                self.emit_taskwait(mac, &args, true, out);
            }
            Kind::Slots => self.err(
                mac.span(),
                "bind `slots!` to a name: `let hs = slots!(u64; 16);`",
            ),
        }
    }

    fn emit_spawn_detached(&mut self, args: &SpawnArgs, out: &mut Vec<Stmt>) {
        self.check_no_task_macros(&args.call);
        if self.seq.is_some() {
            // The child runs now; its result is dropped, as the task's would be.
            let value = self.seq_call(&args.call);
            let queue = queue_expr(args.queue.as_ref());
            out.push(syn::parse_quote_spanned! {args.call.span()=> let _ = #value; });
            out.push(syn::parse_quote_spanned! {args.call.span()=> let _ = #queue; });
            return;
        }
        self.note_spawn(args);
        let (ctx, call) = (&self.ctx, &args.call);
        let queue = queue_expr(args.queue.as_ref());
        let checked = checked_call(args);
        // No handle holds the borrow until a taskwait: the child may take only what lives
        // for this task's argument lifetime (this task is not complete before the child is).
        let lt = lifetimes::task_lifetime();
        let spawn = unsafe_block(quote_spanned! {call.span()=>
            ::gtap::__private::spawn_detached(#ctx, {
                let __gtap_call: ::gtap::Call<#lt, _, _> = #checked;
                __gtap_call
            }, #queue)
        });
        out.push(syn::parse_quote_spanned! {call.span()=> #spawn; });
    }

    /// `at_top`: the taskwait is a statement, on every path through its block, so it joins
    /// that block's handles (and ends what their children borrow); in expression position it
    /// only waits.
    fn emit_taskwait(
        &mut self,
        mac: &Macro,
        args: &TaskwaitArgs,
        at_top: bool,
        out: &mut Vec<Stmt>,
    ) {
        self.has_taskwait = true;
        let ctx = &self.ctx;
        let queue = queue_expr(args.queue.as_ref());
        self.wait_sites += 1;
        if self.seq.is_some() {
            // Every child already ran: nothing to wait for.
            out.push(syn::parse_quote_spanned! {mac.span()=>
                ::gtap::__private::seq_wait(#queue);
            });
        } else if self.block_task {
            // Always suspends: only the runtime knows what the whole team spawned.
            let site = self.wait_sites;
            let begin =
                unsafe_block(quote! { ::gtap::__private::begin_wait_block(#ctx, #queue, #site) });
            out.push(syn::parse_quote_spanned! {mac.span()=> #begin; });
            out.push(syn::parse_quote_spanned! {mac.span()=> #ctx = yield (); });
        } else {
            let begin = unsafe_block(quote! { ::gtap::__private::begin_wait(#ctx, #queue) });
            out.push(syn::parse_quote_spanned! {mac.span()=>
                if #begin {
                    #ctx = yield ();
                }
            });
        }
        if at_top && let Some(scope) = self.scopes.last() {
            // After the suspension: the children's arguments were borrowed until here.
            for entry in &scope.entries {
                if let Entry::Handle {
                    joined: false,
                    pending: Some(pending),
                    ..
                } = entry
                {
                    // At the taskwait in messages ("borrow later used here"), with the
                    // hidden binding's hygiene.
                    let mut pending = pending.clone();
                    pending.set_span(pending.span().located_at(mac.span()));
                    out.push(syn::parse_quote_spanned! {mac.span()=>
                        ::gtap::__private::end_borrow(#pending);
                    });
                }
            }
        }
        // Re-bind every handle still visible by its name, innermost first.
        let mut decided: Vec<String> = Vec::new();
        for scope in self.scopes.iter().rev() {
            for entry in scope.entries.iter().rev() {
                match entry {
                    Entry::Plain(name) => decided.push(name.clone()),
                    Entry::Handle { ident, slot, .. } => {
                        let name = ident.to_string();
                        if !decided.contains(&name) {
                            decided.push(name);
                            let joined = match slot {
                                Some(slot) => unsafe_block(quote! { #slot.__joined() }),
                                None => unsafe_block(quote! { #ident.__joined() }),
                            };
                            out.push(syn::parse_quote_spanned! {ident.span()=>
                                #[allow(unused_variables)]
                                let #ident = #joined;
                            });
                        }
                    }
                }
            }
        }
        if at_top && let Some(scope) = self.scopes.last_mut() {
            for entry in &mut scope.entries {
                if let Entry::Handle { joined, .. } = entry {
                    *joined = true;
                }
            }
        }
    }

    /// `let h = spawn!(..)` in a sequential version: the child runs now, and its result
    /// fills the handle's slot; the taskwait re-binds the handle as in the task.
    fn seq_let_spawn(
        &mut self,
        ident: Ident,
        slot: Ident,
        value_var: Ident,
        args: &SpawnArgs,
        out: &mut Vec<Stmt>,
    ) {
        let call = &args.call;
        let value = self.seq_call(call);
        let queue = queue_expr(args.queue.as_ref());
        out.push(syn::parse_quote_spanned! {call.span()=> let #value_var = #value; });
        out.push(syn::parse_quote_spanned! {call.span()=>
            let #slot = ::gtap::__private::Slot::new();
        });
        let spawn = unsafe_block(quote_spanned! {call.span()=>
            ::gtap::__private::seq_spawn(&#slot, #value_var, #queue)
        });
        let pending = self.hidden_ident("pending");
        out.push(syn::parse_quote_spanned! {call.span()=> let #pending = #spawn; });
        out.push(syn::parse_quote_spanned! {call.span()=>
            // Read only through the slot after the taskwait (as in the task).
            #[allow(unused_variables, unused_assignments)]
            let #ident = #pending;
        });
        self.push_handle(ident, Some(slot), Some(pending));
    }

    /// The result of a spawned call in a sequential version: a direct call of the child's
    /// sequential version when `call` is written as a call of one of the program's tasks
    /// with the right number of arguments; otherwise (a call built elsewhere, or a wrong
    /// one, whose error then comes from the task's own lowering) through the `Call` value.
    /// Either way the call counts the spawn, and the child's own, into the running count of
    /// the sequential version ([`SPAWNS`], see `seq::seq_task`).
    fn seq_call(&mut self, call: &Expr) -> TokenStream {
        let tasks = self.seq.as_deref().unwrap_or_default();
        let spawns = Ident::new(SPAWNS, call.span());
        let counted = if let Expr::Call(c) = call
            && let Expr::Path(p) = &*c.func
            && p.qself.is_none()
            && let Some(name) = direct_task(&p.path)
            && tasks.iter().any(|(t, n)| t == name && *n == c.args.len())
        {
            // Named from the call's own `name`, whose span the call's errors then point at,
            // as the task's own lowering's do (rustc reports them once, not once per copy).
            let seq_fn = match &self.seq_redirect {
                Some((task, level)) if task == name => seq_inline_fn_ident(name, *level),
                _ => seq_counted_fn_ident(name),
            };
            self.seq_calls.push(name.clone());
            let args = c.args.iter();
            quote_spanned! {call.span()=> #seq_fn(#( #args, )* #spawns + 1) }
        } else {
            quote_spanned! {call.span()=>
                ::gtap::__private::into_call::<self::Program, _>(#call).__run_seq_counted(#spawns + 1)
            }
        };
        quote_spanned! {call.span()=>
            {
                let (__gtap_value, __gtap_spawns_after) = #counted;
                #spawns = __gtap_spawns_after;
                __gtap_value
            }
        }
    }

    fn push_handle(&mut self, ident: Ident, slot: Option<Ident>, pending: Option<Ident>) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.entries.push(Entry::Handle {
                ident,
                joined: false,
                slot,
                pending,
            });
        }
    }

    fn note_plain_bindings(&mut self, pat: &Pat) {
        struct Names(Vec<String>);
        impl<'a> syn::visit::Visit<'a> for Names {
            fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
                self.0.push(p.ident.to_string());
                syn::visit::visit_pat_ident(self, p);
            }
        }
        let mut names = Names(Vec::new());
        syn::visit::Visit::visit_pat(&mut names, pat);
        if let Some(scope) = self.scopes.last_mut() {
            scope.entries.extend(names.0.into_iter().map(Entry::Plain));
        }
    }

    fn parse<T: syn::parse::Parse>(&mut self, mac: &Macro) -> Option<T> {
        match mac.parse_body::<T>() {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors.push(e);
                None
            }
        }
    }

    /// Task macros nested inside a spawn's arguments are not allowed. The spawned call
    /// itself is what `spawn!` takes, so a task named there is no plain call; what its
    /// arguments hold is checked as anywhere else.
    fn check_no_task_macros(&mut self, expr: &Expr) {
        let mut copy = expr.clone();
        self.opaque_depth += 1;
        match &mut copy {
            Expr::Call(c) => {
                for arg in &mut c.args {
                    self.visit_expr_mut(arg);
                }
            }
            other => self.visit_expr_mut(other),
        }
        self.opaque_depth -= 1;
    }

    /// The task that `call` calls like a function, written `name(..)` or `self::name(..)`.
    fn plain_task_call(&self, call: &syn::ExprCall) -> Option<Sibling> {
        let Expr::Path(p) = &*call.func else {
            return None;
        };
        let name = direct_task(&p.path).filter(|_| p.qself.is_none())?;
        self.siblings.iter().find(|s| s.name == *name).cloned()
    }

    /// `let a = fib(n - 1);` where the block reads `a.get()`: a spawn without `spawn!`. The
    /// call is reported as any plain task call, and replaced by a stand-in handle, so that
    /// `a.get()` raises no error of its own.
    fn plain_call_into_handle(&mut self, pat: &Pat, init: &mut Expr) {
        let (Pat::Ident(p), Expr::Call(call)) = (pat, &*init) else {
            return;
        };
        let name = p.ident.to_string();
        let read = self
            .scopes
            .iter()
            .any(|s| s.read_as_handles.contains(&name));
        if let (true, Some(task)) = (read, self.plain_task_call(call)) {
            let call = call.clone();
            self.plain_call_error(&call, &task);
            let ret = &task.ret;
            *init = syn::parse_quote_spanned! {call.span()=>
                ::gtap::__private::plain_task_handle::<#ret>()
            };
        }
    }

    /// Reports a plain call of task `task` and returns what replaces it: a stand-in of the
    /// task's result type, which never runs (the error stops the build), so that the code
    /// around the call type-checks as if it had been given the result.
    fn plain_call_error(&mut self, call: &syn::ExprCall, task: &Sibling) -> Expr {
        let name = &task.name;
        let written = call
            .span()
            .source_text()
            .unwrap_or_else(|| format!("{name}(..)"));
        let seq = if task.seq {
            format!(
                " To run it here as a plain function call instead, call its sequential version: `seq::{written}`."
            )
        } else {
            String::new()
        };
        self.err(
            call.span(),
            format!(
                "`{written}` calls task `{name}` like a function, which does not run it: it only \
                 makes a task call. Spawn it as a child task: `let h = spawn!({written});`, then \
                 `taskwait!();`, then read the result with `h.get()` (or `spawn!({written});` \
                 when the result is not needed).{seq}"
            ),
        );
        let ret = &task.ret;
        syn::parse_quote_spanned! {call.span()=>
            ::gtap::__private::plain_task_call::<#ret>()
        }
    }

    /// Whether leaving the innermost loop (or a labelled one) would skip a required join.
    fn check_exit(&mut self, span: Span, labelled: bool, what: &str) {
        let current = self.loop_depth;
        let blocked = self.scopes.iter().any(|s| {
            (labelled || s.loop_depth >= current)
                && s.entries
                    .iter()
                    .any(|e| matches!(e, Entry::Handle { joined: false, .. }))
        });
        if blocked {
            self.err(
                span,
                format!(
                    "`{what}` here would leave a block whose spawned children are not joined yet; \
                     put `taskwait!();` before it"
                ),
            );
        }
    }
}

impl VisitMut for Lowerer {
    fn visit_block_mut(&mut self, block: &mut Block) {
        self.lower_block(block);
    }

    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        match expr {
            Expr::Macro(m) => {
                if let Some(kind) = Kind::of(&m.mac) {
                    let span = m.mac.span();
                    if self.opaque_depth > 0 {
                        self.err_opaque(span, kind);
                        *expr = syn::parse_quote_spanned! {span=> ::core::unreachable!() };
                    } else if kind == Kind::Taskwait {
                        // `taskwait!()` in expression position (e.g. a match arm): no re-binding
                        // is possible after it, but it still waits.
                        if let Some(args) = self.parse::<TaskwaitArgs>(&m.mac.clone()) {
                            let mut stmts = Vec::new();
                            let mac = m.mac.clone();
                            self.emit_taskwait(&mac, &args, false, &mut stmts);
                            *expr = syn::parse_quote_spanned! {span=> { #(#stmts)* } };
                        }
                    } else {
                        self.err(
                            span,
                            format!(
                                "`{}` must be a statement of the task's body: `let h = spawn!(f(x));`, \
                                 `spawn!(f(x));` or `spawn!(into hs, f(x));`{}",
                                kind.name(),
                                if kind == Kind::Slots { " (and `let hs = slots!(T; N);`)" } else { "" }
                            ),
                        );
                        // Leave no macro call behind to cascade into more errors.
                        *expr = syn::parse_quote_spanned! {span=> ::core::unreachable!() };
                    }
                }
            }
            Expr::Call(c) if self.plain_task_call(c).is_some() => {
                let task = self.plain_task_call(c).expect("checked");
                let c = c.clone();
                *expr = self.plain_call_error(&c, &task);
            }
            Expr::Closure(_) | Expr::Async(_) => {
                self.opaque_depth += 1;
                syn::visit_mut::visit_expr_mut(self, expr);
                self.opaque_depth -= 1;
            }
            Expr::ForLoop(f) => {
                self.visit_expr_mut(&mut f.expr);
                self.loop_depth += 1;
                self.visit_block_mut(&mut f.body);
                self.loop_depth -= 1;
            }
            Expr::While(w) => {
                self.visit_expr_mut(&mut w.cond);
                self.loop_depth += 1;
                self.visit_block_mut(&mut w.body);
                self.loop_depth -= 1;
            }
            Expr::Loop(l) => {
                self.loop_depth += 1;
                self.visit_block_mut(&mut l.body);
                self.loop_depth -= 1;
            }
            Expr::Break(b) => {
                let span = b.span();
                self.check_exit(span, b.label.is_some(), "break");
                syn::visit_mut::visit_expr_mut(self, expr);
            }
            Expr::Continue(c) => {
                let span = c.span();
                self.check_exit(span, c.label.is_some(), "continue");
            }
            _ => syn::visit_mut::visit_expr_mut(self, expr),
        }
    }
}

/// The names that `.get()` is called on (`h.get()`), anywhere in `block`.
fn get_receivers(block: &Block) -> Vec<String> {
    struct Gets(Vec<String>);
    impl<'a> syn::visit::Visit<'a> for Gets {
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            if m.method == "get"
                && let Expr::Path(p) = &*m.receiver
                && let Some(ident) = p.path.get_ident()
            {
                self.0.push(ident.to_string());
            }
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    let mut gets = Gets(Vec::new());
    syn::visit::Visit::visit_block(&mut gets, block);
    gets.0
}

/// `unsafe { inner }` with the `unsafe` and braces marked as macro-made (mixed-site), so that
/// lints about unsafe blocks in user code (e.g. a missing `// SAFETY:` comment) do not fire on
/// what the macro wrote. Each such call's contract is upheld by the checks in this file.
fn unsafe_block(inner: TokenStream) -> TokenStream {
    quote_spanned! {Span::mixed_site()=> unsafe { #inner } }
}

/// The queue index expression, typed as `u32` without silent conversions.
pub fn queue_expr(queue: Option<&Expr>) -> TokenStream {
    match queue {
        None => quote!(0u32),
        Some(q) => quote_spanned! {q.span()=> { let __gtap_queue: u32 = #q; __gtap_queue } },
    }
}

/// The spawned call as a `Call` of this program (checked to be one, with one error at the
/// user's expression when it is not), marked to be a task whatever the runtime's
/// granularity policy says for `spawn!(task, ..)`.
fn checked_call(args: &SpawnArgs) -> TokenStream {
    let call = &args.call;
    let checked = quote_spanned! {call.span()=>
        ::gtap::__private::into_call::<self::Program, _>(#call)
    };
    if args.task {
        quote_spanned! {call.span()=> #checked.__task() }
    } else {
        checked
    }
}

/// Whether the granularity policy weighs a spawn with `args` in the body being lowered: a
/// spawn not marked `task`, in a thread task's own body (not in a sequential version).
fn weighed(args: &SpawnArgs, block_task: bool, seq: &Option<Vec<(Ident, usize)>>) -> bool {
    !args.task && !block_task && seq.is_none()
}

/// The task a call's path names, if it is a bare name or `self::name`.
pub fn direct_task(path: &syn::Path) -> Option<&Ident> {
    let segs: Vec<_> = path.segments.iter().collect();
    let last = match segs.as_slice() {
        [last] => last,
        [first, last] if first.ident == "self" && path.leading_colon.is_none() => last,
        _ => return None,
    };
    last.arguments.is_none().then_some(&last.ident)
}

/// The variable in which a counting sequential version counts the spawns it ran as calls.
pub const SPAWNS: &str = "__gtap_spawns";

/// The name of task `name`'s sequential version (hidden; users call `seq::name`).
pub fn seq_fn_ident(name: &Ident) -> Ident {
    Ident::new(&format!("__gtap_seq_{name}"), name.span())
}

/// The name of task `name`'s counting sequential version (hidden), which the sequential
/// versions and `Program::run_seq` call: it also takes and returns a count of the spawns it
/// ran as plain calls (see `seq::seq_task`).
pub fn seq_counted_fn_ident(name: &Ident) -> Ident {
    Ident::new(&format!("__gtap_seqc_{name}"), name.span())
}

/// The name of the `level`th copy (from 1) of task `name`'s counting sequential version
/// that is inlined into its callers (hidden): each calls the next, and the last the
/// out-of-line one ([`seq_counted_fn_ident`]); see `seq::seq_task`.
pub fn seq_inline_fn_ident(name: &Ident, level: usize) -> Ident {
    Ident::new(&format!("__gtap_seqi{level}_{name}"), name.span())
}
