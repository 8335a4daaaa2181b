use std::time::Instant;
fn main() {
    let n: u32 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(38);
    let mut best = f64::MAX;
    for _ in 0..7 {
        let t = Instant::now();
        let v = gtap_examples::fib::program::seq::fib(std::hint::black_box(n));
        let ms = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(v, gtap_examples::fib::reference(n));
        best = best.min(ms);
    }
    let mut bq = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let v = gtap_examples::nqueens::program::seq::nqueens(14, 0, 0, 0, 0, 14);
        bq = bq.min(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(v, gtap_examples::nqueens::KNOWN[14]);
    }
    println!("seq::fib({n}) best of 7: {best:.1} ms; seq::nqueens(14) no cutoff best of 3: {bq:.1} ms");
}
