//! The gate that keeps driver calls which wait for every kernel apart from kernels that never
//! end by themselves.
//!
//! Some CUDA driver calls return only once every kernel running in the context has ended:
//! loading a PTX module and freeing page-locked host memory do (both were seen hanging), and
//! so, we take it, do unloading a module, raising the stack limit (the driver reallocates
//! the context's local memory) and a kernel's first lookup under the driver's lazy loading
//! (which NVIDIA says may synchronize the context). A resident session's kernel ends only
//! when its session shuts down, so such a call made while a session is open waits for that
//! shutdown. Worse, it waits holding the driver's lock, so the thread that owns the session
//! blocks in its next driver call and never shuts it down: the process hangs (`cuda-gdb`
//! stacks in `results/2026-11-27-session-gate-h100.md`).
//!
//! A [`Gate`] per GPU counts the kernels that run until told to stop: open resident sessions,
//! and the kernels of runs that ended `Stuck` or `NotStarted` (which may never end). A call
//! that waits for every kernel goes through [`Gate::quiet`]: it waits, outside the driver,
//! until none is open (up to a limit, then [`GpuError::SessionOpen`]), and no session opens
//! while it runs. What such a call would free ([`Gate::release`]: a module, page-locked
//! memory) while any is open is kept and freed when the last one closes.
//!
//! Kernels that end by themselves (ordinary runs) are not counted: a call that waits for them
//! waits a run's length at most.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crate::GpuError;

/// The gate of the GPU whose primary context is `ctx` (every `Gpu` of one ordinal shares it).
pub(crate) fn of(ctx: &cudarc::driver::CudaContext) -> Arc<Gate> {
    for_ordinal(ctx.ordinal())
}

/// The gate of GPU `ordinal`, made on first use.
pub(crate) fn for_ordinal(ordinal: usize) -> Arc<Gate> {
    static GATES: OnceLock<Mutex<HashMap<usize, Arc<Gate>>>> = OnceLock::new();
    let gates = GATES.get_or_init(Default::default);
    let mut gates = gates.lock().unwrap_or_else(PoisonError::into_inner);
    gates.entry(ordinal).or_default().clone()
}

/// One GPU's count of open kernels that never end by themselves, and of the calls running
/// that wait for every kernel.
#[derive(Default)]
pub(crate) struct Gate {
    state: Mutex<State>,
    /// Signalled whenever `open` or `quiet` drops to zero.
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// Kernels that run until told to stop (sessions, stuck runs).
    open: usize,
    /// Calls inside [`Gate::quiet`] (or freeing what [`Gate::release`] was given).
    quiet: usize,
    /// What was released while kernels were open: freed when `open` drops to zero.
    held: Vec<Box<dyn Send>>,
}

impl Gate {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `call` (the driver call `what`, which waits for every kernel) once no kernel that
    /// runs until told to stop is open, waiting up to `wait` for them to close; while it runs,
    /// no session opens. [`GpuError::SessionOpen`] if they stayed open.
    pub(crate) fn quiet<T, E: From<GpuError>>(
        &self,
        what: &'static str,
        wait: Duration,
        call: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        let started = Instant::now();
        let mut state = self.lock();
        while state.open > 0 {
            let left = wait.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Err(GpuError::SessionOpen {
                    call: what,
                    waited: wait,
                    open: state.open,
                }
                .into());
            }
            state = self.wait(state, left);
        }
        let _leave = self.enter(state);
        call()
    }

    /// Counts a kernel that runs until told to stop, from before its launch until the
    /// returned [`Open`] drops (after the kernel has ended); waits while a [`Gate::quiet`]
    /// call runs, so that the call never waits for it.
    pub(crate) fn open(self: &Arc<Self>) -> Open {
        let mut state = self.lock();
        while state.quiet > 0 {
            state = self.wait(state, Duration::from_secs(1));
        }
        state.open += 1;
        Open(self.clone())
    }

    /// Counts, for good, a kernel that is already running and may never end (a stuck run's),
    /// so that no later quiet call waits for it inside the driver. Does not wait for quiet
    /// calls in progress: one may be waiting for that very kernel.
    pub(crate) fn hold_for_good(&self) {
        self.lock().open += 1;
    }

    /// Drops `item`, whose drop waits for every kernel, now if no kernel that runs until told
    /// to stop is open, else once the last one closes.
    pub(crate) fn release(&self, item: impl Send + 'static) {
        let mut state = self.lock();
        if state.open > 0 {
            state.held.push(Box::new(item));
            return;
        }
        let _leave = self.enter(state);
        drop(item);
    }

    fn close(&self) {
        let mut state = self.lock();
        state.open -= 1;
        if state.open > 0 {
            return;
        }
        let held = std::mem::take(&mut state.held);
        self.changed.notify_all();
        if held.is_empty() {
            return;
        }
        let _leave = self.enter(state);
        drop(held);
    }

    /// Counts a quiet call (or a free) from here until the returned guard drops, and lets
    /// the lock go: the call itself runs without it.
    fn enter(&self, mut state: MutexGuard<'_, State>) -> Leave<'_> {
        state.quiet += 1;
        Leave(self)
    }

    fn wait<'a>(&self, state: MutexGuard<'a, State>, at_most: Duration) -> MutexGuard<'a, State> {
        self.changed
            .wait_timeout(state, at_most)
            .unwrap_or_else(PoisonError::into_inner)
            .0
    }
}

