//! [`GpuResident`]: the GPU backend's resident session.
//!
//! [`GpuRuntime::resident`] launches the program's thread kernel with no roots and an
//! injection ring ([`Ring`], in mapped host memory) and returns at once: the kernel stays
//! resident, and idle warps take the roots the host publishes (device side:
//! `gtap_device::runtime::gpu::inject`). The launch is on a stream of the session's own
//! ([`OwnStream`], after the runtime's stream, which filled the buffers), so that no other
//! runtime's work in the process waits for the kernel, and the session reads device memory
//! only on that stream, so that it waits for no other runtime's work either. From before its
//! launch until the poller saw its kernel end, the session counts as open in the GPU's gate
//! (`crate::gate`), which keeps the driver calls that wait for every kernel (loading PTX,
//! freeing page-locked memory) from waiting for it.
//!
//! A small poller thread of the session watches the completion slots: when one says done it
//! reads the result, frees the slot and completes the root's handle (waking its future). A
//! watcher thread beside it asks the driver about the kernel's end event (so that no driver
//! call delays a delivery): a kernel that ends while roots are in flight failed
//! (a limit, a task's trap), and the poller reports the failure on every pending handle (the
//! failing root's gets [`RootError::Failed`], the others [`RootError::Aborted`] naming it),
//! after which the session is closed: later submissions get [`RootError::Closed`]. A task
//! failure ends the whole kernel because a trap ends it anyway, and a limit leaves the
//! failing root's records in a state no other root can be kept apart from.
//!
//! Which root failed is found from the failing task's root record, whose result pointer is
//! the address of its root's completion slot (`Ring::slot_of` maps it back): after a limit
//! the kernel has noted the task whose spawn failed, and the poller follows its parents in
//! device memory (`failed_slot`); after a panic device memory is unreadable (the trap ends
//! the context), so the panicking thread follows them itself and leaves the pointer in the
//! panic report in mapped host memory (device side: `gtap_device::runtime::gpu::panic`).
//! A failure that names no root (a fault that is not a panic, such as an illegal address, or
//! a walk that could not complete) is traced only when a single root was pending.
//!
//! Shutting down sets the ring's shutdown word; the kernel ends once every published root has
//! completed (no root is cancelled), and the poller delivers the last results.

use std::marker::PhantomData;
use std::mem::size_of;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use gtap_device::runtime::gpu::layout::{GpuRun, SLOT_DONE, SLOT_PENDING, root_record_of_task};
use gtap_device::runtime::record::{PARENT_OFFSET, RESULT_SLOT_OFFSET};
use gtap_device::task::{Call, Program};

use super::launch::Launched;
use super::own_stream::OwnStream;
use super::plan::Roots;
use super::ring::Ring;
use super::runtime::read_panic;
use super::{GpuRunError, GpuRuntime, control, launch};
use crate::resident::{Completer, RootError, RootHandle, pair};
use crate::{GpuError, RuntimeError};

/// Entries of a session's injection ring: roots in flight at once (a submission past them
/// waits for a slot).
pub const RING_CAPACITY: u32 = 1 << 14;

/// How long past the timeout a shutdown waits for a kernel that does not end before it
/// leaves it running, as a stuck run does.
const STUCK_GRACE: Duration = Duration::from_secs(5);

/// What the session, its submitters and its poller share.
struct Shared<R> {
    ring: Ring,
    /// The completer of each slot's root while it is in flight.
    pending: Box<[Mutex<Option<Completer<R>>>]>,
    /// Roots published and not yet delivered.
    in_flight: AtomicUsize,
    /// Roots published so far (the host's copy of the ring's `published`, for the poller).
    published: AtomicU64,
    /// Set by the poller once the kernel ended; pending roots are then failed.
    ended: AtomicBool,
    /// Why the session cannot run roots any more (set before `ended`).
    closed: Mutex<Option<Arc<RuntimeError>>>,
    /// Whether the latency trace is on ([`GpuResident::set_trace`]).
    tracing: AtomicBool,
    /// Per slot, its last root's trace: the fields of a [`RootTrace`], in its order.
    trace: Box<[[AtomicU64; 5]]>,
}

