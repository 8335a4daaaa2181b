//! The parameters a summing sequential version keeps out of its stack of pending calls
//! ([`seq_sum`](crate::seq_sum)): those that every child gets unchanged from its parent.
//!
//! ```text
//! #[gtap::task]
//! fn nqueens(n: u32, row: u32, cols: u32, .., cutoff: u32) -> u64 {
//!     ..
//!     spawn!(into counts, nqueens(n, row + 1, cols | bit, .., cutoff));
//! }
//! ```
//!
//! Here `n` and `cutoff` are the same in every call of the search, so the loop pushes and
//! pops only `(row, cols, ..)` and reads `n` and `cutoff` from its own parameters. Why: the
//! stack lives in local memory on the GPU, and each tuple is written once and read once per
//! node of the tree, so the words that never change are a third of nqueens' traffic there.
//!
//! A parameter is kept out, judged on the syntax, when:
//! - it is a plain name, not `mut` (nothing in the body can assign it), of a primitive
//!   scalar type (so the closure that runs the body reads it by copy however it uses it);
//! - every `spawn!` passes exactly that name in its position;
//! - nothing in the body binds the name again (no pattern of a `let`, a `match`, a closure
//!   or a loop, and no macro but the standard library's and gtap's mentions it: a macro in
//!   statement position could expand to a `let` of it), so the name at each spawn is the
//!   parameter;
//! - and at least one parameter is not kept out (a call whose children all get its own
//!   arguments never ends).

use syn::punctuated::Punctuated;
use syn::token::Comma;
use syn::visit::Visit;
use syn::{Block, Expr, FnArg, Ident, Macro, Pat, Type};

use crate::locals::mentions;
use crate::syntax::{Kind, SpawnArgs};

/// Types whose values the loop may read from its parameters in every iteration.
const SCALARS: [&str; 16] = [
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "bool",
    "char", "f32", "f64",
];

/// Macros that never bind a name of the caller's (besides gtap's task macros).
const NON_BINDING: [&str; 17] = [
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
    "format",
    "format_args",
    "print",
    "println",
    "eprint",
    "eprintln",
    "matches",
];

/// For each of `params`, whether the summing loop over `block` keeps it out of its stack
/// (module docs). `block` is the task's own body, whose every `spawn!` calls the task with
/// all its arguments (checked by the summing form's census).
pub fn fixed_params(params: &Punctuated<FnArg, Comma>, block: &Block) -> Vec<bool> {
    let mut spawns = SpawnCalls::default();
    spawns.visit_block(block);
    let fixed: Vec<bool> = params
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            FnArg::Typed(t) => match (&*t.pat, scalar(&t.ty)) {
                (Pat::Ident(pi), true) => {
                    let plain =
                        pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_none();
                    plain && spawns.passes_through(i, &pi.ident) && !Rebinds::of(block, &pi.ident)
                }
                _ => false,
            },
            FnArg::Receiver(_) => false,
        })
        .collect();
    if fixed.iter().all(|&f| f) || spawns.failed {
        return vec![false; fixed.len()];
    }
    fixed
}

/// Whether `ty` is a primitive scalar type, written as its bare name.
fn scalar(ty: &Type) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => p
            .path
            .get_ident()
            .is_some_and(|i| SCALARS.contains(&i.to_string().as_str())),
        Type::Paren(p) => scalar(&p.elem),
        _ => false,
    }
}

/// The argument lists of a body's `spawn!`s.
#[derive(Default)]
struct SpawnCalls {
    calls: Vec<Vec<Expr>>,
    /// A `spawn!` whose arguments did not parse as a call (the census refuses such bodies;
    /// kept here so that this module never guesses).
    failed: bool,
}

impl SpawnCalls {
    /// Whether every spawn passes exactly `name` as its argument `i`.
    fn passes_through(&self, i: usize, name: &Ident) -> bool {
        self.calls.iter().all(|args| {
            matches!(args.get(i), Some(Expr::Path(p))
                if p.qself.is_none() && p.attrs.is_empty() && p.path.is_ident(name))
        })
    }
}

impl<'a> Visit<'a> for SpawnCalls {
    fn visit_macro(&mut self, m: &'a Macro) {
        if Kind::of(m) != Some(Kind::Spawn) {
            return;
        }
        match m.parse_body::<SpawnArgs>() {
            Ok(SpawnArgs {
                call: Expr::Call(c),
                ..
            }) => self.calls.push(c.args.into_iter().collect()),
            _ => self.failed = true,
        }
    }
}

/// Finds whether a body binds a name again, or hands it to a macro that might.
struct Rebinds<'n> {
    name: &'n Ident,
    found: bool,
}

impl Rebinds<'_> {
    fn of(block: &Block, name: &Ident) -> bool {
        let mut v = Rebinds { name, found: false };
        v.visit_block(block);
        v.found
    }
}

impl<'a> Visit<'a> for Rebinds<'_> {
    fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
        self.found |= p.ident == *self.name;
        syn::visit::visit_pat_ident(self, p);
    }
    fn visit_macro(&mut self, m: &'a Macro) {
        let known = Kind::of(m).is_some()
            || m.path
                .segments
                .last()
                .is_some_and(|s| NON_BINDING.contains(&s.ident.to_string().as_str()));
        if !known && mentions(&m.tokens, self.name) {
            self.found = true;
        }
    }
}
