//! Turns a panic inside host code into a value, so one bad tool never takes the server down.
//!
//! A panic's message may hold caller text (a tool that panics with its argument). The dispatch
//! logs it once, cut and escaped; the process's panic hook would first print it raw, newlines
//! and a mebibyte included. [`quiet_hook`] (installed by the library's own `main`s) keeps the
//! hook quiet for panics in host code, which it marks while it runs, and records where the
//! panic happened for that one log line.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

thread_local! {
    /// How deep this thread is in host code the dispatch catches panics of.
    static IN_HOST_CODE: Cell<u32> = const { Cell::new(0) };
    /// Where the last panic in host code on this thread happened (set by the quiet hook).
    static PANICKED_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Marks this thread as running host code until dropped.
pub(crate) struct InHostCode(());

impl InHostCode {
    pub(crate) fn enter() -> InHostCode {
        IN_HOST_CODE.with(|depth| depth.set(depth.get() + 1));
        InHostCode(())
    }
}

impl Drop for InHostCode {
    fn drop(&mut self) {
        IN_HOST_CODE.with(|depth| depth.set(depth.get().saturating_sub(1)));
    }
}

/// Installs, once per process, a panic hook that prints nothing for a panic in host code (the
/// dispatch logs it, cut and escaped, with where it happened) and hands every other panic to
/// the hook that was there before.
#[cfg(any(feature = "stdio", feature = "http"))]
pub(crate) fn quiet_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_HOST_CODE.with(Cell::get) == 0 {
                return before(info);
            }
            let at = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()));
            PANICKED_AT.with(|cell| *cell.borrow_mut() = at);
        }));
    });
}

/// Polls the inner future, catching a panic from any poll.
pub(crate) struct CatchUnwind<F> {
    inner: F,
}

impl<F: Future + Unpin> CatchUnwind<F> {
    pub(crate) fn new(inner: F) -> Self {
        Self { inner }
    }

    /// Calls host code that returns a future; a panic in the call itself (a hand-written
    /// handler may panic before returning its future) is caught like one in the future.
    pub(crate) fn start(call: impl FnOnce() -> F) -> Result<Self, String> {
        catch(call).map(Self::new)
    }
}

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = Pin::new(&mut self.inner);
        let _host = InHostCode::enter();
        // The future is dropped after a panic, never polled again, so no broken state is seen.
        match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Err(payload) => Poll::Ready(Err(panic_message(payload.as_ref()))),
        }
    }
}

/// The panic's message, for the log only; where it happened first when the quiet hook saw it
/// (the message may be cut in the log, the place never is).
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    let message = if let Some(s) = payload.downcast_ref::<&str>() {
        *s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else {
        "a non-string panic payload"
    };
    match PANICKED_AT.with(|cell| cell.borrow_mut().take()) {
        Some(at) => format!("at {at}: {message}"),
        None => message.to_owned(),
    }
}

/// Runs synchronous host code (a completer), catching a panic.
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let _host = InHostCode::enter();
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panic_message(payload.as_ref()))
}