/// One root's way through a session with the latency trace on ([`GpuResident::set_trace`]).
/// Host times (`published_ns`, `seen_ns`, `delivered_ns`) are ns since the Unix epoch
/// (`SystemTime`); device times (`claimed_ns`, `done_ns`) are the GPU's `%globaltimer`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RootTrace {
    /// Just after the host's release store of `published` that made the root visible.
    pub published_ns: u64,
    /// When a polling warp claimed the root (device).
    pub claimed_ns: u64,
    /// When the root completed, just before its slot's status store (device).
    pub done_ns: u64,
    /// When the poller saw the slot's status say done.
    pub seen_ns: u64,
    /// When the poller had completed the root's handle.
    pub delivered_ns: u64,
}

/// The host's clock for the latency trace: ns since the Unix epoch.
pub fn trace_now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

impl<R> Shared<R> {
    fn slot(&self, i: u32) -> MutexGuard<'_, Option<Completer<R>>> {
        // Each critical section is a take or a put: a poisoned lock holds a whole value.
        self.pending[i as usize]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn closed(&self) -> Option<Arc<RuntimeError>> {
        self.closed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// A resident session on the GPU: the program's kernel stays resident and takes the roots
/// submitted to it while it runs (see [`crate::resident`] for the handles, failures and
/// shutting down, and [`GpuRuntime::resident`] for what it runs).
///
/// ```ignore
/// let mut rt = GpuRuntime::new(Gpu::new(0)?, PTX, GpuConfig::new())?;
/// let session = rt.resident::<fib::Program, u64>()?;
/// let h = session.submit(fib::fib(20));
/// assert_eq!(h.wait()?, 6765);
/// session.shutdown()?;
/// ```
pub struct GpuResident<'rt, P: Program, R> {
    /// The runtime's flag for a kernel that never ended (the rest of the runtime stays
    /// borrowed through it, unused, while the session lives).
    stuck: &'rt mut bool,
    /// The runtime's timeout.
    run_timeout: Duration,
    shared: Arc<Shared<R>>,
    /// The next root's submission number; held while a root is published, so that roots are
    /// published in the order of their numbers.
    next: Mutex<u64>,
    poller: Option<JoinHandle<()>>,
    timeout: Option<Duration>,
    _program: PhantomData<fn() -> P>,
}

impl GpuRuntime {
    /// Launches program `P`'s kernel resident, taking roots with result `R` from a session's
    /// [`submit`](GpuResident::submit) while it runs ([`GpuResident`]). Thread programs that
    /// use `taskwait!` only: block and mixed programs, programs without `taskwait!` (their end
    /// is found by counting tasks, not per root), the profiler and the ablation schedulers
    /// are refused with [`GpuRunError::NotResident`].
    pub fn resident<P: Program, R: Copy + Send + 'static>(
        &mut self,
    ) -> Result<GpuResident<'_, P, R>, GpuRunError> {
        let refuse = |why| {
            Err(GpuRunError::NotResident {
                program: P::NAME,
                why,
            })
        };
        if P::BLOCK || P::MIXED {
            return refuse("it has block tasks; run it with run or run_batch");
        }
        if !P::HAS_TASKWAIT {
            return refuse("it has no taskwait!, so its roots' completion is not seen one by one");
        }
        if self.config.lab_kernel().is_some() {
            return refuse("the profiler and the ablation schedulers run one launch per run");
        }
        if self.stuck {
            return Err(GpuRunError::Stuck {
                after: self.config.limits.timeout,
            });
        }
        let stream = self.gpu.stream().clone();
        let (kernel, plan, arrays) =
            self.plan_and_prepare::<P, R>(&stream, Roots::Resident, &[])?;
        let ring = Ring::new(
            self.gpu.props().ordinal,
            RING_CAPACITY,
            plan.program.args_size,
            plan.program.result_size,
        )?;
        let mut block = control::control_block(&self.config, &plan, &arrays, self.panic.device);
        control::make_resident(&mut block, &self.config, &ring);
        self.panic.clear();
        let run_addr = control::upload(&stream, &mut self.buffers.run, &block)?;
        // Its own stream: on the runtime's, the kernel would hold up every other runtime of
        // the process until the shutdown (`own_stream`).
        let own = OwnStream::after(&self.gpu)?;
        // Counted from before the launch until the poller saw the kernel end (`gate.rs`).
        let open = crate::gate::of(self.gpu.context()).open();
        let launched = launch::launch(&self.gpu, own.stream(), &kernel, &plan, run_addr)?;
        let shared = Arc::new(Shared {
            ring,
            pending: (0..RING_CAPACITY).map(|_| Mutex::new(None)).collect(),
            in_flight: AtomicUsize::new(0),
            published: AtomicU64::new(0),
            ended: AtomicBool::new(false),
            closed: Mutex::new(None),
            tracing: AtomicBool::new(false),
            trace: (0..RING_CAPACITY).map(|_| Default::default()).collect(),
        });
        let watch = Watch {
            ctx: self.gpu.context().clone(),
            launched,
            stream: own,
            kernel: kernel.name().to_owned(),
            run_addr,
            records: block.records,
            record_size: plan.program.record_size,
            record_align: plan.program.record_align,
            records_total: block.slab_records
                + block.reserve_chunks * gtap_device::runtime::reserve::CHUNK_RECORDS,
            panic: self.panic.host_ptr() as usize,
            task_names: P::TASK_NAMES,
            _open: open,
        };
        let poller_shared = shared.clone();
        let poller = std::thread::Builder::new()
            .name("gtap-resident-poller".into())
            .spawn(move || poll(&poller_shared, &watch))
            .map_err(|e| GpuRunError::NotResident {
                program: P::NAME,
                why: if e.kind() == std::io::ErrorKind::OutOfMemory {
                    "its poller thread could not be started (out of memory)"
                } else {
                    "its poller thread could not be started"
                },
            })?;
        let timeout =
            (self.config.limits.timeout != Duration::MAX).then_some(self.config.limits.timeout);
        let run_timeout = self.config.limits.timeout;
        Ok(GpuResident {
            stuck: &mut self.stuck,
            run_timeout,
            shared,
            next: Mutex::new(0),
            poller: Some(poller),
            timeout,
            _program: PhantomData,
        })
    }
}

