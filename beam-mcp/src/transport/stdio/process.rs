//! The process's own stdin and stdout, as `serve!(stdio)` serves them: stdin is read on a
//! thread of its own with blocking reads, and each message is handled there; an answer host
//! code gives at once is written from that thread too when stdout takes it at once
//! (`stdout.rs`). Host code that waits runs on the runtime, and its messages reach stdout
//! through the bounded write queue and a writer thread.
//!
//! Why a thread: a sequential client's call, read through the runtime's event loop, paid for a
//! worker's park and wake, the readiness of the pipe and a hand-off to the writing future on
//! every message (about 7,000 instructions of the 19,000 a call cost, `bench/README.md`); a
//! blocking read costs none of them, and waiting in it costs nothing. The framing, the bounds
//! (slots, the waiting queue, the write queue), the order of a request's messages and the
//! graceful end are [`serve`](super::serve)'s, from the same code.

use std::future::Future;
use std::io::{self, BufRead};
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};

use tokio::io::{AsyncBufRead, AsyncRead, ReadBuf};
use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};

use super::descriptors::Waiting;
use super::stdout::{Stdout, write_lines};
use super::{Frame, Frames, Line, Next};
use crate::protocol::{Exchange, Session};
use crate::{Server, ServerBuilder};

/// The body of `serve!(stdio)`: logs to stderr, builds the server, serves stdin/stdout.
///
/// A refused catalog ends the process with exit code 2 and the reason on stderr. The end of
/// input, `exit`, SIGTERM and ctrl-c end it with 0 once running requests are answered (within
/// 10 s; then they are cancelled). A broken stdout ends it with 0 too: nobody is left to answer.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     beam_mcp::transport::stdio::main(beam_mcp::Server::builder().name("demo"))
/// }
/// ```
#[doc(hidden)]
pub fn main(builder: ServerBuilder) -> ExitCode {
    super::super::init_logging();
    let server = match builder.build() {
        Ok(server) => server,
        Err(error) => {
            tracing::error!(%error, "the server refused to start");
            eprintln!("beam_mcp: the server refused to start: {error}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("beam_mcp: could not start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    // Supervised from a task, not under `block_on` (docs/architecture.md).
    let result = runtime.block_on(async {
        match tokio::spawn(serve_process(server)).await {
            Ok(result) => result,
            // A panic in the loop itself (never in host code, which is caught per call).
            Err(error) => Err(io::Error::other(format!("the stdio loop failed: {error}"))),
        }
    });
    // The session can end with stdin still open (`exit`, a signal, a frame too long to
    // drain): the reading thread may be blocked in a read that nothing interrupts. Everything
    // was written and flushed; leaving the process ends it.
    runtime.shutdown_background();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "stdio failed");
            ExitCode::FAILURE
        }
    }
}

