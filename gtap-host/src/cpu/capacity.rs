//! How many task records a CPU run gets when the configuration leaves it to the runtime
//! (`CpuConfig::task_capacity` unset, the default): the CPU twin of the GPU's reserve sized
//! from free device memory.
//!
//! A CPU run's records are one zeroed allocation (`cpu/memory.rs`), whose pages the system
//! maps only when a record is first used, and the pool hands out never-used records in
//! order and reuses freed ones first. So a large capacity costs address space, not memory: a
//! run touches about as many records as it ever has alive. The default is therefore as many
//! records as a quarter of the host's memory holds, which lets deep or wide programs run
//! without a hand-set size and still ends a runaway program with `PoolExhausted` well before
//! the host runs out of memory. The host's memory is the smaller of its physical memory and
//! the memory limit of its control group (a container's), read from Linux's `/proc` and
//! `/sys`; where they cannot be read (another system, or Miri's isolation), the default is
//! [`FALLBACK_RECORDS`].

use std::fs;

use super::config::MAX_TASK_CAPACITY;

/// The default where the host's memory is unknown.
pub const FALLBACK_RECORDS: u32 = 1 << 20;

/// The fewest records the default gives, however little memory the host reports (and the
/// floor of the halving when an allocation of the default fails).
pub const MIN_AUTO_RECORDS: u32 = 1 << 16;

/// The default capacity for records of `record_bytes` bytes on a host with `host_bytes` of
/// memory (`None`: unknown).
pub fn auto_records(host_bytes: Option<u64>, record_bytes: usize) -> u32 {
    let Some(host) = host_bytes else {
        return FALLBACK_RECORDS;
    };
    let records = host / 4 / (record_bytes.max(1) as u64);
    records.clamp(u64::from(MIN_AUTO_RECORDS), u64::from(MAX_TASK_CAPACITY)) as u32
}

/// The host's memory in bytes: the smaller of its physical memory and its control group's
/// limit, or `None` where neither can be read.
pub fn host_bytes() -> Option<u64> {
    if cfg!(miri) {
        return None;
    }
    let physical = fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| meminfo_total(&s));
    let cgroup = fs::read_to_string("/sys/fs/cgroup/memory.max")
        .or_else(|_| fs::read_to_string("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    match (physical, cgroup) {
        (Some(p), Some(c)) => Some(p.min(c)),
        (p, c) => p.or(c),
    }
}

/// `MemTotal` of `/proc/meminfo`'s text, in bytes.
fn meminfo_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_of_the_host_in_records_within_bounds() {
        // 16 GiB of 128-byte records.
        assert_eq!(auto_records(Some(64 << 30), 128), 1 << 27);
        assert_eq!(
            auto_records(Some(1 << 20), 128),
            MIN_AUTO_RECORDS,
            "small hosts"
        );
        assert_eq!(
            auto_records(Some(u64::MAX), 8),
            MAX_TASK_CAPACITY,
            "huge hosts"
        );
        assert_eq!(auto_records(None, 128), FALLBACK_RECORDS, "unknown memory");
    }

    #[test]
    fn meminfo_is_read_in_kilobytes() {
        let text = "MemTotal:       16318412 kB\nMemFree:         1234 kB\n";
        assert_eq!(meminfo_total(text), Some(16_318_412 * 1024));
        assert_eq!(meminfo_total("MemFree: 1 kB\n"), None);
        assert_eq!(meminfo_total("MemTotal: x kB\n"), None);
    }
}
