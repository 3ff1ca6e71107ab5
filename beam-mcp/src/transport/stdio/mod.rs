//! The stdio transport: newline-delimited JSON-RPC on stdin/stdout.
//!
//! - A line may be exactly [`MAX_MESSAGE_BYTES`] long; a longer one is answered `-32600` and
//!   the rest of it is drained, never read as a message.
//! - A line holding only whitespace (spaces, tabs, `\r`), like an empty one, is no message.
//! - Legacy `Content-Length` framing is accepted on read (answers are always lines). A
//!   declared length over [`MAX_MESSAGE_BYTES`] is answered `-32600` at once; a body of up to
//!   [`MAX_FRAME_DRAIN`] bytes is then read and dropped, and a longer one ends the session
//!   (nothing after it could be found again without reading it all).
//! - Requests whose answer needs host code run concurrently while the next lines are read;
//!   their notifications and answers are written in batches, one compact JSON line each.
//! - Bounded: a bounded number of requests in flight, as many again waiting for a slot, and a
//!   bounded write queue; past them the server stops reading (see [`serve`]). While requests
//!   wait, reading goes on, so a client's answers to the asks of running requests, and its
//!   cancels, are read when every slot is taken.
//! - stdout carries protocol messages only; diagnostics go to stderr through `tracing`.
//! - The end of input is the graceful end: running requests are answered within 10 s. In
//!   [`main`], SIGTERM and ctrl-c are an end of input too: reading stops (a message half read
//!   is dropped), running requests are answered within the same 10 s, then the process exits 0.
//!
//! [`serve`] is the loop for any async reader and writer, run as a task. [`main`] (the body of
//! `serve!(stdio)`) serves the process's own stdin and stdout with the same framing, bounds and
//! order, but reads on a thread of its own with blocking reads (`process.rs`): host code that
//! answers at once is answered and written from that thread, with no task and no hand-off.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};

use super::framing::FrameError;
use crate::Server;
use crate::json::MAX_MESSAGE_BYTES;
use crate::protocol::{Exchange, Outbound, Reply, Session};

mod descriptors;
mod process;
mod stdout;

pub use process::main;

/// The largest `Content-Length` body that is read and dropped after its refusal (4 MiB): past
/// it the session ends instead, so a declared length of `u64::MAX` is never waited for.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// use beam_mcp::transport::stdio::{MAX_FRAME_DRAIN, serve};
/// assert_eq!(MAX_FRAME_DRAIN, 4 * 1_048_576);
/// // Refused at once, then the session ends: the ping after it is never read.
/// let input: &[u8] = b"Content-Length: 18446744073709551615\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
/// let mut output = Vec::new();
/// serve(beam_mcp::Server::builder().build().unwrap(), input, &mut output).await?;
/// assert_eq!(
///     output,
///     b"{\"error\":{\"code\":-32600,\"message\":\"Request frame exceeds 1048576 bytes\"},\"jsonrpc\":\"2.0\"}\n"
/// );
/// # Ok(())
/// # }
/// ```
pub const MAX_FRAME_DRAIN: u64 = 4 * MAX_MESSAGE_BYTES as u64;

/// One unit read from the input.
#[derive(Debug, PartialEq)]
enum Frame {
    Message(Vec<u8>),
    Refused(FrameError),
    /// Answered, then the input ends: the stream cannot be followed past it.
    Fatal(FrameError),
    Eof,
}

/// One line for the writer: a request's message, or the reader's own refusal of a frame.
enum Line {
    Out(Outbound),
    Refusal(Vec<u8>),
    /// A line already formed, `\n` included.
    Formed(Vec<u8>),
    /// Not a line: wakes the writer, to write what is left of a line written in part.
    Wake,
    /// Not a line: everything queued before it is written and flushed, then the sender hears.
    End(oneshot::Sender<()>),
}

