//! [`GpuRuntime`]: runs a task program's persistent kernel and returns the root's result.
//!
//! [`GpuRuntime::run`] is the sequence of a run's steps, each in a module of its own so that
//! each can be read, and its pure part tested, alone: the plan (`plan.rs`), the device memory
//! (`buffers.rs`), the control block (`control.rs`), the launch and the wait (`launch.rs`),
//! and reading back what the kernel left (`decode.rs`). This module keeps what outlives a run:
//! the loaded PTX, the configuration, the memory, the panic sink, and whether a stuck kernel
//! still holds that memory.

use std::collections::HashMap;
use std::mem::size_of;
use std::sync::Arc;

use cudarc::driver::CudaStream;
use gtap_device::runtime::gpu::layout::{GpuRun, NONE, PanicReport, error_code, root_of_task};
use gtap_device::task::{Call, Program};

use super::buffers::Buffers;
use super::error::driver;
use super::launch::{Launched, Stopped};
use super::plan::{ProgramShape, Roots, RunPlan};
use super::{GpuConfig, GpuRunError, GpuStats, control, decode, launch, plan};
use crate::{Gpu, GpuError, Kernel, Module};

/// `ptx` with a `.maxnreg n` directive on every kernel entry: the driver's compiler then keeps
/// each thread to `n` registers (spilling to local memory if it must), which lets more warps
/// be resident on an SM.
fn limit_registers(ptx: &str, n: u32) -> String {
    let mut out = String::with_capacity(ptx.len() + 64);
    let mut in_entry_params = false;
    for line in ptx.lines() {
        // The parameter list ends on a line of its own, or on the entry's line when it is
        // empty (`.visible .entry f()`); the directive goes after it, before the body.
        let code = line.split("//").next().unwrap_or("");
        let entry = line.starts_with(".visible .entry") || line.starts_with(".entry");
        in_entry_params |= entry;
        out.push_str(line);
        out.push('\n');
        let closes =
            code.trim_end().ends_with(')') && (entry || code.trim_start().starts_with(')'));
        if in_entry_params && closes {
            out.push_str(&format!(".maxnreg {n}\n"));
            in_entry_params = false;
        }
    }
    out
}

/// Page-locked host memory mapped into the device, where a panicking task reports its
/// location (readable after the kernel trapped, when device memory no longer is).
pub(super) struct PanicSink {
    host: *mut PanicReport,
    pub(super) device: u64,
    /// The GPU's ordinal, whose gate frees the memory (`gate.rs`).
    ordinal: usize,
}

impl PanicSink {
    fn new(gpu: &Gpu) -> Result<PanicSink, GpuRunError> {
        let flags = cudarc::driver::sys::CU_MEMHOSTALLOC_DEVICEMAP;
        // SAFETY: allocates `size_of::<PanicReport>()` page-locked bytes in the current context.
        let host = unsafe { cudarc::driver::result::malloc_host(size_of::<PanicReport>(), flags) }
            .map_err(driver("cuMemHostAlloc"))? as *mut PanicReport;
        let mut device = 0;
        // SAFETY: `host` was allocated with DEVICEMAP just above.
        unsafe { cudarc::driver::sys::cuMemHostGetDevicePointer_v2(&mut device, host.cast(), 0) }
            .result()
            .map_err(driver("cuMemHostGetDevicePointer"))?;
        let sink = PanicSink {
            host,
            device,
            ordinal: gpu.props().ordinal,
        };
        sink.clear();
        Ok(sink)
    }

    pub(super) fn clear(&self) {
        // SAFETY: our allocation, not read by a kernel now (no run in flight).
        unsafe { std::ptr::write_volatile(self.host, PanicReport::default()) };
    }

    /// What a panicking task reported, if one did.
    pub(super) fn report(&self) -> Option<Panicked> {
        // SAFETY: our allocation; the kernel has ended (it trapped), so nothing writes it.
        unsafe { read_panic(self.host) }
    }

    /// The report's address in host memory, for a thread that reads it after a trap.
    pub(super) fn host_ptr(&self) -> *const PanicReport {
        self.host
    }
}

