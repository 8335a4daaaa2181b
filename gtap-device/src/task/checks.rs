//! Compile-time checks and stand-ins that `#[gtap::program]` emits into a program's code, so
//! that a mistake stops the build with one error that says what to change.

/// How long a frame-size message may get; longer names are cut.
const MESSAGE_CAP: usize = 640;

/// The message of the compile-time check that the frame of `task`, `size` bytes, fits its
/// program's `max_frame_bytes`, `max`: both numbers, the default, and the attribute that
/// raises the limit, with a value that fits. The generated check panics with it in a
/// constant's evaluation, where the compiler points the error at the task's name.
pub const fn frame_message(size: usize, max: usize, task: &str, program: &str) -> Message {
    let mut msg = Message::new();
    msg.push("gtap: the frame of task `");
    msg.push(task);
    msg.push("` is ");
    msg.number(size);
    msg.push(" bytes, more than max_frame_bytes = ");
    msg.number(max);
    msg.push(" of program `");
    msg.push(program);
    msg.push("` (the default is 512). A frame holds what a task keeps alive across a taskwait!(): keep less there, or raise the limit with #[gtap::program(max_frame_bytes = ");
    // The next multiple of 64 that fits.
    msg.number(size.div_ceil(64) * 64);
    msg.push(")]");
    msg
}

/// Stands in for a task called like a function inside a task body, which `#[gtap::program]`
/// reports as an error: it has the task's result type, so that the code around the call
/// raises no errors of its own, and it never runs (the error stops the build first).
pub fn plain_task_call<R>() -> R {
    unreachable!("a plain task call is a compile error")
}

/// Stands in for `let h = f(x);` inside a task body where `h.get()` is read later (a spawn
/// written without `spawn!`), which `#[gtap::program]` reports as an error: `h.get()`
/// type-checks, and nothing runs (the error stops the build first).
pub fn plain_task_handle<R>() -> PlainTaskHandle<R> {
    PlainTaskHandle(core::marker::PhantomData)
}

/// What [`plain_task_handle`] stands in with.
pub struct PlainTaskHandle<R>(core::marker::PhantomData<R>);

impl<R> PlainTaskHandle<R> {
    /// The type of a result handle's `get`.
    pub fn get(&self) -> R {
        unreachable!("a plain task call is a compile error")
    }
}

/// A message built in a constant's evaluation (where `format!` is not available).
pub struct Message {
    buf: [u8; MESSAGE_CAP],
    len: usize,
}

impl Message {
    const fn new() -> Message {
        Message {
            buf: [0; MESSAGE_CAP],
            len: 0,
        }
    }

    const fn push(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        // Whole characters only, so the buffer stays UTF-8 when a long name is cut.
        while i < bytes.len() && self.len < MESSAGE_CAP {
            let width = utf8_width(bytes[i]);
            if self.len + width > MESSAGE_CAP {
                self.len = MESSAGE_CAP;
                return;
            }
            let mut k = 0;
            while k < width {
                self.buf[self.len] = bytes[i + k];
                self.len += 1;
                k += 1;
            }
            i += width;
        }
    }

    const fn number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut count = 0;
        loop {
            digits[count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while count > 0 && self.len < MESSAGE_CAP {
            count -= 1;
            self.buf[self.len] = digits[count];
            self.len += 1;
        }
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            // Unreachable: only whole characters of `&str`s and ASCII digits are pushed.
            Err(_) => "gtap: a task's frame is larger than its program's max_frame_bytes",
        }
    }
}

/// The length of the UTF-8 sequence that starts with byte `b`.
const fn utf8_width(b: u8) -> usize {
    match b {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_gives_the_size_the_limit_and_a_value_that_fits() {
        let msg = frame_message(300, 64, "big", "p");
        let msg = msg.as_str();
        assert!(
            msg.starts_with("gtap: the frame of task `big` is 300 bytes, more than max_frame_bytes = 64 of program `p` (the default is 512)"),
            "{msg}"
        );
        assert!(
            msg.ends_with("#[gtap::program(max_frame_bytes = 320)]"),
            "{msg}"
        );
        assert!(
            frame_message(0, 0, "t", "p")
                .as_str()
                .contains("is 0 bytes")
        );
    }

    #[test]
    fn long_names_are_cut_on_character_boundaries() {
        let mut m = Message::new();
        let long = "é".repeat(MESSAGE_CAP);
        m.push(&long);
        assert!(m.as_str().chars().all(|c| c == 'é'));
        assert_eq!(m.as_str().len(), MESSAGE_CAP);
    }
}
