//! Builds this crate's library, the task program, into PTX for the GPU; `src/main.rs`
//! embeds it with `gtap::include_ptx!()`. A mistake in the task program or in this crate's
//! set-up stops the build here, with the compiler's errors and what to change.
fn main() {
    gtap::build::PtxBuilder::new(".").build_or_exit();
}
