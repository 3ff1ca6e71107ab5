//! stdin and stdout as descriptors that may have been left non-blocking.

use std::io;

use tokio::runtime::Handle;

/// stdin or stdout that waits when its descriptor was left non-blocking (an open file
/// description shared with a parent that set `O_NONBLOCK`): `EAGAIN` is waited out on the
/// runtime's event loop, not taken for an error. Blocking descriptors (what clients give the
/// servers they start) never take that path.
pub(super) struct Waiting<T> {
    io: T,
    handle: Handle,
    #[cfg(unix)]
    registered: Option<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>>,
}

impl<T> Waiting<T> {
    pub(super) fn new(io: T, handle: Handle) -> Self {
        Waiting {
            io,
            handle,
            #[cfg(unix)]
            registered: None,
        }
    }

    /// The descriptor itself: an attempt on it that would block says so.
    pub(super) fn get_mut(&mut self) -> &mut T {
        &mut self.io
    }

    /// Retries `attempt` until it is neither interrupted nor refused as would-block.
    fn retry<U>(
        &mut self,
        writing: bool,
        mut attempt: impl FnMut(&mut T) -> io::Result<U>,
    ) -> io::Result<U>
    where
        T: Descriptor,
    {
        loop {
            match attempt(&mut self.io) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => self.wait(writing)?,
                other => return other,
            }
        }
    }

    #[cfg(unix)]
    fn wait(&mut self, writing: bool) -> io::Result<()>
    where
        T: Descriptor,
    {
        use tokio::io::Interest;
        use tokio::io::unix::AsyncFd;
        let _entered = self.handle.enter();
        if self.registered.is_none() {
            let fd = self.io.descriptor().try_clone_to_owned()?;
            let interest = if writing {
                Interest::WRITABLE
            } else {
                Interest::READABLE
            };
            // An `OwnedFd` stays the same open descriptor for as long as it is registered: the
            // I/O safety the deprecation asks for, without the `unsafe` of its replacement.
            #[allow(deprecated, reason = "sound for an OwnedFd; the crate forbids unsafe")]
            let registered = AsyncFd::with_interest(fd, interest)?;
            self.registered = Some(registered);
        }
        let Some(fd) = self.registered.as_ref() else {
            return Ok(());
        };
        self.handle.block_on(async {
            let mut guard = if writing {
                fd.writable().await?
            } else {
                fd.readable().await?
            };
            // The next attempt says whether it really is ready.
            guard.clear_ready();
            Ok(())
        })
    }

    #[cfg(not(unix))]
    fn wait(&mut self, _: bool) -> io::Result<()> {
        // Handles elsewhere do not refuse as would-block; should one, the attempt is made again.
        std::thread::yield_now();
        Ok(())
    }
}

/// What can be waited on.
#[cfg(unix)]
pub(super) trait Descriptor: std::os::fd::AsFd {
    fn descriptor(&self) -> std::os::fd::BorrowedFd<'_> {
        self.as_fd()
    }
}

#[cfg(unix)]
impl<T: std::os::fd::AsFd> Descriptor for T {}

#[cfg(not(unix))]
pub(super) trait Descriptor {}

#[cfg(not(unix))]
impl<T> Descriptor for T {}

impl<T: io::Read + Descriptor> io::Read for Waiting<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.retry(false, |io| io.read(buf))
    }
}

impl<T: io::Write + Descriptor> io::Write for Waiting<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.retry(true, |io| io.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.retry(true, io::Write::flush)
    }
}
