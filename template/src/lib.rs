//! The task program. This library is compiled for the GPU too, which has no standard
//! library: it is `no_std`, and code that needs `std` goes behind
//! `#[cfg(not(target_arch = "nvptx64"))]`.

#![no_std]
// Tasks are lowered to coroutines; the GPU kernels use the PTX calling convention.
#![feature(coroutines, coroutine_trait, type_alias_impl_trait)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx))]

#[gtap::program]
pub mod fib {
    /// The n-th Fibonacci number, one task per call.
    #[gtap::task]
    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            return n as u64;
        }
        // Two child tasks, which may run anywhere; `a` and `b` are their result handles.
        let a = spawn!(fib(n - 1));
        let b = spawn!(fib(n - 2));
        // Wait for both; only then can their results be read.
        taskwait!();
        a.get() + b.get()
    }
}
