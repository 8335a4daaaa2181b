#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
// `spawn!` only means something inside a task.
fn main() {
    gtap::spawn!(main());
}
