//! Running one test of the current test binary again, alone, in a child process with a
//! deadline.
//!
//! Three kinds of GPU test need a process of their own:
//! - a test that makes a kernel fault on purpose ([`Gpu::for_fault_test`]): after a fault CUDA
//!   is unusable in its process, so it would fail every GPU test after it;
//! - a regression test of a hang ([`Gpu::for_hang_test`]): if the hang comes back, the child is
//!   killed at the deadline and the test fails, where in-process it would hang the binary;
//! - a test of a kernel stuck inside a task ([`Gpu::for_stuck_test`]): such a kernel keeps the
//!   GPU busy until its process ends, and a normal exit waits for it, so the child ends itself
//!   with [`end_stuck_child`] (an abort) once it has checked what it wanted.
//!
//! The parent reruns the binary as `<binary> <test> --exact --include-ignored --nocapture
//! --test-threads=1`, which both libtest and the GPU test harness (`harness`) understand,
//! with `GTAP_TEST_CHILD=1` in its environment; there the same call returns the GPU.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::gpu::Gpu;

/// Marks the child process that these functions start.
const CHILD_ENV: &str = "GTAP_TEST_CHILD";

/// What a stuck-test child prints just before it aborts: the parent's sign that every check
/// before the abort passed.
const STUCK_DONE: &str = "gtap stuck test: checks passed, ending the process";

/// How long a fault test's child may take: a fault ends a kernel at once, so only a hang
/// takes longer.
const FAULT_DEADLINE: Duration = Duration::from_secs(300);

/// How the child of a test must end to pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// It exits with success, like any passing test.
    Passes,
    /// It prints [`STUCK_DONE`] and aborts ([`end_stuck_child`]).
    Aborts,
}

/// How the child ended, as far as the verdict needs it.
#[derive(Debug)]
struct Outcome {
    /// `None`: still running at the deadline, and killed.
    exited_ok: Option<bool>,
    stdout: String,
}

impl Gpu {
    /// For a test that makes a kernel fault on purpose: reruns test `test` (its name as
    /// `<test binary> --list` prints it) alone in a child process, and returns `Some` only
    /// there.
    ///
    /// In the test's own process it returns `None` after the child passed, and panics, with
    /// the child's output, if the child failed, ran no test or did not finish within five
    /// minutes. Where there is no GPU it skips like [`Gpu::for_tests`].
    pub fn for_fault_test(test: &str) -> Option<Gpu> {
        in_child(test, FAULT_DEADLINE, Ending::Passes)
    }

    /// For a regression test of a hang: like [`Gpu::for_fault_test`], with the child killed
    /// and the test failed when it has not finished after `deadline`.
    pub fn for_hang_test(test: &str, deadline: Duration) -> Option<Gpu> {
        in_child(test, deadline, Ending::Passes)
    }

    /// For a test of a kernel that never ends (a task stuck in its own loop): like
    /// [`Gpu::for_hang_test`], but the child must end with [`end_stuck_child`] after its
    /// checks, since a normal exit would wait for the kernel forever.
    pub fn for_stuck_test(test: &str, deadline: Duration) -> Option<Gpu> {
        in_child(test, deadline, Ending::Aborts)
    }
}

/// Ends the child process of a [`Gpu::for_stuck_test`] test after its checks passed: prints
/// the sign the parent looks for, then aborts. An abort ends the process without the exit
/// handlers, one of which (the CUDA driver's) would wait for the stuck kernel; the operating
/// system then takes the GPU back from the process.
pub fn end_stuck_child() -> ! {
    println!("{STUCK_DONE}");
    let _ = std::io::stdout().flush();
    std::process::abort()
}

/// The parent's side of the three functions above, or the GPU in the child.
fn in_child(test: &str, deadline: Duration, ending: Ending) -> Option<Gpu> {
    if std::env::var_os(CHILD_ENV).is_some() {
        return Gpu::for_tests();
    }
    drop(Gpu::for_tests()?);
    let exe = std::env::current_exe().expect("the path of the running test binary");
    let child = Command::new(&exe)
        .args([
            test,
            "--exact",
            "--include-ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("could not rerun {} for `{test}`: {e}", exe.display()));
    let (outcome, stderr) = wait_until(child, deadline);
    if let Err(why) = verdict(test, deadline, ending, &outcome) {
        panic!(
            "{why}\n--- child stdout ---\n{}\n--- child stderr ---\n{stderr}",
            outcome.stdout
        );
    }
    eprint!("{stderr}");
    None
}

/// Waits for `child` until `deadline`, killing it then; returns how it ended and its stderr.
/// Its output is read while it runs, so a full pipe cannot stall it, and for at most
/// [`DRAIN_AFTER_EXIT`] after it ended: a process it started may hold the pipes open.
fn wait_until(mut child: Child, deadline: Duration) -> (Outcome, String) {
    let out = drain(child.stdout.take().map(|r| Box::new(r) as _));
    let err = drain(child.stderr.take().map(|r| Box::new(r) as _));
    let began = Instant::now();
    let exited_ok = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status.success()),
            Ok(None) if began.elapsed() < deadline => thread::sleep(Duration::from_millis(20)),
            // Past the deadline, or the child cannot be waited for: end it.
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let stdout = out.collect();
    let stderr = err.collect();
    (Outcome { exited_ok, stdout }, stderr)
}

/// How long the output of a child that has ended is still read.
const DRAIN_AFTER_EXIT: Duration = Duration::from_secs(2);

/// A pipe read to its end on a thread of its own, into a buffer that can be taken any time.
struct Drain {
    text: Arc<Mutex<Vec<u8>>>,
    reader: thread::JoinHandle<()>,
}

fn drain(r: Option<Box<dyn Read + Send>>) -> Drain {
    let text = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&text);
    let reader = thread::spawn(move || {
        let Some(mut r) = r else { return };
        let mut chunk = [0u8; 4096];
        while let Ok(n @ 1..) = r.read(&mut chunk) {
            sink.lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend_from_slice(&chunk[..n]);
        }
    });
    Drain { text, reader }
}