/// Serves stdin and stdout until the input ends, `exit`, a signal or a broken output.
async fn serve_process(server: Server) -> io::Result<()> {
    let session = Session::new();
    let _timer = server.time_session(session.agreed_revision(), || crate::middleware::Via::STDIO);
    let limits = server.inner.limits;
    let handle = Handle::current();
    let stdout = Arc::new(Stdout::open(handle.clone()));
    let (tx, rx) = mpsc::channel::<Line>(limits.write_queue);
    let slots = Arc::new(Semaphore::new(limits.in_flight));
    let (park, parked) = mpsc::channel::<Exchange>(limits.in_flight);
    let (close_parked, parked_closed) = oneshot::channel::<()>();
    let dispatcher = tokio::spawn(super::dispatch(
        parked,
        Arc::clone(&slots),
        tx.clone(),
        async {
            let _ = parked_closed.await;
        },
    ));
    let ending = super::Ending {
        session: &session,
        unsolicited: tokio::spawn(super::forward_unsolicited(
            session.unsolicited(),
            tx.clone(),
        )),
        dispatcher: dispatcher.abort_handle(),
    };
    let (writer_failed, mut write_failure) = oneshot::channel();
    let writing = Arc::clone(&stdout);
    spawn_thread("beam-mcp-stdout", move || {
        if let Err(error) = write_lines(rx, &writing) {
            let _ = writer_failed.send(error);
        }
    })?;
    let stop = Arc::new(AtomicBool::new(false));
    let handling = Arc::new(Mutex::new(None));
    let (read_done, mut read_result) = oneshot::channel();
    let reader = Reader {
        frames: Frames::new(Blocking(io::BufReader::with_capacity(
            64 * 1024,
            Waiting::new(io::stdin(), handle.clone()),
        ))),
        server,
        session: session.clone(),
        slots: Arc::clone(&slots),
        park,
        tx: tx.clone(),
        stdout,
        line: Vec::with_capacity(4096),
        stop: Arc::clone(&stop),
        handling: Arc::clone(&handling),
        handle,
    };
    spawn_thread("beam-mcp-stdin", move || {
        let _ = read_done.send(reader.run());
    })?;
    tokio::select! {
        read = &mut read_result => {
            // A reader that panicked dropped its sender.
            read.unwrap_or_else(|_| Err(io::Error::other("the stdin reader failed")))?;
        }
        () = signalled() => {
            // Reading stops; a message half read is dropped.
            stop.store(true, Ordering::Release);
        }
        Ok(error) = &mut write_failure => return Err(error),
    }
    // A message read before the end is handled first, and the slot the reader keeps is given
    // back. Then the waiting queue is closed here, not by its sender: on a signal, the reader
    // may be blocked in a read for good.
    let settled = async {
        let _ = tokio::task::spawn_blocking(move || drop(lock(&handling).take())).await;
    };
    let close = move || {
        let _ = close_parked.send(());
    };
    super::drain(
        &session,
        dispatcher,
        &slots,
        limits.in_flight,
        settled,
        close,
    )
    .await;
    drop(ending);
    // Everything queued is written, then flushed.
    let (end, ended) = oneshot::channel();
    if tx.send(Line::End(end)).await.is_ok() {
        tokio::select! {
            _ = ended => {}
            Ok(error) = write_failure => return Err(error),
        }
    }
    Ok(())
}

fn lock(handling: &Handling) -> MutexGuard<'_, Option<OwnedSemaphorePermit>> {
    handling.lock().unwrap_or_else(PoisonError::into_inner)
}

fn spawn_thread(name: &str, run: impl FnOnce() + Send + 'static) -> io::Result<()> {
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(run)
        .map(drop)
}

/// The reader's lock, held while it handles a message, and the slot it keeps between messages:
/// the one the last message's host code ran in, when it answered at once and other slots are
/// free (so nothing can be waiting for one). Kept, a sequence of calls answered at once takes
/// and gives back no slot (a release locks the semaphore's queue: the pair cost some 70
/// instructions a call); the graceful end takes it back.
type Handling = Mutex<Option<OwnedSemaphorePermit>>;

/// stdin, read with blocking reads into a 64 KiB buffer.
type Stdin = io::BufReader<Waiting<io::Stdin>>;

/// The reading thread: frames read with blocking reads, each message handled as
/// [`serve`](super::serve) handles it.
struct Reader {
    frames: Frames<Blocking<Stdin>>,
    server: Server,
    session: Session,
    slots: Arc<Semaphore>,
    park: mpsc::Sender<Exchange>,
    tx: mpsc::Sender<Line>,
    stdout: Arc<Stdout>,
    /// Where an answer is formed to be written in place.
    line: Vec<u8>,
    /// Set on a signal: what is read after it is not handled.
    stop: Arc<AtomicBool>,
    /// Held from a message's reading to its answer (or its place in a queue): the graceful end
    /// waits for it, so a message read before a signal is handled.
    handling: Arc<Handling>,
    handle: Handle,
}

