#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// `taskwait!` only means something inside a task.
fn main() {
    gtap::taskwait!();
}
