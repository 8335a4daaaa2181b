//! [`GpuRuntime`]: runs a task program's persistent kernel and returns the root's result.

use std::mem::{align_of, size_of};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg};
use gtap_device::runtime::gpu::layout::{
    GlobalQueue, GpuRun, NONE, PanicReport, ProfileEvent, ProfileWarp, TaskCounts, WarpStats,
    error_code, tuning,
};
use gtap_device::runtime::record::Record;
use gtap_device::task::{Call, Program};

use super::{GpuConfig, GpuRunError, Profile, QueueOrder, Scheduler};
use crate::{Gpu, GpuError, Kernel, Module};

/// How long past its timeout the host waits for a kernel that should have stopped itself
/// before it calls the run [`GpuRunError::Stuck`]: long enough for every warp to reach its
/// next timeout check (a round's tasks must return first).
const STUCK_GRACE: Duration = Duration::from_secs(5);

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
    /// The most task records any one warp used.
    pub peak_records_per_warp: u32,
    /// The most tasks published in one warp queue at once.
    pub peak_queue: u32,
    /// The per-warp timeline, when the run was profiled
    /// ([`GpuConfig::profile`](super::GpuConfig#structfield.profile)); `None` otherwise.
    pub profile: Option<Profile>,
}

/// Device memory of a run, kept across runs and grown when a run needs more.
#[derive(Default)]
struct Buffers {
    run: Option<CudaSlice<u8>>,
    records: Option<CudaSlice<u8>>,
    rings: Option<CudaSlice<u32>>,
    deques: Option<CudaSlice<u8>>,
    free_stacks: Option<CudaSlice<u32>>,
    remote_free: Option<CudaSlice<u32>>,
    stats: Option<CudaSlice<u8>>,
    counters: Option<CudaSlice<u8>>,
    global_queue: Option<CudaSlice<u8>>,
    global_ring: Option<CudaSlice<u32>>,
    result: Option<CudaSlice<u8>>,
    args: Option<CudaSlice<u8>>,
    profile_events: Option<CudaSlice<u8>>,
    profile_warps: Option<CudaSlice<u8>>,
}

/// `ptx` with a `.maxnreg n` directive on every kernel entry: the driver's compiler then keeps
/// each thread to `n` registers (spilling to local memory if it must), which lets more warps
/// be resident on an SM.
fn limit_registers(ptx: &str, n: u32) -> String {
    let mut out = String::with_capacity(ptx.len() + 64);
    let mut in_entry_params = false;
    for line in ptx.lines() {
        if line.starts_with(".visible .entry") || line.starts_with(".entry") {
            in_entry_params = true;
        }
        out.push_str(line);
        out.push('\n');
        if in_entry_params && line.trim_start().starts_with(')') {
            out.push_str(&format!(".maxnreg {n}\n"));
            in_entry_params = false;
        }
    }
    out
}

/// Each warp's events out of the profile buffer's first events (`events`, at least up to the
/// last one written): warp `w`'s `counts[w]` events start at `w * cap`.
fn split_regions<T: Clone>(events: &[T], counts: &[usize], cap: usize) -> Vec<Vec<T>> {
    counts
        .iter()
        .enumerate()
        .map(|(w, &n)| {
            if n == 0 {
                Vec::new()
            } else {
                events[w * cap..w * cap + n].to_vec()
            }
        })
        .collect()
}

/// Page-locked host memory mapped into the device, where a panicking task reports its
/// location (readable after the kernel trapped, when device memory no longer is).
struct PanicSink {
    host: *mut PanicReport,
    device: u64,
}

