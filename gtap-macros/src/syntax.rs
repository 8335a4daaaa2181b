//! The forms of `spawn!`, `taskwait!` and `slots!` inside a task body.
//!
//! ```text
//! spawn!(CALL)                      spawn!(queue(Q), CALL)
//! spawn!(into HANDLES, CALL)        spawn!(into HANDLES, queue(Q), CALL)
//! spawn!(task, CALL)                spawn!(into HANDLES, task, queue(Q), CALL)
//! taskwait!()                       taskwait!(queue(Q))
//! slots!(TYPE; N)
//! ```

use syn::parse::{Parse, ParseStream};
use syn::{Expr, Ident, Macro, Token, Type};

/// Which of the task-language macros a macro call is, judged by its last path segment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Spawn,
    Taskwait,
    Slots,
}

impl Kind {
    pub fn of(mac: &Macro) -> Option<Kind> {
        let last = mac.path.segments.last()?.ident.to_string();
        match last.as_str() {
            "spawn" => Some(Kind::Spawn),
            "taskwait" => Some(Kind::Taskwait),
            "slots" => Some(Kind::Slots),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Spawn => "spawn!",
            Kind::Taskwait => "taskwait!",
            Kind::Slots => "slots!",
        }
    }
}

/// `queue(EXPR)`, the EPAQ queue selector.
fn parse_queue(input: ParseStream) -> syn::Result<Option<Expr>> {
    if input.peek(Ident) && input.peek2(syn::token::Paren) {
        let fork = input.fork();
        let kw: Ident = fork.parse()?;
        if kw == "queue" {
            let _: Ident = input.parse()?;
            let content;
            syn::parenthesized!(content in input);
            return Ok(Some(content.parse()?));
        }
    }
    Ok(None)
}

/// The arguments of `spawn!`.
pub struct SpawnArgs {
    pub into: Option<Expr>,
    /// `task,`: always a task, never run inline by the granularity policy.
    pub task: bool,
    pub queue: Option<Expr>,
    pub call: Expr,
}

impl Parse for SpawnArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut into = None;
        if input.peek(Ident) && !input.peek2(syn::token::Paren) {
            let fork = input.fork();
            let kw: Ident = fork.parse()?;
            if kw == "into" {
                let _: Ident = input.parse()?;
                into = Some(input.parse()?);
                let _: Token![,] = input.parse()?;
            }
        }
        let task = input.peek(Ident) && input.peek2(Token![,]) && {
            let fork = input.fork();
            let kw: Ident = fork.parse()?;
            kw == "task"
        };
        if task {
            let _: Ident = input.parse()?;
            let _: Token![,] = input.parse()?;
        }
        let queue = parse_queue(input)?;
        if queue.is_some() {
            let _: Token![,] = input.parse()?;
        }
        if input.is_empty() {
            return Err(input.error("expected a task call, e.g. `spawn!(fib(n - 1))`"));
        }
        let call: Expr = input.parse()?;
        let _: Option<Token![,]> = input.parse()?;
        if !input.is_empty() {
            return Err(input.error(
                "unexpected tokens: `spawn!` takes one task call, optionally after `into HANDLES,`, `task,` and `queue(EXPR),`",
            ));
        }
        Ok(SpawnArgs {
            into,
            task,
            queue,
            call,
        })
    }
}

/// The arguments of `taskwait!`.
pub struct TaskwaitArgs {
    pub queue: Option<Expr>,
}

impl Parse for TaskwaitArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let queue = parse_queue(input)?;
        let _: Option<Token![,]> = input.parse()?;
        if !input.is_empty() {
            return Err(input.error("`taskwait!` takes nothing or `queue(EXPR)`"));
        }
        Ok(TaskwaitArgs { queue })
    }
}

/// The arguments of `slots!`.
pub struct SlotsArgs {
    pub ty: Type,
    pub len: Expr,
}

impl Parse for SlotsArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let ty: Type = input.parse()?;
        let _: Token![;] = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected `slots!(TYPE; N)`, e.g. `slots!(u64; 16)`",
            )
        })?;
        let len: Expr = input.parse()?;
        Ok(SlotsArgs { ty, len })
    }
}