impl<P: Program, R: Copy + Send + 'static> GpuResident<'_, P, R> {
    /// Submits `root` and returns its handle; waits only while the ring is full (every one of
    /// its [`RING_CAPACITY`] slots holds a root in flight). Callable from several threads. A
    /// root that takes host references ([`Call::gpu_root`]) is refused on its handle.
    pub fn submit(&self, root: Call<'static, P, R>) -> RootHandle<R> {
        let mut next = self.next.lock().unwrap_or_else(PoisonError::into_inner);
        let seq = *next;
        *next += 1;
        let (handle, completer) = pair(seq, self.timeout);
        if !root.gpu_root() {
            let error = GpuRunError::HostReferenceRoot {
                task: root.task_name(),
            };
            completer.complete(Err(RootError::Failed {
                root: seq,
                source: Arc::new(RuntimeError::Gpu(error)),
            }));
            return handle;
        }
        let args = root.into_args();
        // SAFETY: `P::Args` is a `repr(C)` value whose fields have no drop glue (the macro
        // checks every task parameter): its bytes are what the device reads back.
        let bytes = unsafe {
            std::slice::from_raw_parts((&raw const args).cast::<u8>(), size_of::<P::Args>())
        };
        self.publish(seq, bytes, completer);
        handle
    }

    /// Publishes root `seq` (its arguments `bytes`) once its slot is free; its completer goes
    /// into the slot first. Called with the submission lock held.
    fn publish(&self, seq: u64, bytes: &[u8], completer: Completer<R>) {
        let s = &*self.shared;
        let i = (seq as u32) & (RING_CAPACITY - 1);
        // The slot is free once the poller delivered its previous root.
        while s.slot(i).is_some() {
            if s.ended.load(Ordering::SeqCst) {
                break;
            }
            std::thread::yield_now();
        }
        if let Some(source) = s.closed() {
            completer.complete(Err(RootError::Closed { root: seq, source }));
            return;
        }
        // SAFETY: the slot is free: the device read the entry's previous arguments before it
        // completed that root, and `bytes` is one `P::Args` (the ring's stride holds it).
        unsafe { s.ring.write_args(i, bytes) };
        // Relaxed: published by the release store of `published` below.
        s.ring.status(i).store(SLOT_PENDING, Ordering::Relaxed);
        *s.slot(i) = Some(completer);
        let was_idle = s.in_flight.fetch_add(1, Ordering::SeqCst) == 0;
        // Release: the arguments and the status above happen before the device's acquire
        // load of `published` that sees this root (see `ring`).
        s.ring
            .published()
            .store((seq + 1) as u32, Ordering::Release);
        s.published.store(seq + 1, Ordering::SeqCst);
        // Relaxed: the trace is read by the submitter after the root's delivery.
        if s.tracing.load(Ordering::Relaxed) {
            s.trace[i as usize][0].store(trace_now_ns(), Ordering::Relaxed);
        }
        if s.ended.load(Ordering::SeqCst) {
            // The poller may have failed the pending roots before this one was in its slot.
            // (A clean end, with no error, comes only after the shutdown, never during a
            // submission.)
            if let Some(source) = s.closed()
                && let Some(c) = s.slot(i).take()
            {
                s.in_flight.fetch_sub(1, Ordering::SeqCst);
                c.complete(Err(RootError::Closed { root: seq, source }));
            }
        }
        if was_idle && let Some(p) = &self.poller {
            p.thread().unpark();
        }
    }

