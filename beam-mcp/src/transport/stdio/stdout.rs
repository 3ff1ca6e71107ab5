//! The process's stdout, shared by two writers: the reading thread writes an answer in place
//! when nothing else waits to be written and the write would not wait; every other line (and
//! the rest of a line the pipe took in part) is written by the writer thread, from the
//! bounded write queue.
//!
//! In place only where a write that cannot go on at once says so instead of waiting: stdout a
//! pipe of its own, made non-blocking (as tokio's pipe types make it; the client's end is a
//! description of its own). Anywhere else (a file, a terminal, stdout shared with stderr, which
//! must stay blocking for the logs), every line goes through the queue, as in
//! [`serve`](super::serve), so the reader never waits on its client's reading.

use std::io::{self, Write};
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

use tokio::runtime::Handle;
use tokio::sync::mpsc;

use super::Line;
use super::descriptors::Waiting;

/// stdout, and who holds the pen.
pub(super) struct Stdout {
    pen: Mutex<Pen>,
    /// Whether a write in place never waits (a non-blocking pipe of our own).
    in_place: bool,
}

struct Pen {
    out: Waiting<Fd>,
    /// The rest of a line written in place in part: written before anything else.
    rest: Vec<u8>,
}

impl Stdout {
    /// The process's stdout. Must be called within the runtime (a pipe is made non-blocking
    /// through it, and waited on through it when full).
    pub(super) fn open(handle: Handle) -> Stdout {
        let (fd, in_place) = Fd::open();
        Stdout {
            pen: Mutex::new(Pen {
                out: Waiting::new(fd, handle),
                rest: Vec::new(),
            }),
            in_place,
        }
    }

    /// Whether lines may be written in place at all.
    pub(super) fn in_place(&self) -> bool {
        self.in_place
    }

    fn pen(&self) -> MutexGuard<'_, Pen> {
        // A panic while a line was written leaves at worst a partial line; writing goes on.
        self.pen.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `line` (formed, `\n` included) at once if stdout takes it without waiting and
    /// the writer thread holds nothing back: `Ok(true)`; if the pipe took only part of it, the
    /// rest is left for the writer thread, which must be woken ([`Line::Wake`]): `Ok(false)`.
    /// `Err(())`: nothing written, queue it. The caller saw the write queue empty.
    pub(super) fn write_in_place(&self, line: &[u8]) -> Result<bool, ()> {
        if !self.in_place {
            return Err(());
        }
        let mut pen = match self.pen.try_lock() {
            Ok(pen) => pen,
            Err(TryLockError::Poisoned(pen)) => pen.into_inner(),
            // The writer thread is writing.
            Err(TryLockError::WouldBlock) => return Err(()),
        };
        if !pen.rest.is_empty() {
            return Err(());
        }
        let mut written = 0;
        while written < line.len() {
            match pen.out.get_mut().write(&line[written..]) {
                Ok(0) => break,
                Ok(n) => written += n,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                // Full (or broken: the writer thread meets the error and reports it).
                Err(_) => break,
            }
        }
        if written == line.len() {
            return Ok(true);
        }
        if written == 0 {
            return Err(());
        }
        pen.rest.extend_from_slice(&line[written..]);
        Ok(false)
    }
}

/// The writer thread: every queued line, in batches of up to 64 KiB, each batch written (after
/// the rest of a line written in place in part) under the pen. Ends at [`Line::End`] (once all
/// before it is written) or when every sender is gone.
pub(super) fn write_lines(mut rx: mpsc::Receiver<Line>, stdout: &Stdout) -> io::Result<()> {
    let mut batch = Vec::with_capacity(64 * 1024);
    let mut line = Vec::with_capacity(4096);
    while let Some(first) = rx.blocking_recv() {
        let mut next = Some(first);
        let mut end = None;
        while let Some(message) = next {
            if let Some(done) = message.write_to(&mut line) {
                end = Some(done);
                break;
            }
            batch.extend_from_slice(&line);
            if batch.len() >= 64 * 1024 {
                break;
            }
            next = rx.try_recv().ok();
        }
        {
            let mut pen = stdout.pen();
            let Pen { out, rest } = &mut *pen;
            if !rest.is_empty() {
                out.write_all(rest)?;
                rest.clear();
            }
            out.write_all(&batch)?;
            out.flush()?;
        }
        if batch.capacity() > 64 * 1024 {
            // One large answer should not pin its buffer for the life of the process.
            batch = Vec::with_capacity(64 * 1024);
        }
        batch.clear();
        if line.capacity() > 64 * 1024 {
            line = Vec::with_capacity(4096);
        }
        if let Some(done) = end {
            let _ = done.send(());
            return Ok(());
        }
    }
    let mut pen = stdout.pen();
    let Pen { out, rest } = &mut *pen;
    out.write_all(rest)?;
    rest.clear();
    out.flush()
}

/// stdout's descriptor: a pipe of our own, non-blocking, or std's stdout as it is.
enum Fd {
    #[cfg(unix)]
    Pipe(std::fs::File),
    Std(io::Stdout),
}

impl Fd {
    /// stdout, and whether it is a non-blocking pipe of our own.
    fn open() -> (Fd, bool) {
        #[cfg(unix)]
        if let Some(pipe) = unix::own_pipe() {
            return (Fd::Pipe(pipe), true);
        }
        (Fd::Std(io::stdout()), false)
    }
}

impl Write for Fd {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            #[cfg(unix)]
            Fd::Pipe(file) => file.write(buf),
            Fd::Std(out) => out.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            #[cfg(unix)]
            Fd::Pipe(file) => file.flush(),
            Fd::Std(out) => out.flush(),
        }
    }
}

#[cfg(unix)]
impl std::os::fd::AsFd for Fd {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        match self {
            Fd::Pipe(file) => file.as_fd(),
            Fd::Std(out) => out.as_fd(),
        }
    }
}

#[cfg(unix)]
mod unix {
    use std::fs::File;
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;

    use tokio::net::unix::pipe;

    /// A new descriptor of stdout's open file, made non-blocking, when that is a pipe not
    /// shared with stderr (logs written to a non-blocking pipe could fail with `EAGAIN`).
    pub(super) fn own_pipe() -> Option<File> {
        let out = File::from(std::io::stdout().as_fd().try_clone_to_owned().ok()?);
        let err = File::from(std::io::stderr().as_fd().try_clone_to_owned().ok()?);
        let (out_meta, err_meta) = (out.metadata().ok()?, err.metadata().ok());
        if err_meta.is_some_and(|err| err.dev() == out_meta.dev() && err.ino() == out_meta.ino()) {
            return None;
        }
        // tokio checks that it is a pipe open for writing, and sets `O_NONBLOCK`.
        let pipe = pipe::Sender::from_file(out).ok()?;
        Some(File::from(pipe.into_nonblocking_fd().ok()?))
    }
}
