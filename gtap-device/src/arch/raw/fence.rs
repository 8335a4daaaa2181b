//! `fence`: memory fences, one wrapper per semantic and scope.
//!
//! A fence has no operand and no precondition, so these are safe functions. Each keeps the
//! `asm!` default of "may read and write any memory": the compiler moves no memory access
//! across it, which a fence is for.
//!
//! PTX fences are *cumulative* and synchronise through the accesses around them: a release
//! pattern is `fence; st.relaxed flag`, an acquire pattern `ld.relaxed flag; fence`, and the
//! two fences synchronise when the load reads the store's value and both threads are in
//! each other's scope. `fence.acq_rel` is enough for that message-passing pattern;
//! `fence.sc` adds a single total order of all `.sc` fences in scope, which only patterns
//! where each thread stores then loads a *different* location need (store buffering).
//!
//! Requires `sm_70` and PTX ISA 6.0.

use core::arch::asm;

macro_rules! fence_one {
    // Input: `acq_rel gpu "..."`
    // Output: `pub fn fence_acq_rel_gpu()`
    ($sem:ident $scope:ident $what:literal $scope_what:literal) => {
        #[doc = concat!("`fence.", stringify!($sem), ".", stringify!($scope), "`: ", $what)]
        #[doc = ""]
        #[doc = concat!("Scope: ", $scope_what)]
        #[inline(always)]
        pub fn ${concat(fence_, $sem, _, $scope)}() {
            // SAFETY: a fence takes no operand and accesses no memory itself; it only orders
            // this thread's accesses.
            unsafe {
                asm!(
                    concat!("fence.", stringify!($sem), ".", stringify!($scope), ";"),
                    options(nostack)
                );
            }
        }
    };
}

macro_rules! fence_all {
    ($([$sem:ident $what:literal])*) => {
        $(
            fence_one!($sem cta $what
                "the threads of this block; what it orders is not guaranteed to be seen in \
                 that order by threads of other blocks.");
            fence_one!($sem gpu $what
                "every thread of the program on this GPU (not the host or peer GPUs).");
            fence_one!($sem sys $what
                "every thread of the program, on this GPU, peer GPUs and the host.");
        )*
    };
}

fence_all! {
    [acq_rel
        "a lightweight fence with acquire and release semantics. Earlier memory operations \
         of this thread are performed before later ones as observed by threads in scope; \
         paired with another fence (or a release/acquire access) through a location both \
         access, it makes everything before one side happen before everything after the \
         other."]
    [sc
        "a sequentially consistent fence: an `acq_rel` fence that is also part of one total \
         order of all `fence.sc` in scope. Slower; needed only for store-buffering patterns."]
}