/// A panic report, decoded.
pub(super) struct Panicked {
    /// `file:line:column`, and the message in parentheses when there is one.
    pub location: String,
    /// The root of the batch that the panicking task belonged to, when it found one.
    pub root: Option<u32>,
    /// A resident session: the device address of the panicking task's root's completion
    /// slot result (its root record's result pointer; the session's ring maps it to a slot),
    /// when the task found its root.
    pub root_slot: Option<u64>,
}

/// What a panicking task reported at `host`, if one did.
///
/// # Safety
/// `host` is a live `PanicReport` that no kernel writes any more.
pub(super) unsafe fn read_panic(host: *const PanicReport) -> Option<Panicked> {
    // SAFETY: the caller's contract.
    let r = unsafe { std::ptr::read_volatile(host) };
    if r.flag != 1 {
        return None;
    }
    let file =
        String::from_utf8_lossy(&r.file[..(r.file_len as usize).min(r.file.len())]).into_owned();
    let message =
        String::from_utf8_lossy(&r.message[..(r.message_len as usize).min(r.message.len())])
            .into_owned();
    let mut location = format!("{file}:{}:{}", r.line, r.column);
    if !message.is_empty() {
        location.push_str(&format!(" ({message})"));
    }
    let root = (r.root_known != 0).then_some(r.root);
    let root_slot = (r.root_slot != 0).then_some(r.root_slot);
    Some(Panicked {
        location,
        root,
        root_slot,
    })
}

impl PanicSink {
    /// A sink that owns nothing (what a stuck runtime keeps after leaking its real one).
    fn leaked() -> PanicSink {
        PanicSink {
            host: std::ptr::null_mut(),
            device: 0,
            ordinal: 0,
        }
    }
}

impl Drop for PanicSink {
    fn drop(&mut self) {
        if !self.host.is_null() {
            // Freeing waits for every kernel on the GPU: through the gate.
            let pages = crate::gate::HostPages(self.host.cast());
            crate::gate::for_ordinal(self.ordinal).release(pages);
        }
    }
}

/// `ptx` loaded on `gpu`, with every kernel capped at `config`'s `max_registers` when set;
/// waits up to `config`'s timeout for open resident sessions to shut down ([`Gpu::load`]).
fn load(gpu: &Gpu, ptx: &str, config: &GpuConfig) -> Result<Module, GpuRunError> {
    let wait = config.limits.timeout;
    Ok(match config.tuning.max_registers {
        Some(n) => gpu.load_waiting(&limit_registers(ptx, n), wait)?,
        None => gpu.load_waiting(ptx, wait)?,
    })
}

