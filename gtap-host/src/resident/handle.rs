//! [`RootHandle`]: a submitted root's result, to poll, wait for or `.await`; and `Completer`,
//! the session's side, which delivers it exactly once.
//!
//! The two share one small state behind a mutex: the outcome once there is one, and the
//! waker of the last `poll` of the handle as a future. The session completes the root by
//! storing the outcome, waking the waker and notifying a condition variable (for
//! [`RootHandle::wait`]). The handle and the completer are independent owners of the state:
//! a dropped handle leaves the completer a place to deliver to (the result is then
//! discarded), and a completer dropped without delivering (the session's thread ended
//! abnormally) delivers [`RootError::Lost`] instead, so that no handle waits forever.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use super::RootError;

/// What a handle and its completer share.
struct Shared<R> {
    state: Mutex<State<R>>,
    /// Notified when the outcome is stored.
    done: Condvar,
}

struct State<R> {
    outcome: Option<Result<R, RootError>>,
    /// The waker of the handle's last poll as a future that found no outcome.
    waker: Option<Waker>,
}

impl<R> Shared<R> {
    fn lock(&self) -> MutexGuard<'_, State<R>> {
        // A panic while the lock is held leaves the state whole (each critical section is a
        // few field writes), so a poisoned lock is used as it is.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A handle and its completer for root `root`, whose [`RootHandle::wait`] gives up after
/// `timeout` (`None`: never).
pub(crate) fn pair<R>(root: u64, timeout: Option<Duration>) -> (RootHandle<R>, Completer<R>) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            outcome: None,
            waker: None,
        }),
        done: Condvar::new(),
    });
    (
        RootHandle {
            shared: shared.clone(),
            root,
            timeout,
        },
        Completer {
            shared: Some(shared),
            root,
        },
    )
}

/// The result of a root submitted to a resident session (`Resident::submit`), once the root
/// has completed.
///
/// Non-blocking: [`RootHandle::try_result`], [`RootHandle::is_done`]. Blocking:
/// [`RootHandle::wait`] (bounded by the runtime's timeout). Asynchronous: the handle is a
/// [`Future`] whose output is the same `Result`; the session wakes it when the root
/// completes, so it works under tokio or any other executor. Dropping a handle does not
/// cancel its root; the root runs to its end and its result is discarded.
///
/// ```ignore
/// let session = rt.resident::<fib::Program, u64>()?;
/// let h = session.submit(fib::fib(25));
/// assert_eq!(h.wait()?, 75_025);
/// let value = session.submit(fib::fib(20)).await?; // in an async fn
/// ```
#[must_use = "a handle is how a root's result or error is seen; dropping it discards both"]
pub struct RootHandle<R> {
    shared: Arc<Shared<R>>,
    root: u64,
    timeout: Option<Duration>,
}

impl<R: Copy> RootHandle<R> {
    /// The root's submission number in its session (0 for the first).
    pub fn root(&self) -> u64 {
        self.root
    }

    /// Whether the root has an outcome (a result or an error) yet. Never blocks.
    pub fn is_done(&self) -> bool {
        self.shared.lock().outcome.is_some()
    }

    /// The root's outcome if it has one, `None` while it runs. Never blocks; may be asked
    /// again (the outcome stays).
    pub fn try_result(&self) -> Option<Result<R, RootError>> {
        self.shared.lock().outcome.clone()
    }

