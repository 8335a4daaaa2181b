//! Builds this crate's library (the task programs) into PTX for the GPU examples and tests.
fn main() {
    gtap_builder::PtxBuilder::new(".").build_or_exit();
}
