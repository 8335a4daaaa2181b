//! The benchmark harness: the GTaP paper's programs on the GPU, and CPU baselines (sequential
//! Rust and rayon on every core), timed the same way and checked on every run.
//!
//! ```text
//! cargo run --release -p gtap-examples --example bench -- [FLAGS] <SUBCOMMAND> [ITS FLAGS]
//! bench fib --n 30,35,40
//! bench nqueens --n 16 --cutoff 7,8
//! bench sort --algo cilksort --n 1e8
//! bench uts --tree t1l,t3l
//! bench knapsack --n 40,44 --correlation strong
//! bench floorplan --cells 12,14
//! bench --queue-order most-generated --top-up 2 --resume-inline epaq fib --cutoff 10
//! bench headline --out headline.csv
//! bench all --gpu-only
//! bench join --gtap-csv a.csv,b.csv --anchor-csv anchor.csv --out-md side-by-side.md
//! ```
//!
//! `--help` lists every subcommand and flag (and `bench SUBCOMMAND --help` its own). The GPU
//! configuration flags (`--grid`, `--block`, `--max-registers`, `--queue-order`, ...) and the
//! measurement flags (`--runs`, `--out`, `--gpu-only`, `--cpu-only`, `--profile`) may stand
//! before or after the subcommand.
//!
//! Every row is one warm-up run and then `--runs` measured runs (default 10). Each row has
//! a main time and an end-to-end time. On the GPU, the main time is the kernel time from CUDA
//! events around the launch; the end-to-end time is the wall clock from the host call to the
//! result in host memory: the runtime's per-run reset of its queues and counters and the
//! argument upload, the launch, the wait (the host polls for completion every 200 us), the
//! read-back of the control block, statistics and result, and the copies the program needs
//! per run (the sorts upload their input and download their output; `graph` says what it
//! copies). Loading the PTX and allocating device buffers happen once, before the measured
//! runs, and are not in it. On the CPU both are the wall clock around the call; inputs are
//! in host memory already (a sort's fresh copy of its input is made outside the timing).
//!
//! The CPU baselines are named for what they run in the `backend` and `variant` columns:
//! sequential code with a good leaf (`sort_unstable` below a sort's cutoff), rayon with the
//! GPU's algorithm at a cutoff that suits a CPU beside the one the GPU uses, and what a user
//! would reach for (`sort_unstable`, `par_sort_unstable`). The families' files say which.
//!
//! Files: `bench/cli.rs` (the command line), `harness.rs` (measuring), `table.rs` and
//! `csv.rs` (output), `device.rs` (opening the GPU, copies), a file per family (`fib.rs`,
//! `nqueens.rs`, `sort.rs` with `cpu_sort.rs`, `tree.rs`, `uts.rs`, `epaq.rs`, `granularity.rs`,
//! `graph.rs` with `blocks.rs`, `knapsack.rs`, `floorplan.rs`), `suite.rs` (running a subcommand), `join.rs` (the
//! side-by-side table of `scripts/side-by-side.sh`).

use std::process::ExitCode;

use clap::Parser;

#[path = "bench/batch.rs"]
mod batch;
#[path = "bench/blocks.rs"]
mod blocks;
#[path = "bench/cli.rs"]
mod cli;
#[path = "bench/cpu_sort.rs"]
mod cpu_sort;
#[path = "bench/csv.rs"]
mod csv;
#[path = "bench/device.rs"]
mod device;
#[path = "bench/epaq.rs"]
mod epaq;
#[path = "bench/fib.rs"]
mod fib;
#[path = "bench/floorplan.rs"]
mod floorplan;
#[path = "bench/granularity.rs"]
mod granularity;
#[path = "bench/graph.rs"]
mod graph;
#[path = "bench/harness.rs"]
mod harness;
#[path = "bench/join.rs"]
mod join;
#[path = "bench/knapsack.rs"]
mod knapsack;
#[path = "bench/nqueens.rs"]
mod nqueens;
#[path = "bench/resident.rs"]
mod resident;
#[path = "bench/sort.rs"]
mod sort;
#[path = "bench/suite.rs"]
mod suite;
#[path = "bench/table.rs"]
mod table;
#[path = "bench/tree.rs"]
mod tree;
#[path = "bench/uts.rs"]
mod uts;

use suite::Bench;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    if let cli::Command::Join(a) = &cli.command {
        return join::run(a);
    }
    suite::run(cli)
}
