//! Builds this crate's own library (the test kernels) into PTX for the integration tests.
fn main() {
    gtap_builder::PtxBuilder::new(".").build_or_exit();
}
