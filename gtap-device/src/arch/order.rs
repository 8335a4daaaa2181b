//! Memory scopes and orderings as types (layer 2's vocabulary).
//!
//! Every PTX memory operation that synchronises names two things: a *scope* (which threads
//! must observe the effect: `.cta`, `.gpu` or `.sys`) and a *semantic* (`.relaxed`,
//! `.acquire`, `.release`, `.acq_rel`; fences take `.acq_rel` or `.sc`). Both are spelled into
//! the instruction, so both must be known when the code is compiled.
//!
//! Here each scope and each ordering is a zero-sized marker type, and operations take them
//! as type parameters: `fetch_add::<Gpu, AcqRel>(p, 1)`. Monomorphisation then leaves exactly
//! one PTX instruction with exactly those qualifiers (layer 2 matches on the associated
//! constants [`Scope::KIND`] and [`Ordering::KIND`], which are constants in every instance,
//! so the match folds away; `tests/tests/ptx_text.rs` checks the PTX of every combination).
//! Combinations that PTX does not have cannot be written: a load takes only a
//! [`LoadOrdering`] (`Relaxed`, `Acquire`), a store only a [`StoreOrdering`] (`Relaxed`,
//! `Release`), a fence only a [`FenceOrdering`] (`AcqRel`, `SeqCst`).
//!
//! A runtime enum argument (as in `core::sync::atomic`) would read more familiarly, but a
//! value that is not constant after inlining would silently become a switch over every
//! variant; a type parameter cannot.
//!
//! # Choosing a scope
//! A scope is the set of threads that are guaranteed to see the operation as atomic and to
//! be synchronised by it. Two atomics on one address are atomic *with respect to each other*
//! only if each one's scope includes the other thread: a `.cta` atomic is not atomic against
//! a thread of another block. Narrower is cheaper: `.cta` can complete in the SM's L1,
//! `.gpu` goes to L2, `.sys` must also order against the host and peer GPUs over PCIe or
//! NVLink.
//!
//! These types exist on every target (host code names them in shared data structures); only
//! the operations that use them are device code.

mod sealed {
    pub trait Sealed {}
}

/// Which scope a [`Scope`] marker stands for (for `match`es; see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScopeKind {
    /// `.cta`: the threads of one thread block.
    Cta,
    /// `.gpu`: every thread of the current program on this GPU.
    Gpu,
    /// `.sys`: every thread of the program, on all GPUs and on the host.
    Sys,
}

/// Which semantic an [`Ordering`] or [`FenceOrdering`] marker stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderingKind {
    /// `.relaxed`: atomic, but orders nothing else.
    Relaxed,
    /// `.acquire`: later memory operations of this thread stay after it.
    Acquire,
    /// `.release`: earlier memory operations of this thread stay before it.
    Release,
    /// `.acq_rel`: both.
    AcqRel,
    /// `.sc` (fences only): sequentially consistent.
    SeqCst,
}

/// A memory scope: [`Cta`], [`Gpu`] or [`Sys`]. Sealed.
pub trait Scope: sealed::Sealed + Copy + Send + Sync + 'static {
    /// Which scope this is.
    const KIND: ScopeKind;
    /// The PTX qualifier, with its dot: `".gpu"`.
    const PTX: &'static str;
}

/// The semantic of an atomic read-modify-write, load or store: [`Relaxed`], [`Acquire`],
/// [`Release`] or [`AcqRel`]. Sealed. See [`LoadOrdering`], [`StoreOrdering`],
/// [`RmwOrdering`] for which operation takes which.
pub trait Ordering: sealed::Sealed + Copy + Send + Sync + 'static {
    /// Which semantic this is.
    const KIND: OrderingKind;
    /// The PTX qualifier, with its dot: `".acq_rel"`.
    const PTX: &'static str;
}

/// Orderings a load may have: [`Relaxed`] and [`Acquire`] (`ld.relaxed`, `ld.acquire`).
pub trait LoadOrdering: Ordering {}
/// Orderings a store may have: [`Relaxed`] and [`Release`] (`st.relaxed`, `st.release`).
pub trait StoreOrdering: Ordering {}
/// Orderings a read-modify-write (`atom`) may have: all four.
pub trait RmwOrdering: Ordering {}

/// Orderings a fence may have: [`AcqRel`] (`fence.acq_rel`) and [`SeqCst`] (`fence.sc`).
/// Sealed.
pub trait FenceOrdering: sealed::Sealed + Copy + Send + Sync + 'static {
    /// Which semantic this is.
    const KIND: OrderingKind;
    /// The PTX qualifier, with its dot: `".sc"`.
    const PTX: &'static str;
}