impl Line {
    /// The line's bytes, `\n` included, in `line` (cleared first; left empty by what is no
    /// line). `Some` for [`Line::End`].
    fn write_to(self, line: &mut Vec<u8>) -> Option<oneshot::Sender<()>> {
        line.clear();
        match self {
            Line::Out(message) => message.write_to(line),
            Line::Refusal(bytes) => line.extend_from_slice(&bytes),
            Line::Formed(bytes) => {
                *line = bytes;
                return None;
            }
            Line::Wake => return None,
            Line::End(done) => return Some(done),
        }
        line.push(b'\n');
        None
    }
}

/// Serves `server` on `input`/`output` until EOF, `shutdown` or `exit`.
///
/// Run it in a task (`tokio::spawn`) rather than directly under `Runtime::block_on`: see
/// `docs/architecture.md` for a stall seen there under load. (`serve!(stdio)` does not run
/// this loop: it serves the process's own stdin and stdout on threads of their own, with the
/// same framing, steps and bounds.)
///
/// Bounded end to end: at most [`max_in_flight`](crate::ServerBuilder::max_in_flight)
/// requests run at once, as many again wait for a slot (not started), and at most
/// [`write_queue`](crate::ServerBuilder::write_queue) messages wait to be written; past those
/// bounds the server stops reading its input, so a client that never reads its answers cannot
/// grow the server's memory. While requests only wait, reading goes on: responses to the
/// server's asks and `notifications/cancelled` need no slot, so a running request that waits
/// on its client's answer is answered even when every slot is taken. A finished request is
/// released at once.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// let server = beam_mcp::Server::builder().build().unwrap();
/// let input: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
/// let mut output = Vec::new();
/// beam_mcp::transport::stdio::serve(server, input, &mut output).await?;
/// assert_eq!(output, b"{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n");
/// # Ok(())
/// # }
/// ```
pub async fn serve<R, W>(server: Server, input: R, output: W) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let session = Session::new();
    // The connection is the session: timed until this returns.
    let _timer = server.time_session(session.agreed_revision(), || crate::middleware::Via::STDIO);
    let limits = server.inner.limits;
    let mut reader = Frames::new(BufReader::with_capacity(64 * 1024, input));
    let (tx, rx) = mpsc::channel::<Line>(limits.write_queue);
    let slots = Arc::new(Semaphore::new(limits.in_flight));
    // Requests waiting for a slot, not started: as many as may run at once.
    let (park, parked) = mpsc::channel::<Exchange>(limits.in_flight);
    let dispatcher = tokio::spawn(dispatch(
        parked,
        Arc::clone(&slots),
        tx.clone(),
        std::future::pending(),
    ));
    let write = write_messages(rx, output);
    // A 2025-11-25 session of a live server is told of list changes unsolicited.
    let ending = Ending {
        session: &session,
        unsolicited: tokio::spawn(forward_unsolicited(session.unsolicited(), tx.clone())),
        dispatcher: dispatcher.abort_handle(),
    };
    let read = async {
        loop {
            let mut fatal = false;
            let answer = match reader.next().await? {
                Frame::Eof => break,
                Frame::Refused(error) => Some((Line::Refusal(error.response()), None)),
                Frame::Fatal(error) => {
                    fatal = true;
                    Some((Line::Refusal(error.response()), None))
                }
                Frame::Message(bytes) => {
                    let slot = free_slot(&slots, &park, None);
                    let reply = server.handle_in_turn(&session, &bytes, slot.is_some());
                    reader.recycle(bytes);
                    match next_step(reply, slot, &session, &tx) {
                        Next::Nothing => None,
                        Next::Write(line, slot) => Some((line, slot)),
                        Next::Park(exchange) => {
                            if park.send(exchange).await.is_err() {
                                break;
                            }
                            None
                        }
                    }
                }
            };
            if let Some((line, _slot)) = answer
                && tx.send(line).await.is_err()
            {
                break;
            }
            if fatal || session.is_closed() {
                break;
            }
        }
        // The input ended (EOF, `shutdown`, `exit`, a frame too long to drain).
        drain(
            &session,
            dispatcher,
            &slots,
            limits.in_flight,
            std::future::ready(()),
            move || drop(park),
        )
        .await;
        drop(tx);
        Ok::<(), io::Error>(())
    };
    tokio::pin!(read, write);
    tokio::select! {
        read = &mut read => {
            drop(ending);
            read?;
            write.await
        }
        // The output is gone (a broken pipe): nothing more can be answered; `ending` cancels
        // what runs.
        write = &mut write => write,
    }
}

