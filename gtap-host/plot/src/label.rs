//! Short tick labels: `0.5`, `20`, `1.5k`, `2M`, `1e-3`, and on base-2 axes `512`, `8Ki`, `1Mi`.
//!
//! Labels must stay a few characters wide so that a dense axis still has room for them, and a
//! reader should see the exact value of a benchmark parameter: on a base-2 axis `1Ki` is 1024, not
//! a rounded thousand.

/// Removes trailing zeros after a decimal point, and the point itself if nothing follows it.
fn trim(s: String) -> String {
    if !s.contains('.') {
        return s;
    }
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Decimals needed to write `resolution` exactly (0.25 needs 2, 5 needs 0), at most 9.
fn decimals(resolution: f64) -> usize {
    let r = resolution.abs();
    if !(r.is_finite() && r > 0.0) {
        return 3;
    }
    (0..9)
        .find(|d| {
            let scaled = r * 10f64.powi(*d as i32);
            (scaled - scaled.round()).abs() <= 1e-6 * scaled
        })
        .unwrap_or(9)
}

/// `v` as `m e k`, e.g. `2.5e-4`, with enough mantissa digits for `resolution`.
fn scientific(v: f64, resolution: f64) -> String {
    let e = v.abs().log10().floor();
    let m = v / 10f64.powf(e);
    let dec = decimals(resolution / 10f64.powf(e)).min(3);
    let mant = trim(format!("{m:.dec$}"));
    // Rounding can carry the mantissa to 10 (9.99 -> "10"); renormalise.
    if mant.trim_start_matches('-') == "10" {
        return format!("{}e{}", if v < 0.0 { "-1" } else { "1" }, e as i64 + 1);
    }
    format!("{mant}e{}", e as i64)
}

/// A label for `v` on a decimal axis whose neighbouring labels differ by at least `resolution`.
///
/// Large values get SI suffixes (k, M, G, T), values below 0.01 scientific notation, the rest
/// plain decimals with no trailing zeros.
pub fn decimal(v: f64, resolution: f64) -> String {
    let a = v.abs();
    if !v.is_finite() {
        return format!("{v}");
    }
    if a < resolution.abs() * 1e-6 || a == 0.0 {
        return "0".to_string();
    }
    if !(1e-2..1e15).contains(&a) {
        return scientific(v, resolution);
    }
    if a >= 1000.0 {
        let (unit, suffix) = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
            .into_iter()
            .find(|(unit, _)| a >= *unit)
            .unwrap_or((1e3, "k"));
        let dec = decimals(resolution / unit).min(3);
        return format!("{}{suffix}", trim(format!("{:.dec$}", v / unit)));
    }
    let dec = decimals(resolution).min(6);
    trim(format!("{v:.dec$}"))
}

/// Labels for the ticks `values` of a linear axis with step `step`, in one style for the whole
/// axis: scientific when every value is below 0.01 (`2e-3`, `4e-3`), else plain decimals for
/// the small ones (`0.002` next to `0.012`, not `2e-3`) and suffixes for the large ones.
pub fn linear(values: &[f64], step: f64) -> Vec<String> {
    let max = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    values
        .iter()
        .map(|&v| {
            if max >= 1e-2 && v.abs() < 1e-2 && v.abs() >= step.abs() * 1e-6 {
                trim(format!("{v:.*}", decimals(step).min(9)))
            } else {
                decimal(v, step)
            }
        })
        .collect()
}

/// A label for the power of two `2^e` on a base-2 axis: plain up to 512, then binary suffixes
/// (`1Ki` = 1024, `8Mi` = 2^23), `0.5` to `0.125` below 1 and `2^-4` further down.
pub fn power_of_two(e: i32) -> String {
    const SUFFIX: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
    match e {
        0..=69 => format!("{}{}", 1u64 << (e % 10), SUFFIX[(e / 10) as usize]),
        -3..=-1 => trim(format!("{:.3}", 2f64.powi(e))),
        _ => format!("2^{e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimals() {
        assert_eq!(decimal(0.0, 0.1), "0");
        assert_eq!(decimal(0.5, 0.1), "0.5");
        assert_eq!(decimal(0.30000000000000004, 0.1), "0.3");
        assert_eq!(decimal(12.5, 2.5), "12.5");
        assert_eq!(decimal(20.0, 5.0), "20");
        assert_eq!(decimal(-4.0, 2.0), "-4");
        assert_eq!(decimal(0.012, 0.002), "0.012");
        assert_eq!(decimal(1e-17, 0.1), "0");
    }

    #[test]
    fn suffixes_for_large_values() {
        assert_eq!(decimal(1000.0, 1000.0), "1k");
        assert_eq!(decimal(1500.0, 500.0), "1.5k");
        assert_eq!(decimal(25000.0, 5000.0), "25k");
        assert_eq!(decimal(2e6, 1e6), "2M");
        assert_eq!(decimal(3.2e9, 2e8), "3.2G");
        assert_eq!(decimal(1e12, 1e12), "1T");
        assert_eq!(decimal(-2000.0, 1000.0), "-2k");
    }

    #[test]
    fn scientific_for_small_and_huge() {
        assert_eq!(decimal(1e-3, 1e-3), "1e-3");
        assert_eq!(decimal(2.5e-4, 5e-5), "2.5e-4");
        assert_eq!(decimal(1e18, 1e18), "1e18");
        assert_eq!(decimal(-1e-5, 1e-5), "-1e-5");
    }

    #[test]
    fn one_style_per_linear_axis() {
        assert_eq!(
            linear(&[0.0, 0.004, 0.008, 0.012], 0.004),
            ["0", "0.004", "0.008", "0.012"]
        );
        assert_eq!(linear(&[-0.004, 0.0, 0.004], 0.002), ["-4e-3", "0", "4e-3"]);
        assert_eq!(linear(&[0.0, 500.0, 1000.0], 500.0), ["0", "500", "1k"]);
    }

    #[test]
    fn powers_of_two() {
        assert_eq!(power_of_two(0), "1");
        assert_eq!(power_of_two(9), "512");
        assert_eq!(power_of_two(10), "1Ki");
        assert_eq!(power_of_two(13), "8Ki");
        assert_eq!(power_of_two(20), "1Mi");
        assert_eq!(power_of_two(-1), "0.5");
        assert_eq!(power_of_two(-3), "0.125");
        assert_eq!(power_of_two(-4), "2^-4");
        assert_eq!(power_of_two(70), "2^70");
    }
}
