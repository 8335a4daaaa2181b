//! [`CpuRuntime`]: starts the worker threads for one run and collects the outcome.

use std::any::Any;
use std::mem::MaybeUninit;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use gtap_device::runtime::RuntimeError;
use gtap_device::runtime::cpu::{Run, RunOptions, WorkerStats};
use gtap_device::runtime::record::Record;
use gtap_device::task::{Call, Program};

use super::config::CpuConfig;
use super::error::CpuError;
use super::memory::CpuMemory;

/// What a run did. Totals over all workers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuStats {
    /// Worker threads used.
    pub threads: usize,
    /// Tasks that ran to their return, the root included.
    pub tasks_executed: u64,
    /// Resumptions of task frames. A task that suspends `k` times is resumed `k + 1` times.
    pub resumes: u64,
    /// Steal attempts on victims.
    pub steals_attempted: u64,
    /// Steal attempts that took at least one task.
    pub steals_won: u64,
    /// An upper bound on the most task records in use at once: the records handed out at
    /// least once in the run. It exceeds the true peak by at most the free records parked in
    /// the workers' local caches when the last new record was handed out: at most 64 per
    /// worker, and at most a quarter of the pool (but at least one per worker).
    pub peak_records_in_use: u32,
    /// Wall-clock time from starting the workers to joining them.
    pub elapsed: Duration,
}

/// Runs task programs on host threads with work stealing. Reusable: the memory is allocated
/// by [`CpuRuntime::new`] (records: at the first run) and reset, not reallocated, for every
/// later run with the same configuration.
pub struct CpuRuntime {
    config: CpuConfig,
    memory: CpuMemory,
}

impl CpuRuntime {
    /// A runtime with `config`, validated, and its queues allocated.
    pub fn new(config: CpuConfig) -> Result<Self, CpuError> {
        config.validate()?;
        let memory = CpuMemory::new(config.threads, config.queue_capacity)?;
        Ok(CpuRuntime { config, memory })
    }

    /// The configuration.
    pub fn config(&self) -> &CpuConfig {
        &self.config
    }

    /// Changes the configuration. The memory is reallocated only if the threads or queue
    /// capacity changed (records are sized at the next run).
    pub fn set_config(&mut self, config: CpuConfig) -> Result<(), CpuError> {
        config.validate()?;
        if config.threads != self.config.threads
            || config.queue_capacity != self.config.queue_capacity
        {
            // Free the old queues first, so that peak memory is not old + new.
            self.memory = CpuMemory::new(1, 2)?;
            self.memory = CpuMemory::new(config.threads, config.queue_capacity)?;
        }
        self.config = config;
        Ok(())
    }

    /// The address of the task record buffer, once a run allocated it (to check reuse).
    #[doc(hidden)]
    pub fn records_addr(&self) -> Option<usize> {
        self.memory.records_addr()
    }

    /// Runs `root` to completion on the configured number of threads and returns its result.
    ///
    /// On an error (a limit hit, a task panic) every worker stops, the frames of the tasks
    /// left unfinished are dropped, and the error says which limit to raise. The runtime stays
    /// usable for the next run.
    pub fn run<P: Program, R: Copy + Send + 'static>(
        &mut self,
        root: Call<P, R>,
    ) -> Result<(R, CpuStats), CpuError> {
        let capacity = self.config.task_capacity;
        let oom = || CpuError::OutOfMemory {
            what: "the task records",
            bytes: usize::MAX,
            setter: "task_capacity",
        };
        let layout = Record::<P::Task>::array_layout(capacity).map_err(|_| oom())?;
        let threads = self.config.threads;
        let mut result = MaybeUninit::<R>::uninit();
        let panic_message: Mutex<Option<String>> = Mutex::new(None);
        let mut spawn_error: Option<CpuError> = None;

        let run_memory = self.memory.for_run(layout, capacity)?;
        let options = RunOptions {
            num_queues: self.config.num_queues,
            idle: std::thread::yield_now,
        };
        // SAFETY: the record memory holds `capacity` records of `P::Task` (its layout came
        // from `Record::array_layout`) and is used by nothing else while `run` lives.
        let mut run = unsafe { Run::<P>::new(run_memory, options) };
        // SAFETY: `result` outlives the run and has the root's result type.
        unsafe { run.seed(root.into_task(), result.as_mut_ptr().cast()) }
            .map_err(|e| CpuError::from_runtime(e, None))?;

        let started = Instant::now();
        let mut totals = WorkerStats::default();
        std::thread::scope(|scope| {
            let run = &run;
            let panic_message = &panic_message;
            let mut handles = Vec::with_capacity(threads);
            for index in 0..threads {
                let spawned = std::thread::Builder::new()
                    .name(format!("gtap-cpu-{index}"))
                    .spawn_scoped(scope, move || {
                        worker_thread(run, index as u32, panic_message)
                    });
                match spawned {
                    Ok(handle) => handles.push(handle),
                    Err(source) => {
                        // Stop the workers already started; report the OS error below.
                        run.fail(RuntimeError::TaskPanicked {
                            task: "(starting the workers)",
                        });
                        spawn_error = Some(CpuError::ThreadSpawn { index, source });
                        break;
                    }
                }
            }
            for handle in handles {
                // Worker threads catch every panic themselves.
                match handle.join() {
                    Ok(stats) => totals += stats,
                    Err(payload) => panic::resume_unwind(payload),
                }
            }
        });
        let elapsed = started.elapsed();
        let stats = CpuStats {
            threads,
            tasks_executed: totals.tasks_executed,
            resumes: totals.resumes,
            steals_attempted: totals.steals_attempted,
            steals_won: totals.steals_won,
            peak_records_in_use: run.peak_records(),
            elapsed,
        };
        let outcome = run.finish();
        if let Some(e) = spawn_error {
            return Err(e);
        }
        match outcome {
            // SAFETY: the root completed, so it delivered its result into `result`, and the
            // worker that did it was joined.
            Ok(()) => Ok((unsafe { result.assume_init() }, stats)),
            Err(e) => {
                let message = panic_message
                    .into_inner()
                    .unwrap_or_else(PoisonError::into_inner);
                Err(CpuError::from_runtime(e, message))
            }
        }
    }
}

/// One worker thread: runs the worker loop, turning a panic into the run's error.
fn worker_thread<P: Program>(
    run: &Run<'_, P>,
    index: u32,
    panic_message: &Mutex<Option<String>>,
) -> WorkerStats {
    // SAFETY: `CpuRuntime::run` starts one thread per index, each making its worker once.
    let mut worker = unsafe { run.worker(index) };
    if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| worker.run())) {
        // Keep the message only if this panic is the run's first error.
        let mut message = panic_message.lock().unwrap_or_else(PoisonError::into_inner);
        if run.fail(RuntimeError::TaskPanicked {
            task: worker.current_task(),
        }) {
            *message = Some(panic_text(payload.as_ref()));
        }
    }
    worker.stats()
}

fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        String::from("(a panic payload that is not a string)")
    }
}
