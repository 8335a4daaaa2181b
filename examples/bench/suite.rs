//! Running a subcommand: the GPU opened (or not), the families it names run, the table
//! printed and written.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use gtap::host::gpu_runtime::GpuRuntime;

use crate::cli::{
    Cli, Command, FibArgs, FloorplanArgs, GranularityArgs, GraphArgs, HeadlineArgs, KnapsackArgs,
    NqueensArgs, SortArgs, TreeArgs, UtsArgs,
};
use crate::cli::{EpaqProgram, GpuArgs};
use crate::device::{Want, open};
use crate::harness::Harness;
use crate::{
    batch, epaq, fib, floorplan, granularity, graph, knapsack, nqueens, resident, sort, table,
    tree, uts,
};

/// What every family works with.
pub struct Bench {
    /// The rows and how to measure.
    pub h: Harness,
    /// The GPU runtime, if there is one and it is wanted.
    pub rt: Option<GpuRuntime>,
    /// The GPU flags (EPAQ and block programs derive their configurations from them).
    pub gpu: GpuArgs,
}

/// Runs `cli`'s benchmark subcommand.
pub fn run(cli: Cli) -> ExitCode {
    let config = match cli.gpu.config() {
        Ok(c) => c,
        Err(e) => Cli::command().error(ErrorKind::ValueValidation, e).exit(),
    };
    let profile = cli.gpu.profile.clone();
    let want = Want {
        cpu_only: cli.common.cpu_only,
        required: cli.common.gpu_only || profile.is_some(),
        lab: config.needs_lab_kernels(),
        ptx: cli.common.ptx.clone(),
    };
    let rt = match open(&want, config) {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if !want.required {
        eprintln!("CPU: {} threads for rayon", rayon::current_num_threads());
    }
    let mut b = Bench {
        h: Harness::new(&cli.common, &cli.gpu.config_name, profile),
        rt,
        gpu: cli.gpu.clone(),
    };
    match &cli.command {
        Command::Fib(a) => fib::run(&mut b, a),
        Command::Nqueens(a) => nqueens::run(&mut b, a),
        Command::Sort(a) => sort::run(&mut b, a),
        Command::Tree(a) => tree::run(&mut b, a),
        Command::Uts(a) => uts::run(&mut b, a),
        Command::Epaq(a) => epaq::run(&mut b, &a.program),
        Command::Granularity(a) => granularity::run(&mut b, a),
        Command::Graph(a) => graph::run(&mut b, a),
        Command::Batch(a) => batch::run(&mut b, a),
        Command::Resident(a) => resident::run(&mut b, a),
        Command::Knapsack(a) => knapsack::run(&mut b, a),
        Command::Floorplan(a) => floorplan::run(&mut b, a),
        Command::Headline(a) => headline(&mut b, a),
        Command::All => all(&mut b),
        Command::Join(_) => unreachable!("join is run before the GPU is opened"),
    }
    if let Err(e) = table::write(&b.h.rows, cli.common.out.as_deref()) {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    if b.h.failures > 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// fib(40), nqueens(16), mergesort 1e7 and cilksort 1e8, with their CPU baselines.
fn headline(b: &mut Bench, a: &HeadlineArgs) {
    fib::run(b, &FibArgs::parse_from(["fib", "--n", "40"]));
    let cutoff = a.nqueens_cutoff.to_string();
    nqueens::run(
        b,
        &NqueensArgs::parse_from(["nqueens", "--n", "16", "--cutoff", &cutoff]),
    );
    sort::run(b, &SortArgs::parse_from(["sort"]));
}

/// Every family at its defaults.
fn all(b: &mut Bench) {
    fib::run(b, &FibArgs::parse_from(["fib"]));
    if b.rt.is_some() {
        epaq::run(b, &EpaqProgram::All);
    }
    nqueens::run(b, &NqueensArgs::parse_from(["nqueens"]));
    sort::run(b, &SortArgs::parse_from(["sort"]));
    tree::run(b, &TreeArgs::parse_from(["tree"]));
    uts::run(b, &UtsArgs::parse_from(["uts"]));
    granularity::run(b, &GranularityArgs::parse_from(["granularity"]));
    graph::run(b, &GraphArgs::parse_from(["graph"]));
    knapsack::run(b, &KnapsackArgs::parse_from(["knapsack"]));
    floorplan::run(b, &FloorplanArgs::parse_from(["floorplan"]));
}
