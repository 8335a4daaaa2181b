//! [`GpuConfig`]: the launch shape and the sizes of the run's structures.

use std::time::Duration;

use gtap_device::runtime::gpu::layout::MAX_QUEUES;

use super::GpuRunError;
use crate::DeviceProps;

/// How a GPU run is launched and how large its structures are. Every field has a default
/// derived from the device or from GTaP's evaluation; [`GpuConfig::validate`] rejects
/// values that cannot work, before anything is allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuConfig {
    /// Blocks in the grid. `None`: as many as can be resident at once (occupancy × SMs), so
    /// that every worker runs from the start, but at most `warps_per_sm` warps per SM.
    pub grid: Option<u32>,
    /// With `grid: None`, the most warps per SM the default grid puts to work (default 16).
    /// Fewer warps than the SM can hold ran faster on an H200 (results/README.md: fib(40)
    /// 84 ms with 16 per SM, 113 ms with all 32 resident; nqueens, cilksort and the tree
    /// equal or better), as they contend less for the memory system and each other's queues.
    pub warps_per_sm: u32,
    /// Threads per block, a multiple of 32 (default 32, as in GTaP's thread-level runs).
    pub block: u32,
    /// Task records per warp (each warp allocates from its own slab).
    pub tasks_per_warp: u32,
    /// Entries of each warp queue, a power of two.
    pub queue_capacity: u32,
    /// EPAQ queues per warp, `1..=8`.
    pub num_queues: u32,
    /// Victims an idle warp tries per round.
    pub steal_attempts: u32,
    /// A run longer than this is stopped and reported as [`GpuRunError::TimedOut`].
    pub timeout: Duration,
    /// Registers per thread the driver may give the kernels (`None`: its own choice). Fewer
    /// registers let more warps be resident (block size permitting), at the price of spills.
    pub max_registers: Option<u32>,
    /// The most tasks a warp keeps for itself, unpublished, at the end of a round (default
    /// 32, a warp's width, as GTaP). More saves the warp the atomics of publishing and popping
    /// while it has plenty of work, but hides those tasks from thieves. `0..=queue_capacity/2`.
    pub keep_unpublished: u32,
    /// Whether the lane that completes a parent's last child resumes the parent at once (when
    /// the parent's continuation goes to the current queue) instead of queueing it for a later
    /// round. Default off (GTaP's behaviour).
    pub resume_inline: bool,
}

impl Default for GpuConfig {
    fn default() -> Self {
        GpuConfig {
            grid: None,
            warps_per_sm: 16,
            block: 32,
            tasks_per_warp: 4096,
            queue_capacity: 4096,
            num_queues: 1,
            steal_attempts: 8,
            timeout: Duration::from_secs(120),
            max_registers: None,
            keep_unpublished: 32,
            resume_inline: false,
        }
    }
}

impl GpuConfig {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the number of blocks.
    pub fn grid(mut self, blocks: u32) -> Self {
        self.grid = Some(blocks);
        self
    }

    /// Sets the most warps per SM of the default grid (64 or more: every resident warp).
    pub fn warps_per_sm(mut self, warps: u32) -> Self {
        self.warps_per_sm = warps;
        self
    }

    /// Sets the threads per block (a multiple of 32).
    pub fn block(mut self, threads: u32) -> Self {
        self.block = threads;
        self
    }

    /// Sets the task records per warp.
    pub fn tasks_per_warp(mut self, records: u32) -> Self {
        self.tasks_per_warp = records;
        self
    }

    /// Sets the entries per warp queue (a power of two).
    pub fn queue_capacity(mut self, entries: u32) -> Self {
        self.queue_capacity = entries;
        self
    }

    /// Sets the EPAQ queues per warp (1 to 8).
    pub fn num_queues(mut self, queues: u32) -> Self {
        self.num_queues = queues;
        self
    }

    /// Sets the victims an idle warp tries per round.
    pub fn steal_attempts(mut self, attempts: u32) -> Self {
        self.steal_attempts = attempts;
        self
    }

