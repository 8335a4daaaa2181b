//! [`CpuResident`]: the CPU backend's resident session.
//!
//! A dispatcher thread owns a [`CpuRuntime`] of the session's own (made from the runtime's
//! configuration) and a channel of submitted roots. It takes every root waiting in the
//! channel (up to half the task records, the most one run's roots may hold with room left for
//! their children) and runs them as one batch ([`CpuRuntime::run_batch`]), delivers their
//! results, and takes the next. The worker threads are started per batch, so a root
//! submitted to an idle session waits for a thread start; a stream of submissions is run in
//! batches as large as what arrived during the previous one, which amortises that start.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use gtap_device::task::{Call, Program};

use super::{Completer, RootError, RootHandle, pair};
use crate::RuntimeError;
use crate::cpu::{CpuConfig, CpuError, CpuRuntime};

/// A root on its way to the dispatcher, with where its outcome goes. The root travels as its
/// arguments (a task's parameters are `Send`, which the program macro checks; its unstarted
/// frame's type need not be) and is made a call again by the dispatcher.
struct Item<P: Program, R> {
    args: P::Args,
    /// The call's task index, `borrows` and `gpu_root`, to rebuild it.
    index: u32,
    borrows: bool,
    gpu_root: bool,
    completer: Completer<R>,
}

impl<P: Program, R> Item<P, R> {
    fn new(call: Call<'static, P, R>, completer: Completer<R>) -> Self {
        let (index, borrows, gpu_root) = (call.task_index(), call.borrows(), call.gpu_root());
        Item {
            args: call.into_args(),
            index,
            borrows,
            gpu_root,
            completer,
        }
    }

    fn into_parts(self) -> (Call<'static, P, R>, Completer<R>) {
        // SAFETY: the arguments, index and flags are those of a `Call<'static, P, R>`
        // (`Item::new`): task `index` returns `R`, and the arguments borrow nothing shorter
        // than `'static`.
        let call = unsafe { Call::__from_args(self.args, self.index, self.borrows, self.gpu_root) };
        (call, self.completer)
    }
}

/// A resident session of the CPU backend: roots submitted from any thread run on the
/// session's workers while it lives (see the [module docs](super)).
///
/// ```ignore
/// let rt = gtap::host::cpu::CpuRuntime::new(gtap::host::cpu::CpuConfig::new().threads(4))?;
/// let session = rt.resident::<fib::Program, u64>()?;
/// let handles: Vec<_> = (0..100).map(|n| session.submit(fib::fib(n % 20))).collect();
/// for h in handles {
///     println!("{}", h.wait()?);
/// }
/// session.shutdown(); // every root above has its outcome
/// ```
pub struct CpuResident<P: Program, R> {
    /// `None` once shut down (closing the channel ends the dispatcher).
    tx: Option<Sender<Item<P, R>>>,
    dispatcher: Option<JoinHandle<()>>,
    /// The next root's submission number.
    next: AtomicU64,
    /// How long [`RootHandle::wait`] waits: the configuration's timeout.
    timeout: Option<Duration>,
}

impl CpuRuntime {
    /// Starts a resident session that runs roots of program `P` with result `R` on worker
    /// threads of its own, configured as this runtime is ([`CpuResident`]). This runtime
    /// stays usable meanwhile.
    pub fn resident<P: Program, R: Copy + Send + 'static>(
        &self,
    ) -> Result<CpuResident<P, R>, CpuError>
    where
        P::Args: Send,
    {
        CpuResident::start(self.config().clone())
    }
}