impl PanicSink {
    fn new() -> Result<PanicSink, GpuRunError> {
        let flags = cudarc::driver::sys::CU_MEMHOSTALLOC_DEVICEMAP;
        // SAFETY: allocates `size_of::<PanicReport>()` page-locked bytes in the current context.
        let host = unsafe { cudarc::driver::result::malloc_host(size_of::<PanicReport>(), flags) }
            .map_err(driver("cuMemHostAlloc"))? as *mut PanicReport;
        let mut device = 0;
        // SAFETY: `host` was allocated with DEVICEMAP just above.
        unsafe { cudarc::driver::sys::cuMemHostGetDevicePointer_v2(&mut device, host.cast(), 0) }
            .result()
            .map_err(driver("cuMemHostGetDevicePointer"))?;
        let sink = PanicSink { host, device };
        sink.clear();
        Ok(sink)
    }

    fn clear(&self) {
        // SAFETY: our allocation, not read by a kernel now (no run in flight).
        unsafe { std::ptr::write_volatile(self.host, PanicReport::default()) };
    }

    fn location(&self) -> Option<String> {
        // SAFETY: our allocation; the kernel has ended (it trapped), so nothing writes it.
        let r = unsafe { std::ptr::read_volatile(self.host) };
        if r.flag != 1 {
            return None;
        }
        let file = String::from_utf8_lossy(&r.file[..(r.file_len as usize).min(r.file.len())])
            .into_owned();
        let message =
            String::from_utf8_lossy(&r.message[..(r.message_len as usize).min(r.message.len())])
                .into_owned();
        let mut location = format!("{file}:{}:{}", r.line, r.column);
        if !message.is_empty() {
            location.push_str(&format!(" ({message})"));
        }
        Some(location)
    }
}

impl PanicSink {
    /// A sink that owns nothing (what a stuck runtime keeps after leaking its real one).
    fn leaked() -> PanicSink {
        PanicSink {
            host: std::ptr::null_mut(),
            device: 0,
        }
    }
}

impl Drop for PanicSink {
    fn drop(&mut self) {
        if !self.host.is_null() {
            // SAFETY: allocated by `cuMemHostAlloc`; freed once. A failure (e.g. after a trap,
            // when every call fails) leaks the page, which is all that can be done in `drop`.
            let _ = unsafe { cudarc::driver::result::free_host(self.host.cast()) };
        }
    }
}

/// `ptx` loaded on `gpu`, with every kernel capped at `max_registers` when set.
fn load(gpu: &Gpu, ptx: &str, max_registers: Option<u32>) -> Result<Module, GpuRunError> {
    Ok(match max_registers {
        Some(n) => gpu.load(&limit_registers(ptx, n))?,
        None => gpu.load(ptx)?,
    })
}

/// Runs task programs on one GPU. Loads the PTX once; each [`GpuRuntime::run`] launches the
/// program's persistent kernel and reuses the device memory of earlier runs.
pub struct GpuRuntime {
    gpu: Gpu,
    /// The PTX as given, to reload with another register cap (`GpuConfig::max_registers`).
    ptx: String,
    module: Module,
    config: GpuConfig,
    buffers: Buffers,
    panic: PanicSink,
    /// A run ended with [`GpuRunError::Stuck`]: its kernel still runs on this runtime's
    /// memory, so dropping the runtime leaks that memory instead of freeing it (freeing would
    /// wait for the kernel, that is, forever), and later runs are refused.
    stuck: bool,
}

impl Drop for GpuRuntime {
    fn drop(&mut self) {
        if self.stuck {
            // The kernel still uses these; see `stuck`.
            std::mem::forget(std::mem::take(&mut self.buffers));
            let sink = std::mem::replace(&mut self.panic, PanicSink::leaked());
            std::mem::forget(sink);
        }
    }
}

fn driver(call: &'static str) -> impl Fn(cudarc::driver::DriverError) -> GpuRunError {
    move |source| GpuRunError::Gpu(GpuError::Driver { call, source })
}