/// Ends a quiet call (or a release's free) when dropped, also when it panicked.
struct Leave<'a>(&'a Gate);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.quiet -= 1;
        if state.quiet == 0 {
            self.0.changed.notify_all();
        }
    }
}

/// A kernel counted by [`Gate::open`]; closes it when dropped.
pub(crate) struct Open(Arc<Gate>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Page-locked host memory from `cuMemHostAlloc`, freed (`cuMemFreeHost`, which waits for
/// every kernel) through the gate.
pub(crate) struct HostPages(pub(crate) *mut std::ffi::c_void);

// SAFETY: the pointer is an allocation of the context's, not tied to a thread; it is only
// freed, once, by whichever thread drops it.
unsafe impl Send for HostPages {}

impl Drop for HostPages {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: allocated by `cuMemHostAlloc` and freed only here, once. A failure (after
            // a trap every call fails) leaks the pages, which is all a drop can do.
            let _ = unsafe { cudarc::driver::result::free_host(self.0) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    const SHORT: Duration = Duration::from_millis(50);

    #[test]
    fn a_quiet_call_runs_at_once_when_nothing_is_open() {
        let gate = Arc::new(Gate::default());
        let got: Result<u32, GpuError> = gate.quiet("call", SHORT, || Ok(7));
        assert_eq!(got.unwrap(), 7);
    }

    #[test]
    fn a_quiet_call_fails_with_session_open_when_the_session_stays_open() {
        let gate = Arc::new(Gate::default());
        let _session = gate.open();
        let ran = AtomicBool::new(false);
        let got: Result<(), GpuError> = gate.quiet("cuModuleLoadData", SHORT, || {
            ran.store(true, Ordering::Relaxed);
            Ok(())
        });
        let e = got.unwrap_err();
        assert!(matches!(e, GpuError::SessionOpen { open: 1, .. }), "{e:?}");
        assert!(e.to_string().contains("cuModuleLoadData"), "{e}");
        assert!(
            !ran.load(Ordering::Relaxed),
            "the call ran beside an open kernel"
        );
    }

    #[test]
    fn a_quiet_call_waits_for_a_session_that_closes() {
        let gate = Arc::new(Gate::default());
        let session = gate.open();
        let closer = std::thread::spawn(move || {
            std::thread::sleep(SHORT);
            drop(session);
        });
        let got: Result<(), GpuError> = gate.quiet("call", Duration::from_secs(30), || Ok(()));
        got.unwrap();
        closer.join().unwrap();
    }

    /// Counts its drops, to see when a released item is freed.
    struct Counted(Arc<std::sync::atomic::AtomicUsize>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_release_is_held_until_the_last_open_kernel_closes() {
        let gate = Arc::new(Gate::default());
        let freed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (a, b) = (gate.open(), gate.open());
        gate.release(Counted(freed.clone()));
        gate.release(Counted(freed.clone()));
        assert_eq!(freed.load(Ordering::SeqCst), 0);
        drop(a);
        assert_eq!(freed.load(Ordering::SeqCst), 0, "one kernel is still open");
        drop(b);
        assert_eq!(freed.load(Ordering::SeqCst), 2);
        gate.release(Counted(freed.clone()));
        assert_eq!(
            freed.load(Ordering::SeqCst),
            3,
            "nothing open: freed at once"
        );
    }

    #[test]
    fn a_stuck_kernel_holds_the_gate_for_good() {
        let gate = Arc::new(Gate::default());
        gate.hold_for_good();
        let got: Result<(), GpuError> = gate.quiet("call", SHORT, || Ok(()));
        assert!(matches!(got, Err(GpuError::SessionOpen { .. })));
    }

    #[test]
    fn a_session_waits_for_a_quiet_call_to_end() {
        let gate = Arc::new(Gate::default());
        let in_call = Arc::new(AtomicBool::new(false));
        let opened_during_call = Arc::new(AtomicBool::new(false));
        let (g, flag, seen) = (gate.clone(), in_call.clone(), opened_during_call.clone());
        let caller = std::thread::spawn(move || {
            let _: Result<(), GpuError> = g.quiet("call", SHORT, || {
                flag.store(true, Ordering::SeqCst);
                std::thread::sleep(4 * SHORT);
                flag.store(false, Ordering::SeqCst);
                Ok(())
            });
        });
        while !in_call.load(Ordering::SeqCst) && !caller.is_finished() {
            std::thread::yield_now();
        }
        let _session = gate.open();
        seen.store(in_call.load(Ordering::SeqCst), Ordering::SeqCst);
        caller.join().unwrap();
        assert!(!opened_during_call.load(Ordering::SeqCst));
    }

    #[test]
    fn nested_quiet_calls_and_releases_inside_one_do_not_deadlock() {
        let gate = Arc::new(Gate::default());
        let freed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let got: Result<(), GpuError> = gate.quiet("outer", SHORT, || {
            gate.release(Counted(freed.clone()));
            gate.quiet("inner", SHORT, || Ok(()))
        });
        got.unwrap();
        assert_eq!(freed.load(Ordering::SeqCst), 1);
    }
}
