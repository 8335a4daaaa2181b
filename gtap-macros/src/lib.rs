//! gtap's task-language macros. The task language (`#[gtap::task]`, `spawn!`, `taskwait!`)
//! is not implemented yet: this crate currently exports nothing.