    /// Turns the latency trace on or off: with it on, the session records the host times of
    /// each root's way ([`GpuResident::trace`]).
    pub fn set_trace(&self, on: bool) {
        // Relaxed: a flag read at each publication and delivery; roots published while it
        // changes may be traced in part.
        self.shared.tracing.store(on, Ordering::Relaxed);
    }

    /// The trace of root `root` (a submission number), once its handle is complete and
    /// while no later root uses its slot; zeros where the trace was off.
    pub fn trace(&self, root: u64) -> RootTrace {
        let s = &*self.shared;
        let i = (root as u32) & (RING_CAPACITY - 1);
        // Relaxed: stored by the poller before it completed the handle, which the caller saw
        // (the handle's mutex orders them).
        let host = |k: usize| s.trace[i as usize][k].load(Ordering::Relaxed);
        RootTrace {
            published_ns: host(0),
            claimed_ns: host(1),
            done_ns: host(2),
            seen_ns: host(3),
            delivered_ns: host(4),
        }
    }

    /// How many roots were submitted so far.
    pub fn submitted(&self) -> u64 {
        *self.next.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Stops taking roots, waits for every submitted root to complete and the kernel to end,
    /// and returns the error that ended the kernel early, if one did (each pending root's
    /// handle has it too). Also what dropping the session does, without the error.
    pub fn shutdown(mut self) -> Result<(), GpuRunError> {
        self.stop()
    }
}

impl<P: Program, R> GpuResident<'_, P, R> {
    fn stop(&mut self) -> Result<(), GpuRunError> {
        let Some(poller) = self.poller.take() else {
            return Ok(());
        };
        // Release: after the last publication (the submission lock orders those before this
        // `&mut self`), so the kernel that sees it also sees the final `published`.
        self.shared.ring.shutdown().store(1, Ordering::Release);
        poller.thread().unpark();
        let started = Instant::now();
        let limit = self.run_timeout.saturating_add(STUCK_GRACE);
        while !poller.is_finished() {
            if started.elapsed() > limit {
                // The kernel did not end: leave it (and the poller, which keeps the ring
                // alive) running, and refuse the runtime's later runs, as after a stuck run.
                *self.stuck = true;
                crate::data::note_stuck();
                return Err(GpuRunError::Stuck {
                    after: self.run_timeout,
                });
            }
            std::thread::sleep(Duration::from_micros(100));
        }
        let _ = poller.join();
        match self.shared.closed() {
            Some(e) => Err(GpuRunError::ResidentFailed {
                message: e.to_string(),
            }),
            None => Ok(()),
        }
    }
}