/// What the read loop does with a message's reply.
enum Next {
    /// Nothing to write: a notification, or a request now running in a task of its own.
    Nothing,
    /// A line to write; the request's slot, if it took one, is held until the line is queued.
    Write(Line, Option<OwnedSemaphorePermit>),
    /// Every slot taken: the request waits, not started, and reading goes on, so the answers to
    /// running requests' asks and the cancels that would free a slot are read. Only past as
    /// many waiting as may run does reading stop.
    Park(Exchange),
}

/// A slot for the next message's host code, taken before the message is handled, when one
/// is free and no request waits for one (a request read now must not overtake those): `kept`,
/// the one the reader kept from the last message, or a free one.
fn free_slot(
    slots: &Arc<Semaphore>,
    park: &mpsc::Sender<Exchange>,
    kept: Option<OwnedSemaphorePermit>,
) -> Option<OwnedSemaphorePermit> {
    let nothing_parked = park.capacity() == park.max_capacity();
    if !nothing_parked {
        return None;
    }
    kept.or_else(|| Arc::clone(slots).try_acquire_owned().ok())
}

/// Decides [`Next`] for a message handled with `slot` ([`free_slot`]; with one, its host code
/// may have run in place and answered already, `Reply::Ready`): host code that answers at once
/// (no await that waits) is answered here, by the reader, with no task and no hand-off between
/// threads; host code that waits runs in a task that forwards its messages (spawned on the
/// current runtime); without a slot, the request waits for one.
///
/// The message was handled in turn ([`Server::handle_in_turn`]): a request that goes on is
/// registered with `session` here, before the next message is read.
fn next_step(
    reply: Reply,
    slot: Option<OwnedSemaphorePermit>,
    session: &Session,
    tx: &mpsc::Sender<Line>,
) -> Next {
    match reply {
        Reply::Silent => Next::Nothing,
        Reply::Ready(response) => Next::Write(Line::Out(Outbound::Response(response)), slot),
        Reply::Pending(mut exchange) => match slot {
            Some(slot) => match exchange.answer_now() {
                Some(response) => Next::Write(Line::Out(Outbound::Response(response)), Some(slot)),
                None => {
                    exchange.register(session);
                    tokio::spawn(forward(exchange, tx.clone(), slot));
                    Next::Nothing
                }
            },
            None => {
                exchange.register(session);
                Next::Park(exchange)
            }
        },
    }
}

/// How long requests still running when the input ends may take before they are cancelled.
const DRAIN_GRACE: Duration = Duration::from_secs(10);

/// The input ended: listen streams end with their result, and requests still running or
/// waiting are answered within [`DRAIN_GRACE`]; then the rest is cancelled. `settled` is what
/// must end before the queue of waiting requests is closed (`close`, which ends `dispatcher`):
/// a message read before the end and still being handled.
async fn drain(
    session: &Session,
    mut dispatcher: tokio::task::JoinHandle<()>,
    slots: &Semaphore,
    in_flight: usize,
    settled: impl Future<Output = ()>,
    close: impl FnOnce(),
) {
    session.end();
    let all = u32::try_from(in_flight).unwrap_or(u32::MAX);
    let mut close = Some(close);
    let drained = async {
        settled.await;
        if let Some(close) = close.take() {
            close();
        }
        let _ = (&mut dispatcher).await;
        let _ = slots.acquire_many(all).await;
    };
    if tokio::time::timeout(DRAIN_GRACE, drained).await.is_err() {
        tracing::warn!(
            ?DRAIN_GRACE,
            "requests still running at the end of input are cancelled"
        );
        session.cancel_all();
        if let Some(close) = close.take() {
            close();
        }
        // Those still waiting start cancelled, and end at once.
        let _ = dispatcher.await;
        let _ = slots.acquire_many(all).await;
    }
}

