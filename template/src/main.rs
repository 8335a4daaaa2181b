//! Runs the task program: on the GPU when there is one, otherwise on the CPU's cores.
//! `GTAP_BACKEND=cpu` (or `gpu`) chooses without changing code.

use std::process::ExitCode;

fn main() -> ExitCode {
    let n: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 30,
        Some(Ok(n)) if n <= 50 => n,
        Some(_) => {
            eprintln!("usage: my-tasks [N (0..=50, default 30)]");
            return ExitCode::FAILURE;
        }
    };
    match run(n) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(n: u32) -> Result<(), gtap::RuntimeError> {
    // The PTX that build.rs built from src/lib.rs.
    let mut rt = gtap::Runtime::new(gtap::include_ptx!())?;
    println!("running on {}", rt.selection());
    let (value, stats) = rt.run(my_tasks::fib::fib(n))?;
    println!("fib({n}) = {value}");
    println!("{stats}");
    // The same program as a plain recursive function (each task's sequential version).
    assert_eq!(value, my_tasks::fib::seq::fib(n));
    Ok(())
}
