//! [`Resident`]: a resident session on the backend a [`Runtime`](super::Runtime) runs on.

use std::marker::PhantomData;

use gtap_device::task::{Call, Program};

use super::{Backend, Runtime, RuntimeError};
use crate::gpu_runtime::GpuResident;
use crate::resident::{CpuResident, RootHandle};

/// A resident session of a [`Runtime`]: it stays up and takes root tasks one at a time, from
/// any thread, while earlier ones run; each [`submit`](Resident::submit) returns a
/// [`RootHandle`] to poll, wait for or `.await`. See [`crate::resident`] for how each
/// backend runs the roots, what a failing root does to the others, and shutting down.
///
/// It borrows its runtime (`'rt`): no other run uses the runtime while the session lives.
///
/// ```ignore
/// let mut rt = gtap::Runtime::new(gtap::include_ptx!())?;
/// let session = rt.resident::<nqueens::Program, u64>()?;
/// let handles: Vec<_> = (4..12).map(|n| session.submit(nqueens::nqueens(n, 0, 0, 0, 0, 3))).collect();
/// for h in &handles {
///     println!("root {}: {}", h.root(), h.wait()?);
/// }
/// session.shutdown(); // waits for every root submitted
/// ```
pub struct Resident<'rt, P: Program, R> {
    inner: Inner<'rt, P, R>,
    _runtime: PhantomData<&'rt mut Runtime>,
}

enum Inner<'rt, P: Program, R> {
    Gpu(GpuResident<'rt, P, R>),
    Cpu(CpuResident<P, R>),
}

impl Runtime {
    /// Starts a resident session for roots of program `P` with result `R` (e.g.
    /// `rt.resident::<fib::Program, u64>()`; [`Resident`]). The roots are calls of `P`'s
    /// tasks that borrow nothing (`'static`).
    pub fn resident<P: Program, R: Copy + Send + 'static>(
        &mut self,
    ) -> Result<Resident<'_, P, R>, RuntimeError>
    where
        P::Args: Send,
    {
        let inner = match self.backend() {
            Backend::Gpu => Inner::Gpu(self.as_gpu_mut().expect("a GPU runtime").resident()?),
            Backend::Cpu => Inner::Cpu(self.as_cpu().expect("a CPU runtime").resident()?),
        };
        Ok(Resident {
            inner,
            _runtime: PhantomData,
        })
    }
}

impl<P: Program, R: Copy + Send + 'static> Resident<'_, P, R>
where
    P::Args: Send,
{
    /// Submits `root` and returns its handle without waiting for it to run.
    pub fn submit(&self, root: Call<'static, P, R>) -> RootHandle<R> {
        match &self.inner {
            Inner::Gpu(s) => s.submit(root),
            Inner::Cpu(s) => s.submit(root),
        }
    }

    /// How many roots were submitted so far.
    pub fn submitted(&self) -> u64 {
        match &self.inner {
            Inner::Gpu(s) => s.submitted(),
            Inner::Cpu(s) => s.submitted(),
        }
    }

    /// Stops taking roots and returns once every submitted root has its outcome (also what
    /// dropping the session does). On the GPU, the error that ended the kernel early, if one
    /// did (the roots it ended have it on their handles too).
    pub fn shutdown(self) -> Result<(), RuntimeError> {
        match self.inner {
            Inner::Gpu(s) => Ok(s.shutdown()?),
            Inner::Cpu(s) => {
                s.shutdown();
                Ok(())
            }
        }
    }
}
