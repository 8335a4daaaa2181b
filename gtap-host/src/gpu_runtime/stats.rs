//! [`GpuStats`]: what one GPU run did, as the host decodes it from the workers' counters.

use std::time::Duration;

use super::Profile;

/// What one GPU run did.
#[derive(Clone, Debug, Default)]
pub struct GpuStats {
    /// Kernel time, measured with CUDA events around the launch.
    pub kernel_time: Duration,
    /// Blocks launched.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// Tasks that completed (every spawned task and the root).
    pub tasks: u64,
    /// Times a task frame was resumed (a task resumed after a join counts again).
    pub resumes: u64,
    /// Victims idle warps tried.
    pub steals_attempted: u64,
    /// Steals that took tasks.
    pub steals_won: u64,
    /// Rounds of the persistent loop, over all warps.
    pub rounds: u64,
    /// Rounds in which a warp found no task.
    pub idle_rounds: u64,
    /// Spawns run inline, as the child's sequential version, instead of as tasks (the
    /// granularity policy, [`Limits::auto_granularity`](crate::Limits::auto_granularity)),
    /// and calls that split tasks walked ([`Limits::split_budget`](crate::Limits::split_budget)).
    /// For a program that only splits (fib), `tasks + spawns_inlined` is its calls.
    /// The tasks a run made are `tasks - 1` (the root was not spawned).
    pub spawns_inlined: u64,
    /// Cycles the lanes spent in inline calls, over all warps (`%clock64`, SM cycles).
    pub inline_cycles: u64,
    /// Tasks the inline calls saved, over all warps: the spawns run inline
    /// ([`spawns_inlined`](Self::spawns_inlined)) and every spawn that their sequential
    /// calls ran as a plain call. The policy weighs them against the rounds its calls held
    /// up ([`GpuTuning::inline_task_rounds`](super::GpuTuning::inline_task_rounds)).
    pub spawns_elided: u64,
    /// The average of the warps' ordinary rounds (those without inline calls), in cycles,
    /// when they left: the yardstick of the policy's back-off
    /// ([`GpuTuning::inline_backoff_ratio`](super::GpuTuning::inline_backoff_ratio)).
    pub round_cycles: u64,
    /// The most levels any warp backed off its inline depth; `granularity::MAX_BACKOFF`
    /// (`gtap_device::runtime::granularity`) when a warp stopped inlining because its leaf
    /// tasks were heavy (README, "Automatic granularity").
    pub backoff: u32,
    /// Rounds of heavy leaf tasks the warps saw (each warp's first four), the count the
    /// grid stops inlining at ([`GpuTuning::inline_grid_heavy_rounds`](super::GpuTuning::inline_grid_heavy_rounds)).
    pub heavy_leaf_rounds: u32,
    /// The most records of its own slab any one warp used.
    pub peak_records_per_warp: u32,
    /// Chunks of the device-wide record reserve that warps borrowed when their slab ran
    /// short ([`GpuLaunch::reserve_records`](super::GpuLaunch::reserve_records)), over the
    /// run (a chunk lent again counts again).
    pub chunks_borrowed: u64,
    /// Records of the run's reserve (whole chunks; 0: none).
    pub reserve_records: u64,
    /// The most tasks published in one warp queue at once.
    pub peak_queue: u32,
    /// The per-warp timeline, when the run was profiled
    /// ([`GpuConfig::profile`](super::GpuLaunch::profile)); `None` otherwise.
    pub profile: Option<Profile>,
}
