//! [`DataError`]: why a `DeviceVec` could not be made, filled or read.

use crate::GpuError;

/// An error from [`DeviceVec`](super::DeviceVec).
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// A copy between the host and the GPU, or an allocation on the GPU, failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),

    /// Host memory for the elements could not be allocated.
    #[error(
        "could not allocate {bytes} bytes of host memory for a DeviceVec: make it smaller, or \
         free memory first"
    )]
    OutOfMemory {
        /// How much.
        bytes: usize,
    },

    /// A copy into or out of the vector was given a slice of another length.
    #[error(
        "the DeviceVec has {len} elements but the slice has {given}: copy a slice of exactly \
         its length (DeviceVec::len)"
    )]
    LengthMismatch {
        /// The vector's length.
        len: usize,
        /// The slice's length.
        given: usize,
    },

    /// A run that may have used this vector ended with a task that never returned
    /// (`CpuError::Stuck`, `GpuRunError::Stuck`), which may still read and write it.
    #[error(
        "a task of an earlier run has not returned and may still use this DeviceVec, so it can \
         no longer be read or written (its memory is leaked, not freed): end the process and \
         find the task that does not return"
    )]
    InUseByStuckRun,
}