impl<P: Program, R: Copy + Send + 'static> CpuResident<P, R>
where
    P::Args: Send,
{
    fn start(config: CpuConfig) -> Result<Self, CpuError> {
        let timeout = config.deadline();
        let max_batch = (config.records_for::<P>() / 2).max(1) as usize;
        let rt = CpuRuntime::new(config)?;
        let (tx, rx) = mpsc::channel();
        let dispatcher = std::thread::Builder::new()
            .name("gtap-resident".into())
            .spawn(move || dispatch(rt, rx, max_batch))
            .map_err(|source| CpuError::ThreadSpawn { index: 0, source })?;
        Ok(CpuResident {
            tx: Some(tx),
            dispatcher: Some(dispatcher),
            next: AtomicU64::new(0),
            timeout,
        })
    }

    /// Submits `root` (a call of a task that borrows nothing, `'static`) and returns its
    /// handle at once; the root runs with the next batch. Callable from several threads.
    pub fn submit(&self, root: Call<'static, P, R>) -> RootHandle<R> {
        // Relaxed: a unique number is all that is needed.
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let (handle, completer) = pair(n, self.timeout);
        let item = Item::new(root, completer);
        if let Some(tx) = &self.tx {
            // A failed send (the dispatcher is gone, which only a bug in gtap can cause)
            // drops the item, and with it the completer, which reports the root as lost.
            let _ = tx.send(item);
        }
        handle
    }

    /// How many roots were submitted so far.
    pub fn submitted(&self) -> u64 {
        self.next.load(Ordering::Relaxed)
    }

    /// Stops taking roots, runs every root submitted so far to its end, and returns once
    /// each handle has its outcome. Also what dropping the session does.
    pub fn shutdown(mut self) {
        self.stop();
    }
}

impl<P: Program, R> CpuResident<P, R> {
    fn stop(&mut self) {
        // Closing the channel: the dispatcher runs what is queued, then ends.
        drop(self.tx.take());
        if let Some(d) = self.dispatcher.take() {
            // The dispatcher catches the runs' panics; a panic of its own has already made
            // the completers it held report their roots as lost.
            let _ = d.join();
        }
    }
}

impl<P: Program, R> Drop for CpuResident<P, R> {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The dispatcher's loop: a batch of what is waiting (at least one root), until the channel
/// is closed and empty.
fn dispatch<P: Program, R: Copy + Send + 'static>(
    mut rt: CpuRuntime,
    rx: Receiver<Item<P, R>>,
    max_batch: usize,
) {
    while let Ok(first) = rx.recv() {
        let mut items = vec![first];
        items.extend(rx.try_iter().take(max_batch - 1));
        run_items(&mut rt, items);
    }
}

/// Runs `items` as one batch and delivers every outcome.
fn run_items<P: Program, R: Copy + Send + 'static>(rt: &mut CpuRuntime, items: Vec<Item<P, R>>) {
    let (calls, completers): (Vec<_>, Vec<_>) = items.into_iter().map(Item::into_parts).unzip();
    // A panic here would be gtap's (task panics are errors of the run): the completers,
    // dropped, report their roots as lost, and the session goes on.
    let Ok(outcome) = panic::catch_unwind(AssertUnwindSafe(|| rt.run_batch(calls))) else {
        return;
    };
    match outcome {
        Ok((values, _)) => {
            for (c, v) in completers.into_iter().zip(values) {
                c.complete(Ok(v));
            }
        }
        Err(e) => fail_all(completers, e),
    }
}

/// A batch failed with `e`: its failing root (named by the error, or the only one) gets
/// [`RootError::Failed`], the others [`RootError::Aborted`].
fn fail_all<R>(completers: Vec<Completer<R>>, e: CpuError) {
    let (failed, e) = match e {
        CpuError::InRoot { root, source, .. } => (Some(root), *source),
        e if completers.len() == 1 => (Some(0), e),
        e => (None, e),
    };
    let source = Arc::new(RuntimeError::Cpu(e));
    let failed_root = failed.and_then(|i| completers.get(i)).map(Completer::root);
    for (i, c) in completers.into_iter().enumerate() {
        let root = c.root();
        let source = source.clone();
        c.complete(Err(RootError::ended(
            root,
            Some(i) == failed,
            failed_root,
            source,
        )));
    }
}
