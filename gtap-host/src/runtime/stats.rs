//! [`Stats`]: what one run did, with the same fields on both backends, and each backend's
//! own statistics inside.

use std::fmt;
use std::time::Duration;

use crate::cpu::CpuStats;
use crate::gpu_runtime::GpuStats;

use super::Backend;

/// What one run of a [`Runtime`](super::Runtime) did. The fields are the same on both
/// backends; [`Stats::gpu`] and [`Stats::cpu`] reach each backend's own statistics (launch
/// shape, peak queue, profile; threads, peak records).
#[derive(Clone, Debug)]
pub struct Stats {
    /// Where it ran.
    pub backend: Backend,
    /// Tasks that ran to their return, the root included.
    pub tasks_executed: u64,
    /// Spawns run inline, as the child's sequential version, instead of as tasks (the
    /// granularity policy, [`Limits::auto_granularity`](crate::Limits::auto_granularity)).
    pub spawns_inlined: u64,
    /// Times a task frame was resumed (a task that waits `k` times is resumed `k + 1` times).
    pub resumes: u64,
    /// Steal attempts of idle workers (warps on the GPU, threads on the CPU).
    pub steals_attempted: u64,
    /// Steal attempts that took tasks.
    pub steals_won: u64,
    /// The run as the backend times it: on the GPU the kernel (CUDA events around the
    /// launch), on the CPU from starting the workers to joining them.
    pub run_time: Duration,
    /// Wall-clock time of the whole [`Runtime::run`](super::Runtime::run) call: on the GPU
    /// also the upload of the root, the launch and the read-back of the result.
    pub elapsed: Duration,
    /// The backend's own statistics.
    pub detail: BackendStats,
}

/// Each backend's own statistics, inside [`Stats`].
#[derive(Clone, Debug)]
pub enum BackendStats {
    /// A GPU run.
    Gpu(GpuStats),
    /// A CPU run.
    Cpu(CpuStats),
}

impl Stats {
    /// The statistics of a GPU run whose call took `elapsed`.
    pub fn from_gpu(stats: GpuStats, elapsed: Duration) -> Stats {
        Stats {
            backend: Backend::Gpu,
            tasks_executed: stats.tasks,
            spawns_inlined: stats.spawns_inlined,
            resumes: stats.resumes,
            steals_attempted: stats.steals_attempted,
            steals_won: stats.steals_won,
            run_time: stats.kernel_time,
            elapsed,
            detail: BackendStats::Gpu(stats),
        }
    }

    /// The statistics of a CPU run whose call took `elapsed`.
    pub fn from_cpu(stats: CpuStats, elapsed: Duration) -> Stats {
        Stats {
            backend: Backend::Cpu,
            tasks_executed: stats.tasks_executed,
            spawns_inlined: stats.spawns_inlined,
            resumes: stats.resumes,
            steals_attempted: stats.steals_attempted,
            steals_won: stats.steals_won,
            run_time: stats.elapsed,
            elapsed,
            detail: BackendStats::Cpu(stats),
        }
    }

    /// The GPU's own statistics, for a GPU run.
    pub fn gpu(&self) -> Option<&GpuStats> {
        match &self.detail {
            BackendStats::Gpu(s) => Some(s),
            BackendStats::Cpu(_) => None,
        }
    }

    /// The CPU backend's own statistics, for a CPU run.
    pub fn cpu(&self) -> Option<&CpuStats> {
        match &self.detail {
            BackendStats::Cpu(s) => Some(s),
            BackendStats::Gpu(_) => None,
        }
    }

    /// Tasks executed per second of [`run_time`](Self::run_time) (0 for a run too short to
    /// time).
    pub fn tasks_per_second(&self) -> f64 {
        let secs = self.run_time.as_secs_f64();
        if secs > 0.0 {
            self.tasks_executed as f64 / secs
        } else {
            0.0
        }
    }
}

impl fmt::Display for Stats {
    /// E.g. `1664079 tasks in 12.41 ms on the GPU (134.1 M tasks/s), 13.02 ms end to end`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} tasks in {:.2} ms on the {} ({:.1} M tasks/s), {:.2} ms end to end",
            self.tasks_executed,
            self.run_time.as_secs_f64() * 1e3,
            self.backend,
            self.tasks_per_second() / 1e6,
            self.elapsed.as_secs_f64() * 1e3,
        )?;
        if self.spawns_inlined > 0 {
            write!(f, "; {} spawns ran inline", self.spawns_inlined)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_backends_fill_the_common_fields() {
        let gpu = Stats::from_gpu(
            GpuStats {
                kernel_time: Duration::from_millis(2),
                tasks: 100,
                spawns_inlined: 3,
                resumes: 150,
                steals_attempted: 9,
                steals_won: 4,
                grid: 132,
                ..GpuStats::default()
            },
            Duration::from_millis(3),
        );
        let cpu = Stats::from_cpu(
            CpuStats {
                threads: 2,
                tasks_executed: 100,
                spawns_inlined: 3,
                resumes: 150,
                steals_attempted: 9,
                steals_won: 4,
                peak_records_in_use: 8,
                task_capacity: 64,
                elapsed: Duration::from_millis(2),
            },
            Duration::from_millis(3),
        );
        for (s, backend) in [(&gpu, Backend::Gpu), (&cpu, Backend::Cpu)] {
            assert_eq!(s.backend, backend);
            assert_eq!(
                (s.tasks_executed, s.spawns_inlined, s.resumes),
                (100, 3, 150)
            );
            assert_eq!((s.steals_attempted, s.steals_won), (9, 4));
            assert_eq!(s.run_time, Duration::from_millis(2));
            assert_eq!(s.elapsed, Duration::from_millis(3));
            assert_eq!(s.tasks_per_second(), 50_000.0);
        }
        assert_eq!(gpu.gpu().map(|g| g.grid), Some(132));
        assert!(gpu.cpu().is_none());
        assert_eq!(cpu.cpu().map(|c| c.threads), Some(2));
        assert!(cpu.gpu().is_none());
        assert_eq!(
            cpu.to_string(),
            "100 tasks in 2.00 ms on the CPU (0.1 M tasks/s), 3.00 ms end to end; 3 spawns ran inline"
        );
    }
}