impl<P: Program, R> Drop for GpuResident<'_, P, R> {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// What the poller needs to watch the kernel and explain its end.
struct Watch {
    ctx: Arc<cudarc::driver::CudaContext>,
    launched: Launched,
    /// The stream the kernel runs on, the session's own; device memory is read on it.
    stream: OwnStream,
    kernel: String,
    /// The control block's device address.
    run_addr: u64,
    /// The task records' device address, one record's size, and how many there are (the
    /// slabs' and the reserve's, which follows them).
    records: u64,
    record_size: usize,
    record_align: usize,
    records_total: u32,
    /// The panic report's host address.
    panic: usize,
    task_names: &'static [&'static str],
    /// The kernel counted open in the GPU's gate; dropped last, once the kernel has ended.
    _open: crate::gate::Open,
}

/// How long the poller keeps spinning after its last root was delivered before it sleeps
/// (until a submission wakes it): a root submitted within it is seen at once, not after a
/// thread wake-up.
const SPIN_AFTER_IDLE: Duration = Duration::from_millis(20);

/// How often the watcher asks the driver whether the kernel has ended.
const WATCH_PERIOD: Duration = Duration::from_micros(500);

/// The poller: delivers completed roots until the kernel has ended, then fails what is left.
///
/// Whether the kernel has ended is asked of the driver (`cuEventQuery`) by a watcher thread
/// of its own, never by the loop that delivers: a driver call next to a running kernel may
/// take long, and the loop must see each completion as soon as its slot says so.
fn poll<R: Copy>(s: &Shared<R>, watch: &Watch) {
    // The copies `close` makes name no context; a failure to bind shows in them.
    let _ = watch.ctx.bind_to_thread();
    let end: Mutex<Option<Result<(), GpuError>>> = Mutex::new(None);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| watch_end(watch, &end, &done));
        deliver_until(s, &done);
    });
    let ended = end
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .unwrap_or(Ok(()));
    close(s, watch, ended);
}

/// The watcher: asks every [`WATCH_PERIOD`] whether the kernel has ended; once it has (or
/// failed), stores how in `end` and raises `done`.
fn watch_end(watch: &Watch, end: &Mutex<Option<Result<(), GpuError>>>, done: &AtomicBool) {
    // The event queries name no context; a failure to bind shows in them.
    let _ = watch.ctx.bind_to_thread();
    loop {
        match watch.launched.end_reached(&watch.kernel) {
            Ok(false) => std::thread::sleep(WATCH_PERIOD),
            ended => {
                *end.lock().unwrap_or_else(PoisonError::into_inner) = Some(ended.map(|_| ()));
                // Release: the outcome above happens before the poller's acquire load.
                done.store(true, Ordering::Release);
                return;
            }
        }
    }
}