/// Grows `slot` to at least `len` elements (contents unspecified) and returns it.
fn ensure<'a, T: cudarc::driver::DeviceRepr>(
    stream: &Arc<CudaStream>,
    slot: &'a mut Option<CudaSlice<T>>,
    len: usize,
    what: &'static str,
) -> Result<&'a mut CudaSlice<T>, GpuRunError> {
    let len = len.max(1);
    if slot.as_ref().is_none_or(|s| s.len() < len) {
        *slot = None;
        // SAFETY: the memory is written (zeroed or copied) before any kernel reads it.
        let fresh = unsafe { stream.alloc::<T>(len) }.map_err(|_| GpuRunError::OutOfMemory {
            what,
            bytes: len * size_of::<T>(),
        })?;
        *slot = Some(fresh);
    }
    Ok(slot.as_mut().expect("just ensured"))
}

/// [`ensure`], zeroing memory it allocates: for the task records. A block task's threads each
/// copy the whole frame (`block_worker`), the bytes of states the task has not reached yet
/// included, which no task has written in fresh memory. Zeroed once per allocation, those
/// bytes are defined (the sanitizer's initcheck reads them as such); later they hold what
/// earlier tasks left, which is never used before the task writes it.
fn ensure_zeroed<'a, T: cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits>(
    stream: &Arc<CudaStream>,
    slot: &'a mut Option<CudaSlice<T>>,
    len: usize,
    what: &'static str,
) -> Result<&'a mut CudaSlice<T>, GpuRunError> {
    let fresh = slot.as_ref().is_none_or(|s| s.len() < len.max(1));
    let s = ensure(stream, slot, len, what)?;
    if fresh {
        stream.memset_zeros(s).map_err(driver("cuMemsetD8"))?;
    }
    Ok(s)
}

fn addr<T>(stream: &CudaStream, s: &CudaSlice<T>) -> u64 {
    let (ptr, _sync) = s.device_ptr(stream);
    ptr
}

impl GpuRuntime {
    /// Loads `ptx` (built by gtap-builder from the crate that defines the programs) on `gpu`.
    pub fn new(gpu: Gpu, ptx: &str, config: GpuConfig) -> Result<Self, GpuRunError> {
        config.validate()?;
        config.validate_for(gpu.props())?;
        let module = load(&gpu, ptx, config.max_registers)?;
        let panic = PanicSink::new()?;
        Ok(GpuRuntime {
            gpu,
            ptx: ptx.to_owned(),
            module,
            config,
            buffers: Buffers::default(),
            panic,
            stuck: false,
        })
    }

    /// The GPU.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The configuration of the next runs.
    pub fn config(&self) -> &GpuConfig {
        &self.config
    }

    /// Replaces the configuration; memory is reallocated at the next run if it must grow, and
    /// the PTX reloaded if the register cap changed.
    pub fn set_config(&mut self, config: GpuConfig) -> Result<(), GpuRunError> {
        config.validate()?;
        config.validate_for(self.gpu.props())?;
        if config.max_registers != self.config.max_registers {
            self.module = load(&self.gpu, &self.ptx, config.max_registers)?;
        }
        self.config = config;
        Ok(())
    }

    /// The kernel a run of `P` launches: `gtap_<name>`, or `gtap_<name>_profiled` when
    /// profiling is on.
    fn kernel<P: Program>(&self) -> Result<Kernel, GpuRunError> {
        let name = format!("gtap_{}", P::NAME);
        let plain = self.module.kernel(&name);
        if self.config.profile.is_some() {
            let profiled = format!("{name}_profiled");
            return self.module.kernel(&profiled).map_err(|_| match plain {
                Ok(_) => GpuRunError::NoProfiledKernel {
                    kernel: profiled,
                    program: P::NAME,
                },
                Err(_) => GpuRunError::NoKernel {
                    kernel: name,
                    program: P::NAME,
                },
            });
        }
        plain.map_err(|_| GpuRunError::NoKernel {
            kernel: name,
            program: P::NAME,
        })
    }

