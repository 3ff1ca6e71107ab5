//! stdin and stdout as the stdio loop reads and writes them. A pipe (what every MCP client
//! gives a server it starts) is read and written without a blocking thread: tokio's pipe types,
//! on the runtime's event loop. Anything else (a file, a terminal, a socket) goes through
//! tokio's stdin and stdout, which hand each read and write to a blocking thread.
//!
//! Making the pipe non-blocking sets `O_NONBLOCK` on its open file description, which the
//! server's own fd 0 or 1 shares; the other end (the client's) is a description of its own.
//! stdout shared with stderr (`2>&1` into one pipe) stays blocking, so logs never see `EAGAIN`.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The server's input.
pub(crate) enum Input {
    #[cfg(unix)]
    Pipe(tokio::net::unix::pipe::Receiver),
    Std(tokio::io::Stdin),
}

/// The server's output.
pub(crate) enum Output {
    #[cfg(unix)]
    Pipe(tokio::net::unix::pipe::Sender),
    Std(tokio::io::Stdout),
}

/// stdin, as a non-blocking pipe when it is one. Must be called within the runtime.
pub(crate) fn input() -> Input {
    #[cfg(unix)]
    if let Some(pipe) = unix::stdin_pipe() {
        return Input::Pipe(pipe);
    }
    Input::Std(tokio::io::stdin())
}

/// stdout, as a non-blocking pipe when it is one of its own. Must be called within the runtime.
pub(crate) fn output() -> Output {
    #[cfg(unix)]
    if let Some(pipe) = unix::stdout_pipe() {
        return Output::Pipe(pipe);
    }
    Output::Std(tokio::io::stdout())
}

#[cfg(unix)]
mod unix {
    use std::fs::File;
    use std::os::fd::AsFd;
    use std::os::unix::fs::{FileTypeExt, MetadataExt};

    use tokio::net::unix::pipe;

    /// A new descriptor of `fd`'s open file, when that is a pipe.
    fn fifo(fd: std::os::fd::BorrowedFd<'_>) -> Option<File> {
        let file = File::from(fd.try_clone_to_owned().ok()?);
        file.metadata().ok()?.file_type().is_fifo().then_some(file)
    }

    pub(super) fn stdin_pipe() -> Option<pipe::Receiver> {
        let file = fifo(std::io::stdin().as_fd())?;
        pipe::Receiver::from_file(file).ok()
    }

    pub(super) fn stdout_pipe() -> Option<pipe::Sender> {
        let file = fifo(std::io::stdout().as_fd())?;
        let same =
            |a: &std::fs::Metadata, b: &std::fs::Metadata| a.dev() == b.dev() && a.ino() == b.ino();
        let out = file.metadata().ok()?;
        let err = File::from(std::io::stderr().as_fd().try_clone_to_owned().ok()?);
        if err.metadata().is_ok_and(|err| same(&out, &err)) {
            return None;
        }
        pipe::Sender::from_file(file).ok()
    }
}

impl AsyncRead for Input {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(unix)]
            Input::Pipe(pipe) => Pin::new(pipe).poll_read(cx, buf),
            Input::Std(stdin) => Pin::new(stdin).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Output {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            #[cfg(unix)]
            Output::Pipe(pipe) => Pin::new(pipe).poll_write(cx, buf),
            Output::Std(stdout) => Pin::new(stdout).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(unix)]
            Output::Pipe(pipe) => Pin::new(pipe).poll_flush(cx),
            Output::Std(stdout) => Pin::new(stdout).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(unix)]
            Output::Pipe(pipe) => Pin::new(pipe).poll_shutdown(cx),
            Output::Std(stdout) => Pin::new(stdout).poll_shutdown(cx),
        }
    }
}