    /// Blocks until the root has an outcome, for at most the runtime's timeout: then
    /// [`RootError::TimedOut`] (the root still runs; wait again to keep waiting).
    pub fn wait(&self) -> Result<R, RootError> {
        match self.timeout {
            Some(t) => self.wait_timeout(t),
            None => {
                let mut state = self.shared.lock();
                loop {
                    if let Some(outcome) = &state.outcome {
                        return outcome.clone();
                    }
                    state = self
                        .shared
                        .done
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            }
        }
    }

    /// Blocks until the root has an outcome, for at most `timeout`.
    pub fn wait_timeout(&self, timeout: Duration) -> Result<R, RootError> {
        let deadline = Instant::now().checked_add(timeout);
        let mut state = self.shared.lock();
        loop {
            if let Some(outcome) = &state.outcome {
                return outcome.clone();
            }
            let left = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()),
                None => Duration::MAX,
            };
            if left.is_zero() {
                return Err(RootError::TimedOut {
                    root: self.root,
                    after: timeout,
                });
            }
            state = self
                .shared
                .done
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

impl<R: Copy> Future for RootHandle<R> {
    type Output = Result<R, RootError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut state = self.shared.lock();
        match &state.outcome {
            Some(outcome) => Poll::Ready(outcome.clone()),
            None => {
                // Under the lock: a completion after this stores its outcome after the waker
                // is here, and wakes it.
                match &mut state.waker {
                    Some(w) if w.will_wake(cx.waker()) => {}
                    slot => *slot = Some(cx.waker().clone()),
                }
                Poll::Pending
            }
        }
    }
}

impl<R> std::fmt::Debug for RootHandle<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RootHandle")
            .field("root", &self.root)
            .field("done", &self.shared.lock().outcome.is_some())
            .finish()
    }
}

/// The session's side of a [`RootHandle`]: delivers the root's outcome once.
pub(crate) struct Completer<R> {
    /// `None` once delivered.
    shared: Option<Arc<Shared<R>>>,
    root: u64,
}

impl<R> Completer<R> {
    /// The root's submission number.
    pub(crate) fn root(&self) -> u64 {
        self.root
    }

    /// Delivers `outcome` to the handle (if it still exists) and wakes whoever waits.
    pub(crate) fn complete(mut self, outcome: Result<R, RootError>) {
        self.deliver(outcome);
    }

    fn deliver(&mut self, outcome: Result<R, RootError>) {
        let Some(shared) = self.shared.take() else {
            return;
        };
        let waker = {
            let mut state = shared.lock();
            state.outcome = Some(outcome);
            state.waker.take()
        };
        shared.done.notify_all();
        // Outside the lock: a waker may run code that polls the handle at once.
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl<R> Drop for Completer<R> {
    fn drop(&mut self) {
        let root = self.root;
        self.deliver(Err(RootError::Lost { root }));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Wake;

    use super::*;

    struct CountWakes(AtomicUsize);
    impl Wake for CountWakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_handle_sees_its_outcome_once_delivered_and_keeps_it() {
        let (h, c) = pair::<u64>(7, Some(Duration::from_millis(10)));
        assert_eq!(h.root(), 7);
        assert!(!h.is_done());
        assert!(h.try_result().is_none());
        assert!(matches!(h.wait(), Err(RootError::TimedOut { root: 7, .. })));
        c.complete(Ok(42));
        assert!(h.is_done());
        assert_eq!(h.try_result().unwrap().unwrap(), 42);
        assert_eq!(h.wait().unwrap(), 42);
        assert_eq!(h.wait().unwrap(), 42, "asked again");
    }

    #[test]
    fn the_future_is_woken_by_the_completion() {
        let (mut h, c) = pair::<u32>(0, None);
        let wakes = Arc::new(CountWakes(AtomicUsize::new(0)));
        let waker = Waker::from(wakes.clone());
        let mut cx = Context::from_waker(&waker);
        assert!(Pin::new(&mut h).poll(&mut cx).is_pending());
        assert!(Pin::new(&mut h).poll(&mut cx).is_pending());
        assert_eq!(wakes.0.load(Ordering::SeqCst), 0);
        let t = std::thread::spawn(move || c.complete(Ok(5)));
        t.join().unwrap();
        assert_eq!(wakes.0.load(Ordering::SeqCst), 1);
        match Pin::new(&mut h).poll(&mut cx) {
            Poll::Ready(Ok(5)) => {}
            other => panic!("expected Ready(Ok(5)), got {other:?}"),
        }
    }

    #[test]
    fn a_dropped_handle_or_a_dropped_completer_loses_nothing() {
        let (h, c) = pair::<u8>(3, None);
        drop(h);
        c.complete(Ok(1)); // delivered to nobody, no panic
        let (h, c) = pair::<u8>(4, None);
        drop(c);
        assert!(matches!(h.wait(), Err(RootError::Lost { root: 4 })));
    }
}