impl Reader {
    fn run(mut self) -> io::Result<()> {
        // Host code that answers at once runs here: it may spawn, sleep, or use the runtime's
        // timers and I/O.
        let _entered = self.handle.enter();
        let handle = self.handle.clone();
        let handling = Arc::clone(&self.handling);
        loop {
            let frame = now(&handle, self.frames.next())?;
            let mut kept = lock(&handling);
            if self.stop.load(Ordering::Acquire) {
                break;
            }
            let mut fatal = false;
            let (line, slot) = match frame {
                Frame::Eof => break,
                Frame::Refused(error) => (Line::Refusal(error.response()), None),
                Frame::Fatal(error) => {
                    fatal = true;
                    (Line::Refusal(error.response()), None)
                }
                Frame::Message(bytes) => {
                    let slot = super::free_slot(&self.slots, &self.park, kept.take());
                    let reply = self
                        .server
                        .handle_in_turn(&self.session, &bytes, slot.is_some());
                    self.frames.recycle(bytes);
                    match super::next_step(reply, slot, &self.session, &self.tx) {
                        Next::Nothing => {
                            if self.session.is_closed() {
                                break;
                            }
                            continue;
                        }
                        Next::Write(line, slot) => (line, slot),
                        Next::Park(exchange) => {
                            if !self.wait_for_room(exchange)? {
                                break;
                            }
                            continue;
                        }
                    }
                }
            };
            let queued = self.answer(line);
            // Held until its answer is queued: the graceful end waits for it. Kept for the next
            // message while another is free: no request can be waiting for one then.
            *kept = slot.filter(|_| self.slots.available_permits() > 0);
            if !queued || fatal || self.session.is_closed() {
                break;
            }
        }
        Ok(())
    }

    /// Writes a line in place if stdout takes it at once and nothing else waits to be written;
    /// else queues it. `false` once the writer is gone.
    fn answer(&mut self, line: Line) -> bool {
        let queue_empty = self.tx.capacity() == self.tx.max_capacity();
        if !(self.stdout.in_place() && queue_empty) {
            return self.queue(line);
        }
        if line.write_to(&mut self.line).is_some() {
            return true;
        }
        let queued = match self.stdout.write_in_place(&self.line) {
            Ok(true) => true,
            // The pipe took part of it: the writer writes the rest when stdout takes it.
            Ok(false) => self.queue(Line::Wake),
            // Nothing written: the writer takes the line as formed.
            Err(()) => {
                let formed = std::mem::take(&mut self.line);
                return self.queue(Line::Formed(formed));
            }
        };
        if self.line.capacity() > 64 * 1024 {
            // One large answer should not pin its buffer for the life of the process.
            self.line = Vec::with_capacity(4096);
        }
        queued
    }

    /// Queues a line for the writer, waiting while the queue is full (reading stops then, as
    /// in [`serve`](super::serve)); `false` once the writer is gone.
    fn queue(&self, line: Line) -> bool {
        match self.tx.try_send(line) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Closed(_)) => false,
            Err(mpsc::error::TrySendError::Full(line)) => self.tx.blocking_send(line).is_ok(),
        }
    }

    /// Queues a request to wait for a slot; `false` once the queue is closed (the end).
    fn wait_for_room(&mut self, exchange: Exchange) -> io::Result<bool> {
        match self.park.try_send(exchange) {
            Ok(()) => Ok(true),
            Err(mpsc::error::TrySendError::Closed(_)) => Ok(false),
            // Reading stops until a slot frees.
            Err(mpsc::error::TrySendError::Full(exchange)) => {
                Ok(self.park.blocking_send(exchange).is_ok())
            }
        }
    }
}

/// Runs a future of the framing over a blocking reader: it is ready at its first poll (every
/// read it makes blocks instead of waiting), so it is polled once, with no waker; should it
/// ever wait, the runtime drives it to the end.
fn now<F: Future>(handle: &Handle, future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        Poll::Ready(output) => output,
        Poll::Pending => handle.block_on(future),
    }
}

/// A blocking [`BufRead`] as tokio's [`AsyncBufRead`]: every poll is ready (it blocks instead).
struct Blocking<R>(R);

impl<R: BufRead + Unpin> AsyncRead for Blocking<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let read = self.get_mut().0.read(buf.initialize_unfilled());
        Poll::Ready(read.map(|n| buf.advance(n)))
    }
}

impl<R: BufRead + Unpin> AsyncBufRead for Blocking<R> {
    fn poll_fill_buf(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        Poll::Ready(self.get_mut().0.fill_buf())
    }

    fn consume(self: Pin<&mut Self>, amount: usize) {
        self.get_mut().0.consume(amount);
    }
}

/// SIGTERM or ctrl-c; pending for good where neither can be listened for.
async fn signalled() {
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        () = terminate => {}
        () = interrupt => {}
    }
    tracing::info!("a signal: reading stops, running requests are answered, then the server exits");
}