/// Delivers completed roots until `done` says the kernel has ended, then once more (the
/// kernel's last completions happen before its end).
fn deliver_until<R: Copy>(s: &Shared<R>, done: &AtomicBool) {
    let mut window = Window::new(s.ring.capacity);
    let mut last_busy = Instant::now();
    loop {
        // Acquire: pairs with the watcher's release store.
        if done.load(Ordering::Acquire) {
            window.deliver(s);
            return;
        }
        let delivered = window.deliver(s);
        let idle = s.in_flight.load(Ordering::SeqCst) == 0;
        if delivered > 0 || !idle {
            last_busy = Instant::now();
        } else if last_busy.elapsed() > SPIN_AFTER_IDLE {
            // Nothing in flight for a while: sleep until a submission (or the shutdown)
            // unparks this thread, or the watcher's period has passed.
            std::thread::park_timeout(WATCH_PERIOD);
            continue;
        }
        if delivered == 0 {
            std::hint::spin_loop();
        }
    }
}

/// The poller's view of the roots in flight: the oldest one not delivered yet, and the
/// submission number each slot last delivered (so that a scan covers only the roots
/// published since the oldest, not the whole ring).
struct Window {
    oldest: u64,
    delivered: Vec<u64>,
}

impl Window {
    fn new(capacity: u32) -> Window {
        Window {
            oldest: 0,
            delivered: vec![u64::MAX; capacity as usize],
        }
    }

    /// Delivers every root in flight whose slot says done; returns how many.
    fn deliver<R: Copy>(&mut self, s: &Shared<R>) -> usize {
        let upto = s.published.load(Ordering::SeqCst);
        let mask = u64::from(s.ring.capacity - 1);
        let mut n = 0;
        for seq in self.oldest..upto {
            let i = (seq & mask) as u32;
            if self.delivered[i as usize] == seq {
                continue;
            }
            // Acquire: the device's result write happens before its release store of DONE.
            if s.ring.status(i).load(Ordering::Acquire) != SLOT_DONE {
                continue;
            }
            let mut slot = s.slot(i);
            // SAFETY: the status was read as done just above (acquire); the slot's root has
            // result type `R` (the session's).
            let value = unsafe { s.ring.read_result::<R>(i) };
            // Relaxed: see `set_trace`.
            let tracing = s.tracing.load(Ordering::Relaxed);
            if tracing {
                // SAFETY: as for the result.
                let (claimed, done) = unsafe { s.ring.device_times(i) };
                let t = &s.trace[i as usize];
                // Relaxed: read after the handle's completion (see `trace`).
                t[1].store(claimed, Ordering::Relaxed);
                t[2].store(done, Ordering::Relaxed);
                t[3].store(trace_now_ns(), Ordering::Relaxed);
            }
            // Relaxed: the slot is reused only after it is free (the lock), and the device
            // writes it only for the next root published there.
            s.ring.status(i).store(SLOT_PENDING, Ordering::Relaxed);
            let completer = slot.take();
            drop(slot);
            self.delivered[i as usize] = seq;
            s.in_flight.fetch_sub(1, Ordering::SeqCst);
            if let Some(c) = completer {
                if tracing {
                    // Relaxed: read after the handle's completion (see `trace`); stored
                    // just before it, so the delivery time leaves out the completion.
                    s.trace[i as usize][4].store(trace_now_ns(), Ordering::Relaxed);
                }
                c.complete(Ok(value));
            }
            n += 1;
        }
        while self.oldest < upto && self.delivered[(self.oldest & mask) as usize] == self.oldest {
            self.oldest += 1;
        }
        n
    }
}