    /// Sets the run's time limit.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Limits the registers per thread (16 to 255).
    pub fn max_registers(mut self, registers: u32) -> Self {
        self.max_registers = Some(registers);
        self
    }

    /// Sets the most tasks a warp keeps unpublished between rounds.
    pub fn keep_unpublished(mut self, tasks: u32) -> Self {
        self.keep_unpublished = tasks;
        self
    }

    /// Sets whether a parent resumes at once in the lane that completed its last child.
    pub fn resume_inline(mut self, on: bool) -> Self {
        self.resume_inline = on;
        self
    }

    /// Checks the settings that do not depend on the device.
    pub fn validate(&self) -> Result<(), GpuRunError> {
        let bad = |setting: &'static str, value: u64, why: &'static str| {
            Err(GpuRunError::InvalidConfig {
                setting,
                value,
                why,
            })
        };
        if self.block == 0 || !self.block.is_multiple_of(32) {
            return bad(
                "block",
                self.block.into(),
                "threads per block must be a positive multiple of 32 (a warp)",
            );
        }
        if self.warps_per_sm == 0 {
            return bad(
                "warps_per_sm",
                0,
                "the default grid needs at least one warp per SM",
            );
        }
        if self.grid == Some(0) {
            return bad("grid", 0, "the grid needs at least one block");
        }
        if self.tasks_per_warp == 0 || self.tasks_per_warp > 1 << 24 {
            return bad(
                "tasks_per_warp",
                self.tasks_per_warp.into(),
                "must be between 1 and 2^24",
            );
        }
        if !self.queue_capacity.is_power_of_two()
            || self.queue_capacity < 64
            || self.queue_capacity > 1 << 24
        {
            return bad(
                "queue_capacity",
                self.queue_capacity.into(),
                "must be a power of two between 64 and 2^24",
            );
        }
        if self.num_queues == 0 || self.num_queues > MAX_QUEUES {
            return bad(
                "num_queues",
                self.num_queues.into(),
                "must be between 1 and 8",
            );
        }
        if self.steal_attempts == 0 {
            return bad(
                "steal_attempts",
                0,
                "an idle warp must try at least one victim",
            );
        }
        if let Some(r) = self.max_registers
            && !(16..=255).contains(&r)
        {
            return bad("max_registers", r.into(), "must be between 16 and 255");
        }
        if self.keep_unpublished > self.queue_capacity / 2 {
            return bad(
                "keep_unpublished",
                self.keep_unpublished.into(),
                "must be at most half of queue_capacity",
            );
        }
        if self.timeout.is_zero() {
            return bad("timeout", 0, "must be longer than zero");
        }
        Ok(())
    }

    /// Checks the block size against the device.
    pub(crate) fn validate_for(&self, props: &DeviceProps) -> Result<(), GpuRunError> {
        if self.block > props.max_threads_per_block {
            return Err(GpuRunError::InvalidConfig {
                setting: "block",
                value: self.block.into(),
                why: "more threads per block than the device allows",
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        GpuConfig::new().validate().unwrap();
    }

    #[test]
    fn bad_settings_are_named() {
        for (cfg, setting) in [
            (GpuConfig::new().block(48), "block"),
            (GpuConfig::new().block(0), "block"),
            (GpuConfig::new().grid(0), "grid"),
            (GpuConfig::new().tasks_per_warp(0), "tasks_per_warp"),
            (GpuConfig::new().queue_capacity(1000), "queue_capacity"),
            (GpuConfig::new().num_queues(9), "num_queues"),
            (GpuConfig::new().num_queues(0), "num_queues"),
            (GpuConfig::new().timeout(Duration::ZERO), "timeout"),
            (GpuConfig::new().max_registers(8), "max_registers"),
            (GpuConfig::new().keep_unpublished(4096), "keep_unpublished"),
        ] {
            let err = cfg.validate().unwrap_err().to_string();
            assert!(err.contains(setting), "{err}");
        }
    }
}