/// Ends a connection on every way out of [`serve`] (an I/O error included): listen streams
/// end, running requests are cancelled, and the unsolicited forwarder stops.
struct Ending<'s> {
    session: &'s Session,
    unsolicited: tokio::task::JoinHandle<()>,
    /// Drops the requests still waiting for a slot, which cancels them.
    dispatcher: tokio::task::AbortHandle,
}

impl Drop for Ending<'_> {
    fn drop(&mut self) {
        self.session.end();
        self.session.cancel_all();
        self.unsolicited.abort();
        self.dispatcher.abort();
    }
}

/// Starts the waiting requests in order, each as a slot frees, until the queue is closed: by
/// its senders, or once `closed` is done (then what waits in it still starts).
async fn dispatch(
    mut parked: mpsc::Receiver<Exchange>,
    slots: Arc<Semaphore>,
    tx: mpsc::Sender<Line>,
    closed: impl Future<Output = ()>,
) {
    let mut closed = std::pin::pin!(closed);
    let mut open = true;
    loop {
        let next = if open {
            tokio::select! {
                next = parked.recv() => next,
                () = &mut closed => {
                    open = false;
                    parked.close();
                    continue;
                }
            }
        } else {
            parked.recv().await
        };
        let Some(exchange) = next else {
            return;
        };
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return;
        };
        tokio::spawn(forward(exchange, tx.clone(), slot));
    }
}

/// Writes one request's messages in order, holding its slot until the last is queued.
async fn forward(mut exchange: Exchange, tx: mpsc::Sender<Line>, _slot: OwnedSemaphorePermit) {
    while let Some(message) = exchange.next().await {
        if tx.send(Line::Out(message)).await.is_err() {
            return;
        }
    }
}

/// Writes the session's unsolicited notifications as they come.
async fn forward_unsolicited(outbox: Arc<crate::context::Outbox>, tx: mpsc::Sender<Line>) {
    loop {
        while let Some(message) = outbox.pop() {
            if tx
                .send(Line::Out(Outbound::Notification(message)))
                .await
                .is_err()
            {
                return;
            }
        }
        outbox.pushed().await;
    }
}

/// Writes each message as one line, flushing when no more are waiting.
async fn write_messages<W: AsyncWrite + Unpin>(
    mut rx: mpsc::Receiver<Line>,
    output: W,
) -> io::Result<()> {
    let mut output = tokio::io::BufWriter::with_capacity(64 * 1024, output);
    let mut line = Vec::with_capacity(4096);
    while let Some(message) = rx.recv().await {
        let mut next = Some(message);
        while let Some(message) = next {
            if let Some(done) = message.write_to(&mut line) {
                output.flush().await?;
                let _ = done.send(());
            } else {
                output.write_all(&line).await?;
            }
            next = rx.try_recv().ok();
        }
        output.flush().await?;
        if line.capacity() > 64 * 1024 {
            // One large answer should not pin its buffer for the life of the process.
            line = Vec::with_capacity(4096);
        }
    }
    output.flush().await
}