/// The kernel ended (`ended`: normally, or with the driver's error): records why the
/// session is closed and fails every root still pending with it.
fn close<R>(s: &Shared<R>, watch: &Watch, ended: Result<(), GpuError>) {
    let (error, failed_slot) = match ended {
        Err(e) => {
            // SAFETY: the kernel has ended (it failed), so nothing writes the report.
            match unsafe { read_panic(watch.panic as *const _) } {
                // The panicking thread found its root record and copied its result pointer,
                // the address of the root's slot (device side: `runtime::gpu::panic`).
                Some(p) => (
                    GpuRunError::TaskPanicked {
                        location: p.location,
                        source: e,
                    },
                    p.root_slot.and_then(|addr| s.ring.slot_of(addr)),
                ),
                None => (GpuRunError::Gpu(e), None),
            }
        }
        Ok(()) => match kernel_error(s, watch) {
            Some(found) => found,
            None if s.in_flight.load(Ordering::SeqCst) == 0 => {
                // A clean end after the shutdown.
                s.ended.store(true, Ordering::SeqCst);
                return;
            }
            None => (
                GpuRunError::ResidentFailed {
                    message: "the kernel ended with roots in flight and no error recorded".into(),
                },
                None,
            ),
        },
    };
    let source = Arc::new(RuntimeError::Gpu(error));
    *s.closed.lock().unwrap_or_else(PoisonError::into_inner) = Some(source.clone());
    s.ended.store(true, Ordering::SeqCst);
    let pending: Vec<(u32, Completer<R>)> = (0..s.ring.capacity)
        .filter_map(|i| s.slot(i).take().map(|c| (i, c)))
        .collect();
    let failed_slot = failed_slot.or((pending.len() == 1).then(|| pending[0].0));
    let failed_root = pending
        .iter()
        .find(|(i, _)| Some(*i) == failed_slot)
        .map(|(_, c)| c.root());
    for (i, c) in pending {
        let root = c.root();
        let source = source.clone();
        s.in_flight.fetch_sub(1, Ordering::SeqCst);
        let failed = Some(i) == failed_slot;
        c.complete(Err(RootError::ended(root, failed, failed_root, source)));
    }
}

/// The error the kernel recorded, if any, and the slot of the root whose task failed a spawn
/// when it can be found (by following the task's parents to its root's record, whose result
/// pointer is in that root's slot).
fn kernel_error<R>(s: &Shared<R>, watch: &Watch) -> Option<(GpuRunError, Option<u32>)> {
    let mut bytes = vec![0u8; size_of::<GpuRun>()];
    // SAFETY: the control block is a `GpuRun` at `run_addr`, alive while the session borrows
    // the runtime; the kernel has ended.
    unsafe { watch.stream.read(&mut bytes, watch.run_addr) }.ok()?;
    // SAFETY: the bytes of a `GpuRun`, plain integers.
    let run: GpuRun = unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast()) };
    if run.error_code == gtap_device::runtime::gpu::layout::error_code::NONE {
        return None;
    }
    let (size, align) = (watch.record_size as u32, watch.record_align as u32);
    let error = GpuRunError::from_kernel(run.error_words(), watch.task_names, size, align)
        .unwrap_or(GpuRunError::Unknown {
            code: run.error_code,
        });
    Some((error, failed_slot(s, watch, run.error_record)))
}

/// The slot of the root that task record `id` belongs to: the walk up its parents to its
/// root record is the panic handler's ([`root_record_of_task`]), reading the headers from
/// device memory; the root record's result pointer is its slot's.
fn failed_slot<R>(s: &Shared<R>, watch: &Watch, id: u32) -> Option<u32> {
    let read = |id: u32, offset: usize, out: &mut [u8]| {
        let at = watch.records + u64::from(id) * watch.record_size as u64 + offset as u64;
        // SAFETY: inside the records array (`id` below the records' count, which the walk
        // checks), which lives while the session borrows the runtime; the kernel has ended.
        unsafe { watch.stream.read(out, at) }.ok()
    };
    let root = root_record_of_task(id, watch.records_total, |id| {
        let mut parent = [0u8; 4];
        read(id, PARENT_OFFSET, &mut parent)?;
        Some(u32::from_ne_bytes(parent))
    })?;
    let mut ptr = [0u8; 8];
    read(root, RESULT_SLOT_OFFSET, &mut ptr)?;
    s.ring.slot_of(u64::from_ne_bytes(ptr))
}
