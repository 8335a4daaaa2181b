//! gtap's host side (being filled in).

/// The PTX that `gtap_builder` wrote for device crate `name` (its name with `-` as `_`),
/// embedded as a `&'static str`. Use it in a crate whose `build.rs` ran the builder.
#[macro_export]
macro_rules! include_ptx {
    ($name:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/", $name, ".ptx"))
    };
}
