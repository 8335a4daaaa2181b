//! Layer 1: one wrapper per PTX instruction, nothing added.
//!
//! Each wrapper is named after the instruction it emits, `.` written as `_`
//! ([`atom::atom_acq_rel_gpu_add_u32`] is `atom.acq_rel.gpu.add.u32`), takes the PTX operands
//! in PTX order, and is `#[inline(always)]`, so a call leaves that one instruction in the
//! caller. The wrappers are `unsafe fn` exactly where the instruction has a precondition (a
//! valid address, warp or block convergence), each listed under `# Safety`; reading a
//! special register, a fence, a sleep or a trap has none and is safe.
//!
//! Conventions for the `asm!` blocks:
//! - `options(nostack)` everywhere (no wrapper touches the stack).
//! - Instructions that access or order memory keep `asm!`'s default memory clobber, so LLVM
//!   keeps every other memory access on its side of them; only instructions that neither
//!   access nor order memory (`shfl`, `vote`, `activemask`, `nanosleep`, special registers)
//!   say `nomem`, and only reads of registers that are fixed for the thread's life say
//!   `pure`.
//! - A predicate operand travels as a `u32` and becomes a `.pred` inside a `{ }` scope
//!   (`setp.ne.u32`), because Rust's nvptx `asm!` has no predicate register class.
//! - Memory instructions use generic addressing (no state space), which covers global and
//!   shared memory; the `.global`-only forms convert the address with `cvta.to.global`.
//!
//! Two groups are not inline PTX, on purpose: the index registers (`%tid`, `%ctaid`, ...)
//! come from `core::arch::nvptx`, so LLVM knows their ranges, and the block barriers from
//! LLVM's `convergent` barrier intrinsics, so LLVM never duplicates a `bar.sync` into
//! divergent branches (see [`barrier`]). Both print as the same PTX instructions.
//!
//! Layer 2 ([`super::ops`]) picks among these by scope and ordering type parameters; layer 3
//! ([`super::atomic`], [`super::warp`], ...) wraps them in types.

pub mod atom;
pub mod barrier;
pub(crate) mod doc;
pub mod fence;
pub mod ld_st;
pub mod smem;
pub mod sreg;
pub mod time;
pub mod warp;