impl Drain {
    /// What was read, after the reader reached the end or [`DRAIN_AFTER_EXIT`] passed.
    fn collect(self) -> String {
        let began = Instant::now();
        while !self.reader.is_finished() && began.elapsed() < DRAIN_AFTER_EXIT {
            thread::sleep(Duration::from_millis(10));
        }
        let bytes = self.text.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Whether the child of test `test` ended as `ending` asks.
fn verdict(test: &str, deadline: Duration, ending: Ending, o: &Outcome) -> Result<(), String> {
    let Some(exited_ok) = o.exited_ok else {
        return Err(format!(
            "`{test}` did not finish within {deadline:?} in its child process and was killed: \
             it hangs"
        ));
    };
    if !o.stdout.contains("running 1 test") {
        return Err(format!(
            "`{test}` names no test of this binary: pass the full name that \
             `<test binary> --list` prints (module path included)"
        ));
    }
    match ending {
        Ending::Passes if exited_ok => Ok(()),
        Ending::Passes => Err(format!("`{test}` failed in its child process")),
        Ending::Aborts if o.stdout.contains(STUCK_DONE) => Ok(()),
        Ending::Aborts => Err(format!(
            "`{test}` ended in its child process before its checks passed"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEADLINE: Duration = Duration::from_secs(1);

    fn outcome(exited_ok: Option<bool>, stdout: &str) -> Outcome {
        Outcome {
            exited_ok,
            stdout: stdout.into(),
        }
    }

    #[test]
    fn a_child_must_run_one_test_and_pass() {
        let ran = "\nrunning 1 test\ntest t ... ok\n\ntest result: ok. 1 passed";
        let v = |o: &Outcome| verdict("t", DEADLINE, Ending::Passes, o);
        assert_eq!(v(&outcome(Some(true), ran)), Ok(()));
        let failed = v(&outcome(Some(false), ran)).unwrap_err();
        assert!(failed.contains("failed in its child"), "{failed}");
        let none = v(&outcome(Some(true), "\nrunning 0 tests\n")).unwrap_err();
        assert!(none.contains("names no test"), "{none}");
    }

    #[test]
    fn a_child_still_running_at_the_deadline_is_a_hang() {
        let hung = verdict(
            "t",
            DEADLINE,
            Ending::Passes,
            &outcome(None, "running 1 test"),
        );
        let why = hung.unwrap_err();
        assert!(
            why.contains("did not finish within 1s") && why.contains("hangs"),
            "{why}"
        );
    }

    #[test]
    fn a_stuck_test_child_must_reach_its_end_before_it_aborts() {
        let done = format!("running 1 test\n{STUCK_DONE}\n");
        let v = |o: &Outcome| verdict("t", DEADLINE, Ending::Aborts, o);
        assert_eq!(v(&outcome(Some(false), &done)), Ok(()));
        let early = v(&outcome(Some(false), "running 1 test\npanicked")).unwrap_err();
        assert!(early.contains("before its checks passed"), "{early}");
    }

    #[test]
    fn waiting_kills_a_child_at_the_deadline_and_keeps_its_output() {
        // `sleep` runs in a process of its own that holds the pipes after `sh` is killed.
        let child = Command::new("sh")
            .args(["-c", "echo started; sleep 30"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("sh");
        let began = Instant::now();
        let (o, _) = wait_until(child, Duration::from_millis(300));
        assert_eq!(o.exited_ok, None);
        assert_eq!(o.stdout, "started\n");
        assert!(began.elapsed() < Duration::from_secs(25), "not killed");
    }

    #[test]
    fn waiting_reports_a_child_that_exits() {
        let child = Command::new("sh")
            .args(["-c", "echo out; echo err >&2; exit 3"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("sh");
        let (o, stderr) = wait_until(child, Duration::from_secs(60));
        assert_eq!((o.exited_ok, o.stdout.as_str()), (Some(false), "out\n"));
        assert_eq!(stderr, "err\n");
    }
}
