//! fib on gtap's CPU backend: split tasks (first budget 4, the GPU's default) against the
//! per-spawn policy (split budget 0) and the CPU backend's default, 1 and 2 threads.
use gtap::CpuConfig;
use gtap::host::cpu::CpuRuntime;
use gtap_examples::fib;
use std::time::Instant;

fn main() {
    println!("threads,config,n,median_ms,tasks");
    for threads in [1usize, 2] {
        for (name, cfg) in [
            ("split 4", CpuConfig::new().threads(threads).split_budget(4)),
            ("split 0", CpuConfig::new().threads(threads).split_budget(0)),
            ("default", CpuConfig::new().threads(threads)),
        ] {
            let mut rt = CpuRuntime::new(cfg).unwrap();
            for n in [20u32, 25, 30, 34] {
                let (_, stats) = rt.run(fib::program::fib(n)).unwrap();
                let mut t = Vec::new();
                for _ in 0..7 {
                    let s = Instant::now();
                    let (v, _) = rt.run(fib::program::fib(n)).unwrap();
                    t.push(s.elapsed().as_secs_f64() * 1e3);
                    assert_eq!(v, fib::reference(n));
                }
                t.sort_by(|a, b| a.partial_cmp(b).unwrap());
                println!("{threads},{name},{n},{:.3},{}", t[3], stats.tasks_executed);
            }
        }
    }
}
