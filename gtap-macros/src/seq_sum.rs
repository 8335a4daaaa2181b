//! The summing form of a sequential version: for a task whose result is the sum of its
//! children's results, a loop over a stack of pending calls instead of a recursion.
//!
//! ```text
//! // Input:                              // Its summing sequential version, simplified:
//! #[gtap::task]                          let mut stack = SumStack::new();
//! fn nqueens(n: u32, row: u32, ..) -> u64 {   let mut sum = 0; let mut next = (n, row, ..);
//!     if row == n { return 1; }          loop {
//!     let counts = slots!(u64; 32);          let (n, row, ..) = next;
//!     while free != 0 {                      sum += (|| -> u64 {
//!         ..                                     if row == n { return 1; }
//!         spawn!(into counts,                    while free != 0 {
//!                nqueens(n, row + 1, ..));           ..
//!     }                                              push (n, row + 1, ..), or when the
//!     taskwait!();                                   stack is full run it recursively
//!     counts.iter().sum()                        }
//! }                                              0 // the children add their own parts
//!                                            })();
//!                                            match stack.pop() { Some(a) => next = a, None => break }
//!                                        }
//! ```
//!
//! Why: the recursive sequential version goes through the GPU's call ABI at every call,
//! saving and restoring registers in local memory, and keeps each call's result slots (a
//! `slots!(u64; 32)` is 256 bytes to clear and sum per call); for nqueens that made it
//! several times slower than the same search written by hand with an explicit stack, and
//! the loop brings it close (README, "Sequential versions"). Addition of unsigned integers
//! does not depend on the order, and no partial sum exceeds the total, so the loop's result
//! and overflow behaviour are the recursion's.
//!
//! The arguments that every child gets unchanged from its parent (nqueens' `n` and `cutoff`)
//! stay out of the stack: the loop reads them from its own parameters
//! ([`seq_fixed`](crate::seq_fixed)).
//!
//! A push that finds the stack full runs that child by a call of this same version, on a
//! stack of its own (`gtap_device::task::sum_stack`). The function is recursive for that
//! reason too: ptxas inlines a non-recursive device function into the kernel, whose
//! registers would then count the loop's.
//!
//! Which tasks qualify, judged on the syntax (anything else keeps the recursive version):
//! - the result type is an unsigned integer (`u8` .. `u128`, `usize`), and no parameter's
//!   type holds a reference or a lifetime (the pending calls' tuples are stored);
//! - every `spawn!` calls the task itself with all its arguments, as `let h = spawn!(..)` at
//!   the top level of the body or `spawn!(into hs, ..)` into a `let hs = slots!(..)` of the
//!   top level;
//! - the body ends with its only `taskwait!()` and then an expression that adds each handle
//!   once, as `h.get()` or `hs.iter().sum()`, to terms that name no handle, and no other
//!   statement names a handle (but a `spawn!(into hs, ..)` its `hs`);
//! - nothing returns from the first statement that spawns on (an early `return` after a
//!   spawn would drop the children's results, which the loop has already counted).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::token::Comma;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{BinOp, Block, Expr, FnArg, Ident, Macro, Pat, Stmt};

use crate::lower::{SPAWNS, direct_task, queue_expr, seq_counted_fn_ident};
use crate::syntax::{Kind, SlotsArgs, SpawnArgs, TaskwaitArgs};

/// Result types whose sum the loop may reorder.
const SUMMABLE: [&str; 6] = ["u8", "u16", "u32", "u64", "u128", "usize"];

/// The hidden names the summing body uses (besides [`SPAWNS`]).
const STACK: &str = "__gtap_stack";
const SUM: &str = "__gtap_sum";

/// The task a body belongs to, as the summing form needs it.
pub struct Task<'a> {
    pub name: &'a Ident,
    pub params: &'a Punctuated<FnArg, Comma>,
    /// The parameters' names (plain-name patterns, one per parameter).
    pub names: &'a [Ident],
}

/// The name of the function that builds a child's tuple of arguments (hidden), spanned at
/// `name`: the task's own name at its definition, the call's at a spawn.
pub fn args_fn_ident(name: &Ident) -> Ident {
    Ident::new(&format!("__gtap_seqa_{name}"), name.span())
}

