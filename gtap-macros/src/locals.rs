//! Which of a task's arguments the frame copies into locals before the body runs.
//!
//! A task's frame is a coroutine that captures the arguments. A capture lives in the frame,
//! which is the task's record in global memory, for the coroutine's whole life, and every use
//! of it reads it from there. After a spawn, which writes through pointers that the compiler
//! cannot tell apart from the frame, each use is a fresh load from global memory, on the
//! task's critical path. A local copy stays in a register instead.
//!
//! A local that is used after a taskwait is saved in the frame across the suspension, and
//! the capture stays there too: the frame would grow by the argument for nothing. So an argument becomes a local only if nothing
//! from the body's first taskwait on names it:
//!
//! ```text
//! fn fib_cutoff(n: u32, cutoff: u32) -> u64 {     // `n` and `cutoff`: locals
//!     if n < cutoff { return seq(n); }
//!     let a = spawn!(fib_cutoff(n - 1, cutoff));  // no reload of `n` or `cutoff` here
//!     let b = spawn!(fib_cutoff(n - 2, cutoff));
//!     taskwait!();                                // the statements from here on name
//!     a.get() + b.get()                           // neither
//! }
//! ```
//!
//! The test is on tokens, at the level of the body's statements: the first statement that
//! contains a `taskwait!` anywhere (in a loop, say) and every later one count as "after",
//! except that a statement that is itself `taskwait!(..)` counts only from the next one
//! (its queue expression is evaluated before the task suspends). That errs towards keeping
//! an argument a capture. One case costs frame space: a local that is borrowed before the
//! first taskwait, by a closure that captures it by reference or a method that takes `&self`,
//! is saved across every taskwait in its scope, since the compiler cannot tell the borrow has
//! ended (a closure that chooses a child's queue, say: compute the choice as a plain value
//! instead). An argument that the lowered body does not
//! name at all stays a capture, so that the compiler still reports it unused.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Block, Ident, Stmt};

use crate::syntax::Kind;

/// The arguments of `names` to copy into locals, given the task's body as written and as
/// lowered.
pub fn to_localize(body: &Block, lowered: &TokenStream, names: &[Ident]) -> Vec<Ident> {
    let first_wait = body
        .stmts
        .iter()
        .position(|s| has_taskwait(&s.to_token_stream()));
    let after: TokenStream = match first_wait {
        None => TokenStream::new(),
        Some(i) => {
            let from = if is_bare_taskwait(&body.stmts[i]) {
                i + 1
            } else {
                i
            };
            body.stmts[from..]
                .iter()
                .map(ToTokens::to_token_stream)
                .collect()
        }
    };
    names
        .iter()
        .filter(|n| mentions(lowered, n) && !mentions(&after, n))
        .cloned()
        .collect()
}

/// Whether `tokens` contain the identifier `name` anywhere, groups included.
pub fn mentions(tokens: &TokenStream, name: &Ident) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == *name,
        TokenTree::Group(g) => mentions(&g.stream(), name),
        TokenTree::Punct(_) | TokenTree::Literal(_) => false,
    })
}

/// Whether `tokens` contain `taskwait!` (any path ending in it) anywhere, groups included.
fn has_taskwait(tokens: &TokenStream) -> bool {
    let mut prev_taskwait = false;
    for t in tokens.clone() {
        match t {
            TokenTree::Punct(p) if p.as_char() == '!' && prev_taskwait => return true,
            TokenTree::Group(g) if has_taskwait(&g.stream()) => return true,
            TokenTree::Ident(i) => {
                prev_taskwait = i == "taskwait";
                continue;
            }
            _ => {}
        }
        prev_taskwait = false;
    }
    false
}

/// Whether `stmt` is a `taskwait!(..);` statement by itself.
fn is_bare_taskwait(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Macro(m) => Kind::of(&m.mac) == Some(Kind::Taskwait),
        Stmt::Expr(syn::Expr::Macro(m), _) => Kind::of(&m.mac) == Some(Kind::Taskwait),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::{format_ident, quote};

    fn localized(body: TokenStream, names: &[&str]) -> Vec<String> {
        let block: Block = syn::parse2(body).expect("a block");
        let names: Vec<Ident> = names.iter().map(|n| format_ident!("{n}")).collect();
        let tokens = block.to_token_stream();
        to_localize(&block, &tokens, &names)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn arguments_used_only_before_the_taskwait_become_locals() {
        let body = quote!({
            if n < c {
                return n;
            }
            let a = spawn!(queue(q), f(n - 1, c));
            taskwait!(queue(q));
            a.get() + m
        });
        // `q` is read by the taskwait itself, before the task suspends.
        assert_eq!(localized(body, &["n", "c", "q", "m"]), ["n", "c", "q"]);
    }

    #[test]
    fn a_taskwait_nested_in_a_statement_counts_that_whole_statement() {
        let body = quote!({
            let k = n;
            for i in 0..k {
                spawn!(f(i));
                taskwait!();
                let _ = m;
            }
            0
        });
        assert_eq!(localized(body, &["n", "m"]), ["n"]);
        let body = quote!({
            if n > 1 {
                spawn!(f(n));
                taskwait!();
            }
            0
        });
        assert!(localized(body, &["n"]).is_empty());
    }

    #[test]
    fn without_a_taskwait_every_named_argument_becomes_a_local() {
        let body = quote!({
            spawn!(f(n));
            n + 1
        });
        assert_eq!(localized(body, &["n", "unused"]), ["n"]);
    }

    #[test]
    fn mentions_looks_inside_groups() {
        let n = format_ident!("n");
        assert!(mentions(&quote!({ f((n + 1)) }), &n));
        assert!(!mentions(&quote!({ f((m + 1)) }), &n));
    }

    #[test]
    fn has_taskwait_wants_the_macro_call() {
        assert!(has_taskwait(&quote!({
            if x {
                gtap::taskwait!();
            }
        })));
        assert!(!has_taskwait(&quote!({
            let taskwait = 1;
        })));
    }
}
