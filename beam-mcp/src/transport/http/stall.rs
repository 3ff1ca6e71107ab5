//! A deadline on writes that make no progress: a client that stops reading cannot hold a
//! connection (and the answers queued for it) for ever.
//!
//! Only a write the socket does not accept is timed, never a quiet connection: a listen
//! stream may send nothing for minutes, and a slow reader that takes some bytes now and then
//! is never cut.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// Wraps a connection so that a write pending (not one byte accepted) for longer than `limit`
/// fails with [`io::ErrorKind::TimedOut`], which ends the connection.
///
/// [`serve`](super::serve) wraps every accepted connection with the endpoint's
/// [`write_timeout`](super::HttpBuilder::write_timeout); a host serving
/// [`Http::router`](super::Http::router) on its own accept loop can wrap its streams too.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// use std::time::Duration;
/// use beam_mcp::transport::http::WriteDeadline;
/// use tokio::io::AsyncWriteExt;
///
/// // A peer that never reads: its 16-byte buffer fills, then the write stalls.
/// let (ours, _theirs) = tokio::io::duplex(16);
/// let mut stream = WriteDeadline::new(ours, Duration::from_millis(50));
/// let stalled = stream.write_all(&[0u8; 64]).await.unwrap_err();
/// assert_eq!(stalled.kind(), std::io::ErrorKind::TimedOut);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct WriteDeadline<S> {
    inner: S,
    limit: Duration,
    /// Runs while a write is pending; created on the first stall and reset on each later one.
    timer: Option<Pin<Box<Sleep>>>,
    stalled: bool,
}

impl<S> WriteDeadline<S> {
    /// Wraps `inner`; a write that makes no progress for `limit` fails.
    pub fn new(inner: S, limit: Duration) -> Self {
        WriteDeadline {
            inner,
            limit,
            timer: None,
            stalled: false,
        }
    }

    /// The wrapped connection.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// What a write poll returned, with the deadline applied: a pending poll arms the timer
    /// (and fails once it has run out); a write that returns disarms it. A flush that returns
    /// does not: on a socket it writes nothing, so it is no sign the peer reads.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
        progress: bool,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            if progress {
                self.stalled = false;
            }
            return polled;
        }
        let deadline = Instant::now() + self.limit;
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if !self.stalled {
            timer.as_mut().reset(deadline);
            self.stalled = true;
        }
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the peer accepted nothing for {:?}", self.limit),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteDeadline<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch(cx, polled, true)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.watch(cx, polled, true)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch(cx, polled, false)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.watch(cx, polled, false)
    }
}

// The in-memory pipe these tests write through is tokio's `io-util`, which `stdio` turns on and
// `http` alone does not (the tested build is a host's: no dev-dependency adds it). They run in
// every build with both: the workspace's, and the feature step's `--all-features`.
#[cfg(all(test, feature = "stdio"))]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_reader_that_takes_bytes_before_the_limit_is_never_cut() {
        // Stalls of 20 ms against a 1 s limit: a busy machine stretching one stall fifty-fold
        // is not this test's business.
        let limit = Duration::from_secs(1);
        let (ours, mut theirs) = tokio::io::duplex(16);
        let mut stream = WriteDeadline::new(ours, limit);
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            let mut chunk = [0u8; 64];
            loop {
                tokio::time::sleep(Duration::from_millis(20)).await;
                match theirs.read(&mut chunk).await.unwrap() {
                    0 => return got,
                    n => got.extend_from_slice(&chunk[..n]),
                }
            }
        });
        // 64 stalls of at least 20 ms: the whole write outlasts the limit, so a deadline on the
        // write rather than on each stall would cut it.
        let started = tokio::time::Instant::now();
        stream.write_all(&[7u8; 1024]).await.unwrap();
        assert!(started.elapsed() > limit, "{:?}", started.elapsed());
        stream.shutdown().await.unwrap();
        drop(stream);
        assert_eq!(reader.await.unwrap(), vec![7u8; 1024]);
    }

    #[tokio::test]
    async fn a_quiet_connection_is_not_a_stalled_one() {
        let (ours, mut theirs) = tokio::io::duplex(16);
        let mut stream = WriteDeadline::new(ours, Duration::from_millis(50));
        stream.write_all(b"hello").await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        stream.write_all(b" world").await.unwrap();
        let mut got = [0u8; 11];
        theirs.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"hello world");
    }
}