/// The input as frames, with the body of a refused frame still to drop.
struct Frames<R> {
    reader: R,
    /// Bytes of a refused `Content-Length` body not read yet (at most [`MAX_FRAME_DRAIN`]).
    skip: u64,
    /// A message's buffer given back once it was handled ([`Frames::recycle`]): the next line
    /// is read into it, with no allocation.
    spare: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> Frames<R> {
    fn new(reader: R) -> Self {
        Frames {
            reader,
            skip: 0,
            spare: Vec::new(),
        }
    }

    /// Gives back a message's buffer for the next line, unless one large message made it too
    /// large to keep for the life of the session.
    fn recycle(&mut self, message: Vec<u8>) {
        if message.capacity() <= 64 * 1024 {
            self.spare = message;
        }
    }

    /// Reads the next message: a line, or a `Content-Length` frame.
    async fn next(&mut self) -> io::Result<Frame> {
        if self.skip > 0 {
            // Dropped only after the refusal was queued, so the client hears it at once.
            let skip = std::mem::take(&mut self.skip);
            let drained =
                tokio::io::copy(&mut (&mut self.reader).take(skip), &mut tokio::io::sink()).await?;
            if drained < skip {
                return Ok(Frame::Eof);
            }
        }
        let mut line = std::mem::take(&mut self.spare);
        loop {
            line.clear();
            match read_line(&mut self.reader, &mut line).await? {
                LineRead::Eof => return Ok(Frame::Eof),
                LineRead::TooLong => return Ok(Frame::Refused(FrameError::LineTooLong)),
                LineRead::Line => {}
            }
            if is_blank(&line) {
                continue;
            }
            if starts_with_ignore_case(&line, b"content-length:") {
                return self.read_framed(&line).await;
            }
            return Ok(Frame::Message(line));
        }
    }

    /// A `Content-Length` frame: header lines until a blank one, then exactly that many bytes.
    async fn read_framed(&mut self, first: &[u8]) -> io::Result<Frame> {
        let reader = &mut self.reader;
        let mut length = parse_length(first);
        loop {
            let mut header = Vec::new();
            match read_line(reader, &mut header).await? {
                LineRead::Eof => return Ok(Frame::Eof),
                LineRead::TooLong => return Ok(Frame::Refused(FrameError::LineTooLong)),
                LineRead::Line if is_blank(&header) => break,
                LineRead::Line => {
                    if starts_with_ignore_case(&header, b"content-length:") {
                        length = parse_length(&header);
                    }
                }
            }
        }
        let Some(length) = length else {
            return Ok(Frame::Refused(FrameError::InvalidContentLength));
        };
        if length > MAX_FRAME_DRAIN {
            return Ok(Frame::Fatal(FrameError::FrameTooLong));
        }
        if length > MAX_MESSAGE_BYTES as u64 {
            self.skip = length;
            return Ok(Frame::Refused(FrameError::FrameTooLong));
        }
        let mut body = Vec::with_capacity(length as usize);
        let read = reader.take(length).read_to_end(&mut body).await?;
        if (read as u64) < length {
            return Ok(Frame::Eof);
        }
        Ok(Frame::Message(body))
    }
}

/// A line holding only JSON whitespace other than `\n` (or nothing) is no message.
fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

enum LineRead {
    Line,
    TooLong,
    Eof,
}

/// Reads up to the next `\n` (or EOF), trailing `\r` trimmed, at most the message bound. A
/// longer line of whitespace only is read as an empty line: it is no message either way.
async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
) -> io::Result<LineRead> {
    let mut too_long = false;
    let mut blank = true;
    let mut saw_any = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            if !saw_any {
                return Ok(LineRead::Eof);
            }
            break;
        }
        saw_any = true;
        let (chunk, done) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        blank = blank && is_blank(chunk);
        if !too_long {
            if line.len() + chunk.len() > MAX_MESSAGE_BYTES {
                // Drain the rest of the line without keeping it: the tail is never a frame.
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let consumed = done.unwrap_or(available.len());
        reader.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if too_long {
        return Ok(if blank {
            LineRead::Line
        } else {
            LineRead::TooLong
        });
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(LineRead::Line)
}

fn parse_length(header: &[u8]) -> Option<u64> {
    let value = std::str::from_utf8(header.get("content-length:".len()..)?)
        .ok()?
        .trim();
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

fn starts_with_ignore_case(line: &[u8], prefix: &[u8]) -> bool {
    line.len() >= prefix.len() && line[..prefix.len()].eq_ignore_ascii_case(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8]) -> Vec<Frame> {
        let mut reader = Frames::new(BufReader::with_capacity(16, input));
        let mut out = Vec::new();
        loop {
            match reader.next().await.unwrap() {
                Frame::Eof => return out,
                Frame::Fatal(error) => {
                    // The input ends after it.
                    out.push(Frame::Fatal(error));
                    return out;
                }
                frame => out.push(frame),
            }
        }
    }

    #[tokio::test]
    async fn lines_are_split_trimmed_and_blank_ones_skipped() {
        let got = frames(b"{\"a\":1}\r\n\n  \t \r\n\n{}\n[]").await;
        assert_eq!(
            got,
            vec![
                Frame::Message(b"{\"a\":1}".to_vec()),
                Frame::Message(b"{}".to_vec()),
                Frame::Message(b"[]".to_vec()),
            ]
        );
    }

    #[tokio::test]
    async fn the_line_bound_admits_exactly_one_mebibyte() {
        let mut input = vec![b'x'; MAX_MESSAGE_BYTES];
        input.push(b'\n');
        input.extend(vec![b'y'; MAX_MESSAGE_BYTES + 1]);
        input.extend_from_slice(b"\n{}\n");
        let got = frames(&input).await;
        assert_eq!(got.len(), 3);
        assert!(matches!(&got[0], Frame::Message(m) if m.len() == MAX_MESSAGE_BYTES));
        assert_eq!(got[1], Frame::Refused(FrameError::LineTooLong));
        assert_eq!(got[2], Frame::Message(b"{}".to_vec()));
    }

    #[tokio::test]
    async fn content_length_frames_are_read() {
        let got =
            frames(b"Content-Length: 2\r\nContent-Type: application/json\r\n\r\n{}{\"x\":1}\n")
                .await;
        assert_eq!(
            got,
            vec![
                Frame::Message(b"{}".to_vec()),
                Frame::Message(b"{\"x\":1}".to_vec())
            ]
        );
        let got = frames(b"content-length: abc\r\n\r\n{}\n").await;
        assert_eq!(
            got,
            vec![
                Frame::Refused(FrameError::InvalidContentLength),
                Frame::Message(b"{}".to_vec())
            ]
        );
        let big = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE_BYTES + 1);
        let mut input = big.into_bytes();
        input.extend(vec![b' '; MAX_MESSAGE_BYTES + 1]);
        input.extend_from_slice(b"{}\n");
        let got = frames(&input).await;
        assert_eq!(
            got,
            vec![
                Frame::Refused(FrameError::FrameTooLong),
                Frame::Message(b"{}".to_vec())
            ]
        );
    }

    #[tokio::test]
    async fn whitespace_lines_of_any_length_are_no_message() {
        let mut input = b" \t\r\n".to_vec();
        input.extend(vec![b' '; MAX_MESSAGE_BYTES + 10]);
        input.extend_from_slice(b"\n{}\n");
        assert_eq!(frames(&input).await, vec![Frame::Message(b"{}".to_vec())]);
    }

    #[tokio::test]
    async fn a_frame_past_the_drain_bound_is_fatal_at_once() {
        let got = frames(b"Content-Length: 18446744073709551615\r\n\r\n{}\n").await;
        assert_eq!(got, vec![Frame::Fatal(FrameError::FrameTooLong)]);
        let over = format!("Content-Length: {}\r\n\r\n", MAX_FRAME_DRAIN + 1);
        let got = frames(over.as_bytes()).await;
        assert_eq!(got, vec![Frame::Fatal(FrameError::FrameTooLong)]);
    }

    #[tokio::test]
    async fn a_frame_up_to_the_drain_bound_is_refused_then_dropped() {
        let mut input = format!("Content-Length: {MAX_FRAME_DRAIN}\r\n\r\n").into_bytes();
        input.extend(vec![b'{'; MAX_FRAME_DRAIN as usize]);
        input.extend_from_slice(b"{}\n");
        assert_eq!(
            frames(&input).await,
            vec![
                Frame::Refused(FrameError::FrameTooLong),
                Frame::Message(b"{}".to_vec())
            ]
        );
    }
}