    /// The grid the next run of `P` uses: the configured one, or every block that can be
    /// resident at once up to `warps_per_sm` warps per SM (at least one block per SM).
    pub fn grid_for<P: Program>(&self) -> Result<u32, GpuRunError> {
        if let Some(g) = self.config.grid {
            return Ok(g);
        }
        let kernel = self.kernel::<P>()?;
        let smem = self.config.shared_mem_bytes(P::BLOCK) as usize;
        let per_sm = kernel
            .function()
            .occupancy_max_active_blocks_per_multiprocessor(self.config.block, smem, None)
            .map_err(driver("cuOccupancyMaxActiveBlocksPerMultiprocessor"))?;
        let cap = (self.config.warps_per_sm / (self.config.block / 32)).max(1);
        Ok(per_sm.clamp(1, cap) * self.gpu.props().sm_count)
    }

    /// Runs `root` to completion on the GPU and returns its result with the run's statistics.
    ///
    /// A limit hit on the device (records, queue, children, slots, queue index) ends the run
    /// with the matching error, and the runtime stays usable. A trap or fault inside a task is
    /// a [`GpuError`] after which CUDA is unusable in this process.
    pub fn run<P: Program, R: Copy + 'static>(
        &mut self,
        root: Call<P, R>,
    ) -> Result<(R, GpuStats), GpuRunError> {
        if self.stuck {
            // An earlier run's kernel still runs on this runtime's memory.
            return Err(GpuRunError::Stuck {
                after: self.config.timeout,
            });
        }
        if P::BLOCK {
            let unsupported = if self.config.scheduler != Scheduler::WorkStealing {
                Some("the ablation schedulers (GpuConfig::scheduler)")
            } else if self.config.profile.is_some() {
                Some("the per-warp profiler (GpuConfig::profile)")
            } else {
                None
            };
            if let Some(what) = unsupported {
                return Err(GpuRunError::NotForBlockPrograms {
                    program: P::NAME,
                    what,
                });
            }
        }
        let kernel = self.kernel::<P>()?;
        let cfg = self.config.clone();
        let grid = self.grid_for::<P>()?;
        let record_size = size_of::<Record<P::Task>>();
        let record_align = align_of::<Record<P::Task>>();
        // Every size below comes from here: checked against the device before any allocation.
        let sizes = cfg.check_launch(self.gpu.props(), grid, record_size as u64, P::BLOCK)?;
        // The driver's compiler fixed the kernel's registers per thread, which bound the
        // threads of a block: say so, rather than fail the launch "out of resources".
        let max_threads = kernel
            .function()
            .max_threads_per_block()
            .map_err(driver("cuFuncGetAttribute"))?;
        if i64::from(cfg.block) > i64::from(max_threads) {
            return Err(GpuRunError::InvalidConfig {
                setting: "block",
                value: cfg.block.into(),
                why: "more threads per block than this program's kernel can launch with its \
                      registers per thread: use fewer threads, or cap the registers \
                      (GpuConfig::max_registers)",
            });
        }
        // Each part fits in the device's memory (`check_launch`), whose size is a `usize`; an
        // unknown size (never, after that check) would be a failed allocation, not a panic.
        let bytes = |part: Option<u64>| {
            part.and_then(|b| usize::try_from(b).ok())
                .unwrap_or(usize::MAX)
        };
        let warps = sizes.warps as usize;
        let stream = self.gpu.stream().clone();

        // Device memory (reused across runs when large enough).
        let b = &mut self.buffers;
        let records = addr(
            &stream,
            ensure_zeroed(
                &stream,
                &mut b.records,
                bytes(sizes.records),
                "task records",
            )?,
        );
        let rings = addr(
            &stream,
            ensure(
                &stream,
                &mut b.rings,
                bytes(sizes.rings) / size_of::<u32>(),
                "queues",
            )?,
        );
        let deques_slice = ensure(&stream, &mut b.deques, bytes(sizes.deques), "queue states")?;
        stream
            .memset_zeros(deques_slice)
            .map_err(driver("cuMemsetD8"))?;
        let deques = addr(&stream, deques_slice);
        let free_stacks = addr(
            &stream,
            ensure(
                &stream,
                &mut b.free_stacks,
                bytes(sizes.free_stacks) / size_of::<u32>(),
                "free stacks",
            )?,
        );
        let remote = ensure(&stream, &mut b.remote_free, warps, "free lists")?;
        stream
            .memcpy_htod(&vec![NONE; remote.len()], remote)
            .map_err(driver("cuMemcpyHtoD"))?;
        let remote_free = addr(&stream, remote);
        let stats_slice = ensure(
            &stream,
            &mut b.stats,
            warps * size_of::<WarpStats>(),
            "statistics",
        )?;
        stream
            .memset_zeros(stats_slice)
            .map_err(driver("cuMemsetD8"))?;
        let stats_addr = addr(&stream, stats_slice);
        let counters_slice = ensure(
            &stream,
            &mut b.counters,
            warps * size_of::<TaskCounts>(),
            "task counters",
        )?;
        stream
            .memset_zeros(counters_slice)
            .map_err(driver("cuMemsetD8"))?;
        let counters = addr(&stream, counters_slice);
        // The global-queue ablation: its state (zeroed) and a ring as large as all the warps'
        // rings together (a power of two); a single slot otherwise.
        let global = cfg.scheduler == Scheduler::GlobalQueue;
        let global_capacity = if global {
            u32::try_from((warps as u64 * u64::from(cfg.queue_capacity)).next_power_of_two())
                .ok()
                .filter(|c| *c <= 1 << 30)
                .ok_or(GpuRunError::InvalidConfig {
                    setting: "queue_capacity",
                    value: cfg.queue_capacity.into(),
                    why: "the global queue (warps x queue_capacity entries) exceeds 2^30 entries",
                })?
        } else {
            1
        };
        let gq_slice = ensure(
            &stream,
            &mut b.global_queue,
            size_of::<GlobalQueue>(),
            "the global queue",
        )?;
        stream
            .memset_zeros(gq_slice)
            .map_err(driver("cuMemsetD8"))?;
        let global_queue = addr(&stream, gq_slice);
        let global_ring = addr(
            &stream,
            ensure(
                &stream,
                &mut b.global_ring,
                global_capacity as usize,
                "the global queue",
            )?,
        );
        let result_slice = ensure(&stream, &mut b.result, size_of::<R>(), "the result")?;
        let root_result = addr(&stream, result_slice);

        // The root task travels as its arguments; warp 0 builds its frame (see the kernel).
        let args = root.into_args();
        // SAFETY: `P::Args` is a `repr(C)` value of `Copy` fields (the macro checks every task
        // parameter); reading its bytes is fine, and it owns nothing to drop twice.
        let args_bytes = unsafe {
            std::slice::from_raw_parts((&raw const args).cast::<u8>(), size_of::<P::Args>())
        };
        let args_slice = ensure(
            &stream,
            &mut b.args,
            size_of::<P::Args>(),
            "the root's arguments",
        )?;
        if !args_bytes.is_empty() {
            stream
                .memcpy_htod(args_bytes, &mut args_slice.slice_mut(..args_bytes.len()))
                .map_err(driver("cuMemcpyHtoD"))?;
        }
        let root_args = addr(&stream, args_slice);

        // The profiler's buffers: events (not zeroed: the host reads only what each warp's
        // header says it wrote) and the headers (zeroed).
        let profile_capacity = cfg.profile.unwrap_or(0);
        let (profile_events, profile_warps) = if profile_capacity > 0 {
            let events = addr(
                &stream,
                ensure(
                    &stream,
                    &mut b.profile_events,
                    warps * profile_capacity as usize * size_of::<ProfileEvent>(),
                    "the profile buffer",
                )?,
            );
            let headers = ensure(
                &stream,
                &mut b.profile_warps,
                warps * size_of::<ProfileWarp>(),
                "the profile buffer",
            )?;
            stream.memset_zeros(headers).map_err(driver("cuMemsetD8"))?;
            (events, addr(&stream, headers))
        } else {
            (0, 0)
        };

        let control = GpuRun {
            records,
            rings,
            deques,
            free_stacks,
            remote_free,
            stats: stats_addr,
            counters,
            global_queue,
            global_ring,
            global_capacity: if global { global_capacity } else { 0 },
            root_result,
            root_args,
            num_warps: warps as u32,
            num_queues: cfg.num_queues,
            queue_capacity: cfg.queue_capacity,
            tasks_per_warp: cfg.tasks_per_warp,
            record_size: record_size as u32,
            record_align: record_align as u32,
            steal_attempts: cfg.steal_attempts,
            top_up: cfg.top_up,
            panic_report: self.panic.device,
            args_size: size_of::<P::Args>() as u32,
            // A block worker keeps at most its next task: its batch is one task.
            keep_max: if P::BLOCK {
                cfg.keep_unpublished.min(1)
            } else {
                cfg.keep_unpublished
            },
            timeout_ns: u64::try_from(cfg.timeout.as_nanos()).unwrap_or(u64::MAX),
            profile_events,
            profile_warps,
            profile_capacity,
            tuning: if cfg.resume_inline {
                tuning::RESUME_INLINE
            } else {
                0
            } | match cfg.scheduler {
                Scheduler::WorkStealing => 0,
                Scheduler::OneAtATime => tuning::ONE_AT_A_TIME,
                Scheduler::GlobalQueue => tuning::GLOBAL_QUEUE,
            } | if cfg.keep_every_queue {
                tuning::KEEP_EVERY_QUEUE
            } else {
                0
            } | match cfg.queue_order {
                QueueOrder::NextFull => 0,
                QueueOrder::Stay => tuning::STAY_ON_QUEUE,
                QueueOrder::MostGenerated => tuning::MOST_GENERATED,
            } | if cfg.steal_per_queue {
                tuning::STEAL_PER_QUEUE
            } else {
                0
            } | if P::BLOCK && cfg.check_uniform {
                tuning::CHECK_UNIFORM
            } else {
                0
            },
            ..GpuRun::default()
        };
        self.panic.clear();
        // SAFETY: `GpuRun` is plain `repr(C)` integers.
        let control_bytes = unsafe {
            std::slice::from_raw_parts((&raw const control).cast::<u8>(), size_of::<GpuRun>())
        };
        let run_slice = ensure(
            &stream,
            &mut b.run,
            size_of::<GpuRun>(),
            "the control block",
        )?;
        stream
            .memcpy_htod(control_bytes, run_slice)
            .map_err(driver("cuMemcpyHtoD"))?;
        let run_addr = addr(&stream, run_slice);

        // Launch, timed by events.
        let ctx = self.gpu.context();
        let start = ctx
            .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(driver("cuEventCreate"))?;
        let end = ctx
            .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(driver("cuEventCreate"))?;
        start.record(&stream).map_err(driver("cuEventRecord"))?;
        let launch = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (cfg.block, 1, 1),
            shared_mem_bytes: cfg.shared_mem_bytes(P::BLOCK),
        };
        let mut builder = stream.launch_builder(kernel.function());
        builder.arg(&run_addr);
        // SAFETY: the kernel takes one pointer to a `GpuRun`, which `run_addr` is, filled for
        // program `P` with arrays of the sizes it names; the shared memory is what it needs.
        unsafe { builder.launch(launch) }
            .map_err(|e| GpuRunError::Gpu(GpuError::launch(kernel.name(), e)))?;
        end.record(&stream).map_err(driver("cuEventRecord"))?;

        // Wait. The kernel stops itself at the timeout (`GpuRun::timeout_ns`, which says why
        // the host sends no abort). The host only notices a kernel that cannot stop, one stuck
        // inside a task: its clock starts when the `start` event has passed (the kernel may wait
        // on the stream behind another runtime's), and it gives up a grace period after the
        // timeout.
        let mut began: Option<Instant> = None;
        loop {
            match end.try_is_complete() {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => {
                    return Err(self.kernel_failed(GpuError::after_kernel(
                        kernel.name(),
                        "cuEventQuery",
                        e,
                    )));
                }
            }
            if began.is_none() && matches!(start.try_is_complete(), Ok(true)) {
                began = Some(Instant::now());
            }
            let elapsed = began.map_or(Duration::ZERO, |b| b.elapsed());
            if elapsed > cfg.timeout + STUCK_GRACE {
                // The kernel keeps running: freeing what it uses would block this thread
                // (freeing page-locked memory waits for the device), so leak it.
                self.stuck = true;
                return Err(GpuRunError::Stuck { after: cfg.timeout });
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        self.gpu
            .sync(kernel.name())
            .map_err(|e| self.kernel_failed(e))?;
        let kernel_ms = start
            .elapsed_ms(&end)
            .map_err(driver("cuEventElapsedTime"))?;

        // Read back the control block, the statistics and the result.
        let b = &self.buffers;
        let run_bytes = stream
            .clone_dtoh(
                &b.run
                    .as_ref()
                    .expect("allocated")
                    .slice(..size_of::<GpuRun>()),
            )
            .map_err(driver("cuMemcpyDtoH"))?;
        // SAFETY: the bytes of a `GpuRun` the kernel updated; any bit pattern is valid.
        let done: GpuRun = unsafe { std::ptr::read_unaligned(run_bytes.as_ptr().cast()) };
        if done.error_code != error_code::NONE {
            return Err(self.device_error::<P>(&done, record_size as u32, record_align as u32));
        }
        let stat_bytes = stream
            .clone_dtoh(
                &b.stats
                    .as_ref()
                    .expect("allocated")
                    .slice(..warps * size_of::<WarpStats>()),
            )
            .map_err(driver("cuMemcpyDtoH"))?;
        let mut total = WarpStats::default();
        for chunk in stat_bytes.chunks_exact(size_of::<WarpStats>()) {
            // SAFETY: plain `repr(C)` integers.
            let s: WarpStats = unsafe { std::ptr::read_unaligned(chunk.as_ptr().cast()) };
            total.merge(&s);
        }
        let result_bytes = stream
            .clone_dtoh(
                &b.result
                    .as_ref()
                    .expect("allocated")
                    .slice(..size_of::<R>().max(1)),
            )
            .map_err(driver("cuMemcpyDtoH"))?;
        // SAFETY: the root task wrote an `R` there when it returned (the run completed without
        // error); `R: Copy`, and the device compilation lays `R` out as the host does (checked
        // for the records as a whole above).
        let value: R = unsafe { std::ptr::read_unaligned(result_bytes.as_ptr().cast()) };
        let profile = if profile_capacity > 0 {
            Some(self.read_profile(warps, profile_capacity)?)
        } else {
            None
        };
        let stats = GpuStats {
            kernel_time: Duration::from_secs_f64(f64::from(kernel_ms) / 1e3),
            grid,
            block: cfg.block,
            tasks: total.tasks,
            resumes: total.resumes,
            steals_attempted: total.steals_attempted,
            steals_won: total.steals_won,
            rounds: total.rounds,
            idle_rounds: total.idle_rounds,
            peak_records_per_warp: total.records_touched,
            peak_queue: total.max_queue,
            profile,
        };
        Ok((value, stats))
    }

    /// Reads back what the profiled kernel recorded for `warps` warps of `capacity` events.
    fn read_profile(&self, warps: usize, capacity: u32) -> Result<Profile, GpuRunError> {
        let stream = self.gpu.stream();
        let b = &self.buffers;
        let header_bytes = stream
            .clone_dtoh(
                &b.profile_warps
                    .as_ref()
                    .expect("allocated")
                    .slice(..warps * size_of::<ProfileWarp>()),
            )
            .map_err(driver("cuMemcpyDtoH"))?;
        let headers: Vec<ProfileWarp> = header_bytes
            .chunks_exact(size_of::<ProfileWarp>())
            // SAFETY: plain `repr(C)` integers.
            .map(|c| unsafe { std::ptr::read_unaligned(c.as_ptr().cast()) })
            .collect();
        // Each warp's events: the first `events` of its region (more cannot have been written).
        let cap = capacity as usize;
        let counts: Vec<usize> = headers
            .iter()
            .map(|h| (h.events as usize).min(cap))
            .collect();
        let total: usize = counts.iter().sum();
        // The events from the start of the buffer to the last one written.
        let span = counts
            .iter()
            .rposition(|&n| n > 0)
            .map_or(0, |last| last * cap + counts[last]);
        let size = size_of::<ProfileEvent>();
        let all = b.profile_events.as_ref().expect("allocated");
        let parse = |bytes: Vec<u8>| -> Vec<ProfileEvent> {
            bytes
                .chunks_exact(size)
                // SAFETY: plain `repr(C)` integers; any bit pattern is valid.
                .map(|c| unsafe { std::ptr::read_unaligned(c.as_ptr().cast()) })
                .collect()
        };
        let regions: Vec<Vec<ProfileEvent>> = if total * 2 >= span {
            // Mostly full regions: one copy of everything up to the last event.
            let events = if span == 0 {
                Vec::new()
            } else {
                parse(
                    stream
                        .clone_dtoh(&all.slice(..span * size))
                        .map_err(driver("cuMemcpyDtoH"))?,
                )
            };
            split_regions(&events, &counts, cap)
        } else {
            // Mostly unused regions: one copy per warp of its events alone.
            let mut regions = Vec::with_capacity(warps);
            for (w, &n) in counts.iter().enumerate() {
                regions.push(if n == 0 {
                    Vec::new()
                } else {
                    parse(
                        stream
                            .clone_dtoh(&all.slice(w * cap * size..(w * cap + n) * size))
                            .map_err(driver("cuMemcpyDtoH"))?,
                    )
                });
            }
            regions
        };
        Ok(Profile::from_raw(capacity, &headers, regions))
    }

    /// The error for a kernel that failed: a panic's location when a task reported one.
    fn kernel_failed(&self, e: GpuError) -> GpuRunError {
        match self.panic.location() {
            Some(location) => GpuRunError::TaskPanicked {
                location,
                source: e,
            },
            None => GpuRunError::Gpu(e),
        }
    }

    fn device_error<P: Program>(
        &self,
        run: &GpuRun,
        host_size: u32,
        host_align: u32,
    ) -> GpuRunError {
        GpuRunError::from_kernel(run.error_words(), P::TASK_NAMES, host_size, host_align).unwrap_or(
            GpuRunError::Unknown {
                code: run.error_code,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{limit_registers, split_regions};

    #[test]
    fn profile_regions_are_split_by_count_and_empty_ones_past_the_end_are_empty() {
        // Capacity 3; warps 0..4 wrote 2, 0, 3 and 0 events: the copy ends at warp 2's last.
        let events: Vec<u32> = (0..9).collect();
        let regions = split_regions(&events, &[2, 0, 3, 0], 3);
        assert_eq!(regions, [vec![0, 1], vec![], vec![6, 7, 8], vec![]]);
    }

    #[test]
    fn maxnreg_goes_after_each_entry_parameter_list() {
        let ptx = ".version 7.0\n.visible .entry a(\n\t.param .u64 a_param_0\n)\n{\n\tret;\n}\n.entry b(\n)\n{\n}\n";
        let out = limit_registers(ptx, 40);
        assert_eq!(out.matches(".maxnreg 40").count(), 2, "{out}");
        assert!(out.contains("a_param_0\n)\n.maxnreg 40\n{"), "{out}");
        assert!(out.contains(".entry b(\n)\n.maxnreg 40\n{"), "{out}");
    }
}