/// A summing task's loop body, whether its children's results went to `slots!`, and which
/// parameters its stack leaves out ([`seq_fixed`](crate::seq_fixed)).
pub struct Summing {
    pub body: Block,
    pub slots: bool,
    pub fixed: Vec<bool>,
    /// The body's `spawn!` sites: with handles only, the most calls one run of it pushes.
    pub sites: usize,
    /// Some spawn or the taskwait names a queue (`spawn!(queue(q), ..)`) or a spawn forces a
    /// task (`spawn!(task, ..)`): the program chose where or whether its children are tasks.
    pub queued: bool,
}

/// How a summing body's spawns push their children's arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Push {
    /// Onto the sequential version's stack (`SumStack`), which may be full: the child then
    /// runs by a call of the same version.
    Checked,
    /// Into a variable of the spawn's site ([`site_ident`]), which a split task's walk
    /// puts on its stack after the body (`SplitStack::put`): only for a body that spawns
    /// through handles, whose sites are top-level statements and so run at most once per
    /// body.
    Sites,
}

/// The body of the summing loop for `block` (the task's own body), its spawns pushing as
/// `push` says, or `None` when the task does not qualify (module docs; [`Push::Sites`]
/// also needs a body without `slots!`). `ret`: the task's result type; `param_types`: the
/// tokens of each parameter's type.
pub fn summing_body(
    task: &Task<'_>,
    block: &Block,
    ret: &TokenStream,
    param_types: &[TokenStream],
    push: Push,
) -> Option<Summing> {
    let ret = ret.to_string();
    if !SUMMABLE.contains(&ret.as_str()) || param_types.iter().any(borrows) {
        return None;
    }
    let mut stmts = block.stmts.clone();
    let Some(Stmt::Expr(tail, None)) = stmts.pop() else {
        return None;
    };
    let wait = stmts.pop()?;
    let waited = taskwait_queue(&wait)?;
    let wait_queue = queue_expr(waited.queue.as_ref());
    let census = Census::of(&stmts, task)?;
    if census.spawns == 0 || (push == Push::Sites && !census.slots.is_empty()) {
        return None;
    }
    let first_spawn = stmts.iter().position(has_spawn)?;
    let mut exits = Exits(false);
    stmts[first_spawn..]
        .iter()
        .for_each(|s| exits.visit_stmt(s));
    exits.visit_expr(&tail);
    if exits.0 {
        return None;
    }
    let rest = tail_rest(&tail, &census)?;
    let fixed = crate::seq_fixed::fixed_params(task.params, block);
    let mut rewrite = Rewrite {
        task,
        slots: &census.slots,
        fixed: &fixed,
        push,
        sites: 0,
    };
    let mut out: Vec<Stmt> = Vec::new();
    for stmt in stmts {
        out.extend(rewrite.top_stmt(stmt));
    }
    out.push(syn::parse_quote_spanned! {wait.span()=> ::gtap::__private::seq_wait(#wait_queue); });
    let rest = rest.map_or_else(|| quote!(0), |r| quote!(#r));
    out.push(Stmt::Expr(syn::parse_quote!(#rest), None));
    Some(Summing {
        body: Block {
            brace_token: block.brace_token,
            stmts: out,
        },
        slots: !census.slots.is_empty(),
        fixed,
        sites: census.spawns,
        queued: census.queued || waited.queue.is_some(),
    })
}

/// Whether a parameter type holds a reference or a lifetime.
fn borrows(ty: &TokenStream) -> bool {
    fn any(ts: TokenStream) -> bool {
        ts.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Punct(p) => p.as_char() == '&' || p.as_char() == '\'',
            proc_macro2::TokenTree::Group(g) => any(g.stream()),
            _ => false,
        })
    }
    any(ty.clone())
}

/// The macro a statement of its own is (`m!(..);`), if it is one.
fn stmt_macro(stmt: &Stmt) -> Option<&Macro> {
    match stmt {
        Stmt::Macro(m) => Some(&m.mac),
        Stmt::Expr(Expr::Macro(m), Some(_)) => Some(&m.mac),
        _ => None,
    }
}

/// The arguments of a `taskwait!(..);` statement, or `None` for another statement.
fn taskwait_queue(stmt: &Stmt) -> Option<TaskwaitArgs> {
    let mac = stmt_macro(stmt).filter(|m| Kind::of(m) == Some(Kind::Taskwait))?;
    mac.parse_body().ok()
}

/// Whether a statement holds a `spawn!`.
fn has_spawn(stmt: &Stmt) -> bool {
    struct Spawns(bool);
    impl<'a> Visit<'a> for Spawns {
        fn visit_macro(&mut self, m: &'a Macro) {
            self.0 |= Kind::of(m) == Some(Kind::Spawn);
        }
    }
    let mut v = Spawns(false);
    v.visit_stmt(stmt);
    v.0
}

/// Finds whether what it visits returns from the function: a `return` or a `?` outside
/// closures, async blocks and nested items (their own returns are theirs).
struct Exits(bool);

impl<'a> Visit<'a> for Exits {
    fn visit_expr_return(&mut self, _: &'a syn::ExprReturn) {
        self.0 = true;
    }
    fn visit_expr_try(&mut self, _: &'a syn::ExprTry) {
        self.0 = true;
    }
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    fn visit_expr_async(&mut self, _: &'a syn::ExprAsync) {}
    fn visit_item(&mut self, _: &'a syn::Item) {}
}

/// The handles of a body and its task macros, when they are all of the summing form's kinds.
#[derive(Default)]
struct Census {
    /// `let h = spawn!(..)` at the top level.
    handles: Vec<Ident>,
    /// `let hs = slots!(T; N)` at the top level, with `N`.
    slots: Vec<(Ident, Expr)>,
    /// For each of `slots`, the `spawn!(into hs, ..)` that name it.
    into: Vec<usize>,
    spawns: usize,
    /// Some spawn names a queue or forces a task.
    queued: bool,
}

impl Census {
    /// The census of top-level statements `stmts`, or `None` when a task macro is of a kind
    /// the summing form does not take (module docs).
    fn of(stmts: &[Stmt], task: &Task<'_>) -> Option<Census> {
        let mut c = Census::default();
        for stmt in stmts {
            if let Stmt::Local(local) = stmt
                && let Some(init) = &local.init
                && let Expr::Macro(m) = &*init.expr
                && let Some(kind) = Kind::of(&m.mac)
            {
                let Pat::Ident(p) = &local.pat else {
                    return None;
                };
                let plain = p.by_ref.is_none() && p.mutability.is_none() && p.subpat.is_none();
                if !plain || init.diverge.is_some() {
                    return None;
                }
                match kind {
                    Kind::Spawn => {
                        let args: SpawnArgs = m.mac.parse_body().ok()?;
                        if args.into.is_some() || !calls_itself(&args.call, task) {
                            return None;
                        }
                        c.queued |= args.queue.is_some() || args.task;
                        c.handles.push(p.ident.clone());
                        c.spawns += 1;
                    }
                    Kind::Slots => {
                        let args: SlotsArgs = m.mac.parse_body().ok()?;
                        c.slots.push((p.ident.clone(), args.len));
                        c.into.push(0);
                    }
                    Kind::Taskwait => return None,
                }
                continue;
            }
            c.spawns += c.nested(stmt, task)?;
        }
        let names: Vec<&Ident> = c
            .handles
            .iter()
            .chain(c.slots.iter().map(|(s, _)| s))
            .collect();
        let distinct = names
            .iter()
            .all(|a| names.iter().filter(|b| *b == a).count() == 1);
        (distinct && !c.named_elsewhere(stmts)).then_some(c)
    }

    /// Whether a statement other than a handle's own `let` names a handle other than as
    /// the target of a `spawn!(into ..)`: the loop keeps no handles, so such a use (a
    /// handle passed on, say) would name nothing.
    fn named_elsewhere(&self, stmts: &[Stmt]) -> bool {
        let uses = |name: &Ident| -> usize {
            stmts
                .iter()
                .filter(|s| !is_task_macro_let(s))
                .map(|s| count_ident(quote!(#s), name))
                .sum()
        };
        self.handles.iter().any(|h| uses(h) != 0)
            || self
                .slots
                .iter()
                .zip(&self.into)
                .any(|((hs, _), &n)| uses(hs) != n)
    }

    /// The spawns inside a statement other than a top-level `let` of a task macro: each must
    /// be `spawn!(into hs, ..)` as a statement, into one of this census's slots.
    fn nested(&mut self, stmt: &Stmt, task: &Task<'_>) -> Option<usize> {
        /// Each task macro, and whether it is a statement of its own.
        struct Macros<'a> {
            found: Vec<(&'a Macro, bool)>,
        }
        impl<'a> Visit<'a> for Macros<'a> {
            fn visit_stmt(&mut self, s: &'a Stmt) {
                match stmt_macro(s) {
                    Some(m) if Kind::of(m).is_some() => self.found.push((m, true)),
                    _ => syn::visit::visit_stmt(self, s),
                }
            }
            fn visit_macro(&mut self, m: &'a Macro) {
                if Kind::of(m).is_some() {
                    self.found.push((m, false));
                }
            }
        }
        let mut v = Macros { found: Vec::new() };
        v.visit_stmt(stmt);
        let mut spawns = 0;
        for (mac, as_stmt) in v.found {
            if !as_stmt || Kind::of(mac) != Some(Kind::Spawn) {
                return None;
            }
            let args: SpawnArgs = mac.parse_body().ok()?;
            let into = args.into.as_ref()?;
            let Expr::Path(p) = into else {
                return None;
            };
            let slot = self.slots.iter().position(|(s, _)| p.path.is_ident(s))?;
            if !calls_itself(&args.call, task) {
                return None;
            }
            self.queued |= args.queue.is_some() || args.task;
            self.into[slot] += 1;
            spawns += 1;
        }
        Some(spawns)
    }
}

/// Whether `stmt` is `let NAME = spawn!(..)`, `slots!(..)` or `taskwait!(..)`.
fn is_task_macro_let(stmt: &&Stmt) -> bool {
    matches!(stmt, Stmt::Local(local)
        if local.init.as_ref().is_some_and(|i| matches!(&*i.expr,
            Expr::Macro(m) if Kind::of(&m.mac).is_some())))
}

/// How many times `ts` holds the identifier `name`, inside groups and macros too.
fn count_ident(ts: TokenStream, name: &Ident) -> usize {
    ts.into_iter()
        .map(|t| match t {
            proc_macro2::TokenTree::Ident(i) => usize::from(i == *name),
            proc_macro2::TokenTree::Group(g) => count_ident(g.stream(), name),
            _ => 0,
        })
        .sum()
}

/// Whether `call` is a call of `task` itself with all its arguments.
fn calls_itself(call: &Expr, task: &Task<'_>) -> bool {
    if let Expr::Call(c) = call
        && let Expr::Path(p) = &*c.func
        && p.qself.is_none()
        && let Some(name) = direct_task(&p.path)
    {
        return name == task.name && c.args.len() == task.params.len();
    }
    false
}

/// The tail's terms that name no handle, added together (`None`: there are none), when the
/// tail adds each of `census`'s handles once (`h.get()`, `hs.iter().sum()`) and names them
/// nowhere else.
fn tail_rest(tail: &Expr, census: &Census) -> Option<Option<Expr>> {
    let mut terms = Vec::new();
    flatten_sum(tail, &mut terms);
    let mut used: Vec<String> = Vec::new();
    let mut rest: Vec<&Expr> = Vec::new();
    for term in terms {
        if let Some(h) = handle_term(term, census) {
            used.push(h);
        } else if names_any(quote!(#term), census) {
            return None;
        } else {
            rest.push(term);
        }
    }
    let all = census.handles.len() + census.slots.len();
    let each_once = used.len() == all
        && used
            .iter()
            .all(|u| used.iter().filter(|v| *v == u).count() == 1);
    if !each_once {
        return None;
    }
    Some(
        rest.into_iter()
            .cloned()
            .reduce(|a, b| syn::parse_quote!((#a) + (#b))),
    )
}

/// The terms of a sum `a + b + ..` (parentheses looked through).
fn flatten_sum<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::Binary(b) if matches!(b.op, BinOp::Add(_)) => {
            flatten_sum(&b.left, out);
            flatten_sum(&b.right, out);
        }
        Expr::Paren(p) => flatten_sum(&p.expr, out),
        _ => out.push(e),
    }
}

/// The handle a term reads whole: `h.get()` of a spawn's handle, or `hs.iter().sum()` (with
/// or without a turbofish, or `.copied()`/`.cloned()` before it) of a `slots!`.
fn handle_term(term: &Expr, census: &Census) -> Option<String> {
    let Expr::MethodCall(m) = term else {
        return None;
    };
    if !m.args.is_empty() {
        return None;
    }
    let receiver_name = |e: &Expr| match e {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    };
    if m.method == "get" && m.turbofish.is_none() {
        let h = receiver_name(&m.receiver)?;
        return census.handles.iter().any(|x| *x == h).then_some(h);
    }
    if m.method != "sum" {
        return None;
    }
    let mut inner = &*m.receiver;
    if let Expr::MethodCall(c) = inner
        && (c.method == "copied" || c.method == "cloned")
        && c.args.is_empty()
    {
        inner = &c.receiver;
    }
    let Expr::MethodCall(iter) = inner else {
        return None;
    };
    if iter.method != "iter" || !iter.args.is_empty() {
        return None;
    }
    let hs = receiver_name(&iter.receiver)?;
    census.slots.iter().any(|(s, _)| *s == hs).then_some(hs)
}

/// Whether `ts` names any of `census`'s handles.
fn names_any(ts: TokenStream, census: &Census) -> bool {
    ts.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => {
            census.handles.contains(&i) || census.slots.iter().any(|(s, _)| *s == i)
        }
        proc_macro2::TokenTree::Group(g) => names_any(g.stream(), census),
        _ => false,
    })
}

/// Rewrites the body's spawns into pushes and its `slots!` into counters.
struct Rewrite<'a> {
    task: &'a Task<'a>,
    slots: &'a [(Ident, Expr)],
    /// Per parameter: kept out of the stack, read from the function's own parameter.
    fixed: &'a [bool],
    push: Push,
    /// The top-level spawns rewritten so far: the next one's site.
    sites: usize,
}

impl Rewrite<'_> {
    /// A top-level statement: `let h = spawn!(..)` pushes, `let hs = slots!(..)` counts,
    /// anything else has its nested `spawn!(into hs, ..)` rewritten.
    fn top_stmt(&mut self, mut stmt: Stmt) -> Vec<Stmt> {
        if let Stmt::Local(local) = &stmt
            && let Some(init) = &local.init
            && let Expr::Macro(m) = &*init.expr
            && let Some(kind) = Kind::of(&m.mac)
            && let Pat::Ident(p) = &local.pat
        {
            match kind {
                Kind::Spawn => {
                    let args: SpawnArgs = m.mac.parse_body().expect("parsed by the census");
                    self.sites += 1;
                    return vec![self.push(&args, None, self.sites - 1)];
                }
                Kind::Slots => {
                    let (taken, cap) = slot_counter(&p.ident);
                    let len = &self
                        .slots
                        .iter()
                        .find(|(s, _)| *s == p.ident)
                        .expect("census")
                        .1;
                    return vec![
                        syn::parse_quote_spanned! {m.span()=> let mut #taken = 0usize; },
                        syn::parse_quote_spanned! {m.span()=> let #cap: usize = #len; },
                    ];
                }
                Kind::Taskwait => unreachable!("refused by the census"),
            }
        }
        self.visit_stmt_mut(&mut stmt);
        vec![stmt]
    }

    /// The statement that runs one spawn: the child's arguments pushed, or, with the stack
    /// full, the child run by a call of this summing version and its result added. `into`: the
    /// `slots!` it takes a slot of, counted as the task's would be; `site`: the spawn's
    /// site, for [`Push::Sites`].
    fn push(&self, args: &SpawnArgs, into: Option<&Ident>, site: usize) -> Stmt {
        let Expr::Call(call) = &args.call else {
            unreachable!("checked by the census")
        };
        let Expr::Path(p) = &*call.func else {
            unreachable!("checked by the census")
        };
        let name = direct_task(&p.path).expect("checked by the census");
        // Named from the call's own `name`, as the recursive version's calls are: a wrong
        // argument then gives the same error at the same place, which rustc reports once.
        let args_fn = args_fn_ident(name);
        // With the stack full, the child runs by this same version, on a stack of its own.
        let again = seq_counted_fn_ident(self.task.name);
        let values = call.args.iter();
        // The stacked parts come back from a full stack; the fixed ones are the parameters.
        let stacked: Vec<Ident> = (0..self.fixed.len())
            .filter(|&i| !self.fixed[i])
            .map(|i| format_ident!("__gtap_a{i}"))
            .collect();
        let parts: Vec<Ident> = (0..self.fixed.len())
            .map(|i| match self.fixed[i] {
                true => self.task.names[i].clone(),
                false => format_ident!("__gtap_a{i}"),
            })
            .collect();
        let queue = queue_expr(args.queue.as_ref());
        let (stack, sum, spawns) = hidden();
        if self.push == Push::Sites {
            let (child, ran) = site_ident(site);
            return syn::parse_quote_spanned! {call.span()=>
                {
                    #child = ::core::mem::MaybeUninit::new(#args_fn(#( #values, )*));
                    let _ = #queue;
                    #ran = true;
                    #spawns += 1;
                }
            };
        }
        let take = into.map(|hs| {
            let (taken, cap) = slot_counter(hs);
            quote!(::gtap::__private::seq_slot_taken(&mut #taken, #cap);)
        });
        syn::parse_quote_spanned! {call.span()=>
            {
                let __gtap_child = #args_fn(#( #values, )*);
                let _ = #queue;
                #take
                match #stack.push(__gtap_child) {
                    ::core::result::Result::Ok(()) => #spawns += 1,
                    ::core::result::Result::Err((#( #stacked, )*)) => {
                        let (__gtap_value, __gtap_after) = #again(#( #parts, )* #spawns + 1);
                        #spawns = __gtap_after;
                        #sum += __gtap_value;
                    }
                }
            }
        }
    }
}

impl VisitMut for Rewrite<'_> {
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        if let Some(mac) = stmt_macro(s).cloned()
            && Kind::of(&mac) == Some(Kind::Spawn)
        {
            let args: SpawnArgs = mac.parse_body().expect("parsed by the census");
            let Some(Expr::Path(into)) = &args.into else {
                unreachable!("checked by the census")
            };
            let hs = into
                .path
                .get_ident()
                .expect("checked by the census")
                .clone();
            *s = self.push(&args, Some(&hs), 0);
            return;
        }
        syn::visit_mut::visit_stmt_mut(self, s);
    }
}

/// A spawn site's child in a body rewritten for [`Push::Sites`], and whether the site ran.
pub fn site_ident(site: usize) -> (Ident, Ident) {
    (
        format_ident!("__gtap_site{site}"),
        format_ident!("__gtap_site{site}_ran"),
    )
}

/// The counter of the slots `hs` has handed out, and its capacity.
fn slot_counter(hs: &Ident) -> (Ident, Ident) {
    (
        format_ident!("__gtap_taken_{hs}"),
        format_ident!("__gtap_cap_{hs}"),
    )
}

/// The loop's stack, its sum, and the count of spawns run.
pub fn hidden() -> (Ident, Ident, Ident) {
    let at = Span::call_site();
    (
        Ident::new(STACK, at),
        Ident::new(SUM, at),
        Ident::new(SPAWNS, at),
    )
}

/// The summing sequential version `counted_fn(params.., spawns) -> (ret, u32)` around
/// `sum`'s body (from [`summing_body`]): the loop over the stack of pending calls. `pats`: the
/// patterns of the parameters it stacks; `arg_names`: their names (the fixed ones are the
/// function's own parameters throughout).
pub fn summing_fn(
    head: TokenStream,
    pats: &[&Pat],
    arg_names: &[&Ident],
    ret: &TokenStream,
    sum: &Summing,
) -> TokenStream {
    let body = &sum.body;
    // A body that spawns through handles makes a fixed, small number of children, the
    // last of which the loop runs next: it keeps it out of the buffer (`SumStack::push`).
    let keep_top = !sum.slots;
    let (stack, sum, spawns) = hidden();
    quote_spanned! {Span::call_site()=>
        #head {
            let mut __gtap_buffer = ::gtap::__private::SumBuffer::uninit();
            let mut #stack =
                ::gtap::__private::SumStack::<_, #keep_top>::new(&mut __gtap_buffer);
            let mut #sum: #ret = 0;
            let mut __gtap_next = (#( #arg_names, )*);
            loop {
                let (#( #pats, )*) = __gtap_next;
                let __gtap_part: #ret = (|| -> #ret #body)();
                #sum += __gtap_part;
                match #stack.pop() {
                    ::core::option::Option::Some(__gtap_pending) => __gtap_next = __gtap_pending,
                    ::core::option::Option::None => break,
                }
            }
            (#sum, #spawns)
        }
    }
}
