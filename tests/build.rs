//! Builds this crate's own library (the test kernels) into PTX for the integration tests,
//! with the lab kernels (the random programs run under every scheduler). The plain build's
//! contents are checked on the examples' PTX (`profile_gpu`).
fn main() {
    gtap::build::PtxBuilder::new(".").lab(true).build_or_exit();
}