/// Runs task programs on one GPU. Loads the PTX once; each [`GpuRuntime::run`] launches the
/// program's persistent kernel and reuses the device memory of earlier runs.
pub struct GpuRuntime {
    pub(super) gpu: Gpu,
    /// The PTX as given, to reload with another register cap (`GpuConfig::max_registers`).
    ptx: String,
    module: Module,
    pub(super) config: GpuConfig,
    pub(super) buffers: Buffers,
    pub(super) panic: PanicSink,
    /// A run ended with [`GpuRunError::Stuck`] or [`GpuRunError::NotStarted`]: its kernel
    /// still runs, or is still to run, on this runtime's memory, so dropping the runtime
    /// leaks that memory instead of freeing it (freeing would wait for the kernel, that is,
    /// forever), and later runs are refused.
    pub(super) stuck: bool,
    /// Record layouts (size, alignment) the kernel reported for programs whose task frames
    /// it lays out differently from the host (see [`GpuRuntime::run_batch`]): used instead of
    /// the host's from then on.
    layouts: HashMap<&'static str, (usize, usize)>,
    /// Device memory the runs' records may take, measured when the runtime was made or last
    /// configured ([`records_memory`]): what sizes the default record reserve.
    records_memory: u64,
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

/// Makes the context's per-thread call stack at least `config`'s
/// ([`GpuLaunch::stack_bytes`](super::GpuLaunch::stack_bytes)): what the sequential
/// versions that the granularity policy runs inline recurse on. The limit is the context's,
/// shared by every runtime of the process, so it only ever grows, and is set only when it
/// must: setting it makes the driver reallocate the context's local memory, which waits for
/// every kernel on the GPU, so it goes through the gate (`gate.rs`).
fn set_stack(gpu: &Gpu, config: &GpuConfig) -> Result<(), GpuRunError> {
    use cudarc::driver::sys::CUlimit::CU_LIMIT_STACK_SIZE;
    let ctx = gpu.context();
    let wanted = config.launch.stack_bytes as usize;
    let now = ctx
        .get_limit(CU_LIMIT_STACK_SIZE)
        .map_err(driver("cuCtxGetLimit(CU_LIMIT_STACK_SIZE)"))?;
    if now >= wanted {
        return Ok(());
    }
    let wait = config.limits.timeout;
    crate::gate::of(ctx).quiet("cuCtxSetLimit(CU_LIMIT_STACK_SIZE)", wait, || {
        ctx.set_limit(CU_LIMIT_STACK_SIZE, wanted)
            .map_err(driver("cuCtxSetLimit(CU_LIMIT_STACK_SIZE)"))
    })
}

/// Device memory a run's records may take: what is free now, plus the records array the
/// runtime already holds (`held` bytes; a run reuses it), so that every configuration of a
/// runtime sizes its reserve alike (`plan::reserve_chunks`). Measured when a runtime is made
/// or configured, never in a run: `cuMemGetInfo` can wait behind another thread's work on
/// the context, and a run must launch without waiting.
fn records_memory(gpu: &Gpu, held: usize) -> Result<u64, GpuRunError> {
    let (free, _total) = gpu
        .context()
        .mem_get_info()
        .map_err(driver("cuMemGetInfo"))?;
    Ok(free as u64 + held as u64)
}

impl GpuRuntime {
    /// Loads `ptx` (built by gtap-builder from the crate that defines the programs) on `gpu`.
    pub fn new(gpu: Gpu, ptx: &str, config: GpuConfig) -> Result<Self, GpuRunError> {
        config.validate()?;
        config.validate_for(gpu.props())?;
        let module = load(&gpu, ptx, &config)?;
        set_stack(&gpu, &config)?;
        let panic = PanicSink::new(&gpu)?;
        let records_memory = records_memory(&gpu, 0)?;
        Ok(GpuRuntime {
            gpu,
            ptx: ptx.to_owned(),
            module,
            config,
            buffers: Buffers::default(),
            panic,
            stuck: false,
            layouts: HashMap::new(),
            records_memory,
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
        if config.tuning.max_registers != self.config.tuning.max_registers {
            self.module = load(&self.gpu, &self.ptx, &config)?;
        }
        set_stack(&self.gpu, &config)?;
        let held = self.buffers.records.as_ref().map_or(0, |r| r.len());
        self.records_memory = records_memory(&self.gpu, held)?;
        self.config = config;
        Ok(())
    }

    /// The kernel a run of `P` launches: `gtap_<name>`, or one of the lab kernels when
    /// profiling is on (`gtap_<name>_profiled`, which runs any scheduler) or an ablation
    /// scheduler is chosen (`gtap_<name>_one_at_a_time`, `gtap_<name>_global_queue`).
    pub(super) fn kernel<P: Program>(&self) -> Result<Kernel, GpuRunError> {
        let name = format!("gtap_{}", P::NAME);
        let plain = self.module.kernel(&name);
        let Some((suffix, why)) = self.config.lab_kernel() else {
            return plain.map_err(|_| GpuRunError::NoKernel {
                kernel: name,
                program: P::NAME,
            });
        };
        let kernel = format!("{name}_{suffix}");
        self.module.kernel(&kernel).map_err(|_| match plain {
            Ok(_) => GpuRunError::NoLabKernel {
                kernel,
                program: P::NAME,
                why,
            },
            Err(_) => GpuRunError::NoKernel {
                kernel: name,
                program: P::NAME,
            },
        })
    }

    /// The grid the next run of `P` uses: the configured one, or every block that can be
    /// resident at once up to `warps_per_sm` warps per SM (at least one block per SM).
    pub fn grid_for<P: Program>(&self) -> Result<u32, GpuRunError> {
        if let Some(g) = self.config.launch.grid {
            return Ok(g);
        }
        let kernel = self.kernel::<P>()?;
        let kind = super::config::ProgramKind::of(P::BLOCK, P::MIXED);
        let smem = self.config.shared_mem_bytes(kind) as usize;
        let per_sm = kernel
            .function()
            .occupancy_max_active_blocks_per_multiprocessor(self.config.launch.block, smem, None)
            .map_err(driver("cuOccupancyMaxActiveBlocksPerMultiprocessor"))?;
        let cap = (self.config.launch.warps_per_sm / (self.config.launch.block / 32)).max(1);
        Ok(per_sm.clamp(1, cap) * self.gpu.props().sm_count)
    }

    /// Runs `root` to completion on the GPU and returns its result with the run's statistics.
    ///
    /// `root` may borrow (views of `DeviceVec`s for this GPU, `'g`): the borrow lasts until
    /// this call returns, after the kernel has ended. A root that takes references is refused
    /// ([`GpuRunError::HostReferenceRoot`]). A limit hit on the device (records, queue,
    /// children, slots, queue index) ends the run with the matching error, and the runtime
    /// stays usable. A trap or fault inside a task is a [`GpuError`] after which CUDA is
    /// unusable in this process. A run that ends [`GpuRunError::Stuck`] leaves its kernel
    /// running on the data it was given: the `DeviceVec`s made before it then refuse every
    /// access and leak their memory instead of freeing it (see `DeviceVec`).
    pub fn run<'g, P: Program, R: Copy + 'static>(
        &mut self,
        root: Call<'g, P, R>,
    ) -> Result<(R, GpuStats), GpuRunError> {
        let (mut values, stats) = self.launch_roots(vec![root])?;
        Ok((values.pop().expect("one root, one result"), stats))
    }

    /// Runs every root of `roots` to completion in one launch and returns their results in
    /// the same order, with the statistics of the whole launch.
    ///
    /// The roots are independent task trees (one per query or input, say) that share the
    /// grid: each warp builds its share of them at the start and queues it, and work stealing
    /// spreads them and their children. Thousands of small roots in one launch cost one
    /// launch, not thousands. A batch may hold up to half of the grid's task records and
    /// queue entries (`tasks_per_warp` and `queue_capacity` per warp), else
    /// [`GpuRunError::BatchTooLarge`]; mixed programs run one root per launch.
    ///
    /// A failure ends the whole launch. When it happened in a spawn (a limit), the error is
    /// [`GpuRunError::InRoot`], which says which root's task failed.
    ///
    /// ```ignore
    /// let roots: Vec<_> = (0..10_000).map(|i| program::nqueens(10 + i % 3)).collect();
    /// let (counts, stats) = rt.run_batch(roots)?;
    /// ```
    pub fn run_batch<'g, P: Program, R: Copy + 'static>(
        &mut self,
        roots: impl IntoIterator<Item = Call<'g, P, R>>,
    ) -> Result<(Vec<R>, GpuStats), GpuRunError> {
        let roots: Vec<Call<'g, P, R>> = roots.into_iter().collect();
        if roots.is_empty() {
            return Ok((Vec::new(), GpuStats::default()));
        }
        self.launch_roots(roots)
    }

    /// One launch for `roots` (at least one). What the roots borrow stays borrowed (`'g`)
    /// until this call returns.
    fn launch_roots<'g, P: Program, R: Copy + 'static>(
        &mut self,
        roots: Vec<Call<'g, P, R>>,
    ) -> Result<(Vec<R>, GpuStats), GpuRunError> {
        if let Some(root) = roots.iter().find(|r| !r.gpu_root()) {
            return Err(GpuRunError::HostReferenceRoot {
                task: root.task_name(),
            });
        }
        if self.stuck {
            // An earlier run's kernel still runs on this runtime's memory.
            return Err(GpuRunError::Stuck {
                after: self.config.limits.timeout,
            });
        }
        // The roots travel as their arguments; the warps build their frames (see the kernel).
        let args: Vec<P::Args> = roots.into_iter().map(Call::into_args).collect();
        // SAFETY: `P::Args` is a `repr(C)` value whose fields have no drop glue (the macro
        // checks every task parameter); reading the bytes of the vector's elements is fine, and
        // they own nothing to drop twice.
        let args_bytes = unsafe {
            std::slice::from_raw_parts(args.as_ptr().cast::<u8>(), size_of_val(args.as_slice()))
        };
        match self.launch_args::<P, R>(args_bytes, args.len()) {
            // The device compiled the task frames to another size (the arguments agree): rustc
            // lays out each compilation's coroutines itself, and a block task's can differ
            // between the host and the GPU. The host only allocates records and reads their
            // headers, so it takes the device's layout and runs again.
            Err(GpuRunError::LayoutMismatch {
                host_size,
                host_align,
                device_size,
                device_align,
            }) if (device_size, device_align) != (host_size, host_align)
                && !self.layouts.contains_key(P::NAME) =>
            {
                let layout = (device_size as usize, device_align as usize);
                self.layouts.insert(P::NAME, layout);
                self.launch_args::<P, R>(args_bytes, args.len())
            }
            done => done,
        }
    }

    /// One launch of `roots` roots whose arguments are `args_bytes`.
    fn launch_args<P: Program, R: Copy + 'static>(
        &mut self,
        args_bytes: &[u8],
        roots: usize,
    ) -> Result<(Vec<R>, GpuStats), GpuRunError> {
        let stream = self.gpu.stream().clone();
        let (kernel, plan, arrays) =
            self.plan_and_prepare::<P, R>(&stream, Roots::Batch(roots), args_bytes)?;

        let control = control::control_block(&self.config, &plan, &arrays, self.panic.device);
        self.panic.clear();
        let run_addr = control::upload(&stream, &mut self.buffers.run, &control)?;

        let launched = launch::launch(&self.gpu, self.gpu.stream(), &kernel, &plan, run_addr)?;
        self.wait(&launched, &kernel, plan.roots)?;
        let kernel_ms = launched.kernel_ms()?;

        self.read_back::<P, R>(&stream, &plan, kernel_ms)
    }

    /// The plan of a run of `P` with `roots` of result `R`, its kernel, and its device
    /// memory (reused across runs when large enough). When the memory cannot be had and the
    /// record reserve has its default size (sized from the memory that was free when the
    /// runtime was made, which other runtimes or buffers may since have taken), the reserve
    /// is halved until it fits or is gone: it is spare room, and a run without it is still
    /// the run the user asked for.
    pub(super) fn plan_and_prepare<P: Program, R>(
        &mut self,
        stream: &Arc<CudaStream>,
        roots: Roots,
        args_bytes: &[u8],
    ) -> Result<(Kernel, RunPlan, super::buffers::DeviceArrays), GpuRunError> {
        let mut free = self.records_memory;
        loop {
            let (kernel, plan) = self.plan_with::<P, R>(roots, free)?;
            match self.buffers.prepare(stream, &plan, args_bytes) {
                Ok(arrays) => return Ok((kernel, plan, arrays)),
                Err(GpuRunError::OutOfMemory { .. })
                    if self.config.launch.reserve_records.is_none() && plan.reserve_chunks > 0 =>
                {
                    free /= 2;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The plan of a run of `P` with `roots` of result `R` ([`plan`]), with `free` bytes of
    /// device memory for the default record reserve, and the kernel it launches: every check
    /// that can fail before device memory is touched.
    fn plan_with<P: Program, R>(
        &self,
        roots: Roots,
        free: u64,
    ) -> Result<(Kernel, RunPlan), GpuRunError> {
        let mut program = ProgramShape::of::<P, R>();
        if let Some(&(size, align)) = self.layouts.get(P::NAME) {
            (program.record_size, program.record_align) = (size, align);
        }
        plan::check_program(&self.config, &program)?;
        let kernel = self.kernel::<P>()?;
        let grid = self.grid_for::<P>()?;
        let plan = RunPlan::batch(
            &self.config,
            self.gpu.props(),
            grid,
            program,
            match roots {
                Roots::Batch(n) => n,
                Roots::Resident => 1,
            },
            free,
            || {
                kernel
                    .function()
                    .max_threads_per_block()
                    .map_err(driver("cuFuncGetAttribute"))
            },
        )?;
        let plan = match roots {
            Roots::Batch(_) => plan,
            Roots::Resident => plan.resident(),
        };
        Ok((kernel, plan))
    }

    /// Waits for the `launched` kernel ([`launch`]) of a run of `plan_roots` roots: a failed
    /// kernel is reported with the location of a task's panic (and its root), a stuck one
    /// leaves this runtime stuck.
    fn wait(
        &mut self,
        launched: &Launched,
        kernel: &Kernel,
        plan_roots: u32,
    ) -> Result<(), GpuRunError> {
        match launched.wait(&self.gpu, kernel, self.config.limits.timeout) {
            Ok(()) => Ok(()),
            Err(Stopped::Failed(e)) => Err(self.kernel_failed(e, plan_roots)),
            Err(Stopped::Stuck) => Err(self.left_running(GpuRunError::Stuck {
                after: self.config.limits.timeout,
            })),
            Err(Stopped::NotStarted) => Err(self.left_running(GpuRunError::NotStarted {
                after: launch::start_wait(self.config.limits.timeout),
            })),
        }
    }

    /// A run's kernel that still runs, or is still to run, when the run returns `error`:
    /// freeing what it uses would block this thread (freeing page-locked memory waits for
    /// the device), so the runtime leaks it, as do the DeviceVecs it may have been given,
    /// and refuses later runs.
    fn left_running(&mut self, error: GpuRunError) -> GpuRunError {
        self.stuck = true;
        crate::data::note_stuck();
        // The kernel may never end: later calls that wait for every kernel must not wait
        // for it inside the driver (`gate.rs`).
        crate::gate::of(self.gpu.context()).hold_for_good();
        error
    }

    /// Reads back what the kernel of a run of `plan` left ([`decode`]): the first error on
    /// the device, or the roots' results with the statistics and the profile.
    fn read_back<P: Program, R: Copy + 'static>(
        &self,
        stream: &Arc<CudaStream>,
        plan: &RunPlan,
        kernel_ms: f32,
    ) -> Result<(Vec<R>, GpuStats), GpuRunError> {
        let b = &self.buffers;
        let done = decode::read_control(stream, b)?;
        if done.error_code != error_code::NONE {
            let (size, align) = (plan.program.record_size, plan.program.record_align);
            let error = self.device_error::<P>(&done, size as u32, align as u32);
            return Err(self.in_root(stream, plan, &done, error));
        }
        let total = decode::read_stats(stream, b, plan.warps)?;
        // SAFETY: the run completed without error (checked just above): every root returned.
        let values: Vec<R> = unsafe { decode::read_results(stream, b, plan.roots as usize) }?;
        let profile = if plan.profile_capacity > 0 {
            Some(decode::read_profile(
                stream,
                b,
                plan.warps,
                plan.profile_capacity,
            )?)
        } else {
            None
        };
        let mut stats = decode::gpu_stats(&total, plan, kernel_ms, profile);
        stats.heavy_leaf_rounds = done.heavy_rounds;
        Ok((values, stats))
    }

    /// `error`, as [`GpuRunError::InRoot`] when the run was a batch and the kernel noted the
    /// task whose spawn failed: its root is found by following its parents in device memory
    /// (every ancestor of a task is live while it is). Unchanged when that cannot be found.
    fn in_root(
        &self,
        stream: &Arc<CudaStream>,
        plan: &RunPlan,
        done: &GpuRun,
        error: GpuRunError,
    ) -> GpuRunError {
        if plan.roots < 2 || done.error_record == NONE {
            return error;
        }
        let reserve = done.reserve_chunks * gtap_device::runtime::reserve::CHUNK_RECORDS;
        let records = done.slab_records + reserve;
        let (per_warp, warps, roots) = (done.tasks_per_warp, done.num_warps, done.num_roots);
        let size = plan.program.record_size;
        let root = root_of_task(done.error_record, records, per_warp, warps, roots, |id| {
            decode::read_parent(stream, &self.buffers, size, id).ok()
        });
        match root {
            Some(root) => GpuRunError::InRoot {
                root: root as usize,
                roots: plan.roots as usize,
                source: Box::new(error),
            },
            None => error,
        }
    }

    /// The error for a kernel that failed: a panic's location when a task reported one, in
    /// the root it belonged to ([`GpuRunError::InRoot`]) when the run had several `roots`
    /// and the report names one.
    fn kernel_failed(&self, e: GpuError, roots: u32) -> GpuRunError {
        let Some(Panicked { location, root, .. }) = self.panic.report() else {
            return GpuRunError::Gpu(e);
        };
        let error = GpuRunError::TaskPanicked {
            location,
            source: e,
        };
        match root {
            Some(root) if roots > 1 && root < roots => GpuRunError::InRoot {
                root: root as usize,
                roots: roots as usize,
                source: Box::new(error),
            },
            _ => error,
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
    use super::{PanicReport, limit_registers, read_panic};

    /// A report as a panicking thread leaves it: its location, and `fill`'s root fields.
    fn reported(fill: impl FnOnce(&mut PanicReport)) -> PanicReport {
        let mut r = PanicReport {
            flag: 1,
            line: 7,
            column: 9,
            file_len: 7,
            ..PanicReport::default()
        };
        r.file[..7].copy_from_slice(b"lang.rs");
        fill(&mut r);
        r
    }

    #[test]
    fn a_panic_report_carries_its_root_or_its_roots_slot() {
        // SAFETY: a live report that nothing else writes.
        let read = |r: &PanicReport| unsafe { read_panic(r) };
        let batch = read(&reported(|r| (r.root_known, r.root) = (1, 600))).unwrap();
        assert_eq!(batch.location, "lang.rs:7:9");
        assert_eq!((batch.root, batch.root_slot), (Some(600), None));
        let resident = read(&reported(|r| r.root_slot = 0x7f00_0000_1010)).unwrap();
        assert_eq!(resident.root, None);
        assert_eq!(resident.root_slot, Some(0x7f00_0000_1010));
        let unknown = read(&reported(|_| {})).unwrap();
        assert_eq!((unknown.root, unknown.root_slot), (None, None));
        // No report until the panicking thread has raised the flag.
        assert!(read(&PanicReport::default()).is_none());
        assert!(
            read(&reported(|r| r.flag = 2)).is_none(),
            "still being written"
        );
    }

    #[test]
    fn maxnreg_goes_after_each_entry_parameter_list() {
        let ptx = ".version 7.0\n.visible .entry a(\n\t.param .u64 a_param_0\n)\n{\n\tret;\n}\n.entry b(\n)\n{\n}\n";
        let out = limit_registers(ptx, 40);
        assert_eq!(out.matches(".maxnreg 40").count(), 2, "{out}");
        assert!(out.contains("a_param_0\n)\n.maxnreg 40\n{"), "{out}");
        assert!(out.contains(".entry b(\n)\n.maxnreg 40\n{"), "{out}");
        // An empty list on the entry's line, and a function after it whose list must not
        // get the directive.
        let ptx = ".visible .entry c()     // @c\n{\n}\n.func d(\n\t.param .b64 d_0\n)\n{\n}\n";
        let out = limit_registers(ptx, 40);
        assert_eq!(out.matches(".maxnreg 40").count(), 1, "{out}");
        assert!(out.contains("// @c\n.maxnreg 40\n{"), "{out}");
    }
}
