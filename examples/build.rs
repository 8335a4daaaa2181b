//! Builds this crate's library (the task programs) into PTX for the GPU examples and tests:
//! the plain kernels (`gtap_examples.ptx`), and the same with the profiled kernels
//! (`gtap_examples_profiled.ptx`, for `bench --profile` and the profiler's GPU test; a
//! second compilation of this crate alone, its dependencies are reused).
fn main() {
    gtap_builder::PtxBuilder::new(".").build_or_exit();
    gtap_builder::PtxBuilder::new(".")
        .profile(true)
        .output_name("gtap_examples_profiled")
        .build_or_exit();
}