macro_rules! marker {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
    };
}

marker!(
    /// `.cta` scope: the threads of the calling thread's block. Enough when every thread that
    /// touches the location is in one block (shared memory always; global memory used as a
    /// block-private structure).
    Cta
);
marker!(
    /// `.gpu` scope: all threads of the calling program on this GPU. The scope of
    /// cross-block protocols (work-stealing deques, grid-wide counters, flags).
    Gpu
);
marker!(
    /// `.sys` scope: all threads of the program, including the host and peer GPUs (through
    /// mapped or managed memory). Only needed when the CPU watches or writes the location
    /// while the kernel runs.
    Sys
);

impl Scope for Cta {
    const KIND: ScopeKind = ScopeKind::Cta;
    const PTX: &'static str = ".cta";
}
impl Scope for Gpu {
    const KIND: ScopeKind = ScopeKind::Gpu;
    const PTX: &'static str = ".gpu";
}
impl Scope for Sys {
    const KIND: ScopeKind = ScopeKind::Sys;
    const PTX: &'static str = ".sys";
}

marker!(
    /// `.relaxed`: the operation is atomic (no torn values, one total order per location
    /// within the scope) and orders nothing else.
    Relaxed
);
marker!(
    /// `.acquire`: memory operations that follow in program order are not performed before
    /// this one; pairs with a release (or a fence) whose value it reads.
    Acquire
);
marker!(
    /// `.release`: memory operations that precede in program order are performed before this
    /// one; pairs with an acquire that reads the value it writes.
    Release
);
marker!(
    /// `.acq_rel`: both [`Acquire`] and [`Release`].
    AcqRel
);
marker!(
    /// `.sc` (fences only): an [`AcqRel`] fence that is also part of a single total order of
    /// all `.sc` fences in scope (needed for store-buffering patterns such as Dekker's).
    SeqCst
);

impl Ordering for Relaxed {
    const KIND: OrderingKind = OrderingKind::Relaxed;
    const PTX: &'static str = ".relaxed";
}
impl Ordering for Acquire {
    const KIND: OrderingKind = OrderingKind::Acquire;
    const PTX: &'static str = ".acquire";
}
impl Ordering for Release {
    const KIND: OrderingKind = OrderingKind::Release;
    const PTX: &'static str = ".release";
}
impl Ordering for AcqRel {
    const KIND: OrderingKind = OrderingKind::AcqRel;
    const PTX: &'static str = ".acq_rel";
}

impl LoadOrdering for Relaxed {}
impl LoadOrdering for Acquire {}
impl StoreOrdering for Relaxed {}
impl StoreOrdering for Release {}
impl RmwOrdering for Relaxed {}
impl RmwOrdering for Acquire {}
impl RmwOrdering for Release {}
impl RmwOrdering for AcqRel {}

impl FenceOrdering for AcqRel {
    const KIND: OrderingKind = OrderingKind::AcqRel;
    const PTX: &'static str = ".acq_rel";
}
impl FenceOrdering for SeqCst {
    const KIND: OrderingKind = OrderingKind::SeqCst;
    const PTX: &'static str = ".sc";
}

impl OrderingKind {
    /// The same ordering in `core::sync::atomic` terms (host fallback only).
    #[cfg(not(target_arch = "nvptx64"))]
    pub(crate) const fn to_core(self) -> core::sync::atomic::Ordering {
        use core::sync::atomic::Ordering as O;
        match self {
            OrderingKind::Relaxed => O::Relaxed,
            OrderingKind::Acquire => O::Acquire,
            OrderingKind::Release => O::Release,
            OrderingKind::AcqRel => O::AcqRel,
            OrderingKind::SeqCst => O::SeqCst,
        }
    }

    /// The ordering a failed compare-and-swap has, in `core::sync::atomic` terms: the load
    /// part of this one (host fallback only; PTX's `atom.cas` has a single semantic).
    #[cfg(not(target_arch = "nvptx64"))]
    pub(crate) const fn to_core_failure(self) -> core::sync::atomic::Ordering {
        use core::sync::atomic::Ordering as O;
        match self {
            OrderingKind::Relaxed | OrderingKind::Release => O::Relaxed,
            OrderingKind::Acquire | OrderingKind::AcqRel => O::Acquire,
            OrderingKind::SeqCst => O::SeqCst,
        }
    }
}
