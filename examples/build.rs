//! Builds this crate's library (the task programs) into PTX for the GPU examples and tests:
//! the plain kernels (`gtap_examples.ptx`), and the same with the lab kernels
//! (`gtap_examples_lab.ptx`: profiled and ablation-scheduler kernels, for `bench --profile`,
//! `bench --scheduler` and their GPU tests; a second compilation of this crate alone, its
//! dependencies are reused).
fn main() {
    gtap::build::PtxBuilder::new(".").build_or_exit();
    gtap::build::PtxBuilder::new(".")
        .lab(true)
        .output_name("gtap_examples_lab")
        .build_or_exit();
}
