//! Data on the host side: [`DeviceVec`], an array in the memory of the runtime that runs
//! the tasks, whose views ([`View`](gtap_device::data::View),
//! [`ViewMut`](gtap_device::data::ViewMut), [`AtomicView`](gtap_device::data::AtomicView))
//! are task arguments. The design (why views borrow, and what keeps a split array sound
//! across a join) is in [`gtap_device::data`].
//!
//! | file | what |
//! |---|---|
//! | `device_vec.rs` | [`DeviceVec`]: make, copy in and out, view |
//! | `pinned_vec.rs` | [`PinnedVec`]: page-locked host memory, which a GPU copies at the bus's speed |
//! | `storage.rs` | [`Memory`] and [`HasMemory`]: host or GPU memory, whichever the runtime reads |
//! | `poison.rs` | vectors that a stuck run may still use refuse access and leak |
//! | `error.rs` | [`DataError`] |

mod device_vec;
mod error;
mod pinned_vec;
mod poison;
mod storage;

pub use device_vec::DeviceVec;
pub use error::DataError;
pub use pinned_vec::PinnedVec;
pub(crate) use poison::note_stuck;
pub use storage::{HasMemory, Memory};
