//! The one place host code is called: panics caught, time limits applied, one `tracing` span
//! per call (item kind, name, outcome, duration; the W3C `traceparent`/`tracestate` of the
//! request's `_meta` as fields, for an OpenTelemetry layer to adopt as the parent).
//! Cancellation is the caller's: it drops the future this returns.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tracing::Instrument as _;
use tracing::field::Empty;

use crate::connectome::Counter;
use crate::context::Context;
use crate::panic::CatchUnwind;

/// How a host call ended.
pub(crate) enum Ran<T> {
    /// It returned.
    Done(T),
    /// It panicked (the message is for the log).
    Panicked(String),
    /// It overran its time limit.
    TimedOut(Duration),
    /// It waits on asks the client has not answered (2026-07-28): the round ends, and the
    /// context's round says what to ask.
    InputRequired,
}

impl<T> Ran<T> {
    fn label(&self) -> &'static str {
        match self {
            Ran::Done(_) => "done",
            Ran::Panicked(_) => "panicked",
            Ran::TimedOut(_) => "timed_out",
            Ran::InputRequired => "input_required",
        }
    }
}

/// One host call: what it is, and its time limit.
pub(crate) struct Call {
    pub(crate) kind: &'static str,
    pub(crate) name: Arc<str>,
    pub(crate) limit: Option<Duration>,
    /// The observed connectome's counter for this item, when an observer records.
    pub(crate) observed: Option<Arc<Counter>>,
}

/// Runs host code that returns a boxed future, handing it the request's context: a panic while
/// making the future or while polling it, and an overrun of the limit, become values.
pub(crate) async fn run<T>(
    call: &Call,
    context: Context,
    start: impl FnOnce(Context) -> Pin<Box<dyn Future<Output = T> + Send>>,
) -> Ran<T> {
    let meta = context.meta();
    let text = |key: &str| meta.get(key).and_then(|v| v.as_str());
    let span = tracing::info_span!(
        "mcp.call",
        kind = call.kind,
        name = %call.name,
        outcome = Empty,
        duration_us = Empty,
        traceparent = text("traceparent"),
        tracestate = text("tracestate"),
    );
    let started = (!span.is_disabled() || call.observed.is_some()).then(Instant::now);
    let _counted = Counted {
        counter: call.observed.as_deref(),
        started,
    };
    // What a timed-out call still running on the blocking pool sees as `is_cancelled()`.
    let on_timeout = call.limit.map(|_| context.clone());
    let asking = context.clone();
    let ran = async {
        let running = match CatchUnwind::start(|| start(context)) {
            Ok(running) => running,
            Err(panic) => return Ran::Panicked(panic),
        };
        let running = until_asked(running, &asking);
        let finished = match call.limit {
            None => running.await,
            // Boxed: a timer is large, and inline it would grow every call's future (moved
            // whole into the box that holds a request's host work) for the few with a limit.
            Some(limit) => match Box::pin(tokio::time::timeout(limit, running)).await {
                Ok(finished) => finished,
                Err(_) => {
                    if let Some(context) = &on_timeout {
                        context.cancel();
                    }
                    return Ran::TimedOut(limit);
                }
            },
        };
        match finished {
            Some(Ok(value)) => Ran::Done(value),
            Some(Err(panic)) => Ran::Panicked(panic),
            None => Ran::InputRequired,
        }
    }
    .instrument(span.clone())
    .await;
    if let Some(started) = started {
        span.record("outcome", ran.label());
        span.record("duration_us", started.elapsed().as_micros() as u64);
    }
    ran
}

/// Counts a call in the observed connectome when it ends, however it ends: a cancelled call's
/// future is dropped mid-way, and is counted then.
struct Counted<'c> {
    counter: Option<&'c Counter>,
    started: Option<Instant>,
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        if let (Some(counter), Some(started)) = (self.counter, self.started) {
            counter.record(started.elapsed());
        }
    }
}

/// How a call that may become a task went on its first poll.
pub(crate) enum Detached<T> {
    /// It ended (or stopped on asks) at once: answered as a plain call.
    Ran(Ran<T>),
    /// It waits: the rest of the call, for a task to run in the background.
    Waits(Pin<Box<dyn Future<Output = Ran<T>> + Send>>),
}

/// [`run`], for a call that becomes a task the first time it waits on anything but an
/// unanswered ask (which ends the round instead, as in any call).
pub(crate) async fn run_or_detach<T: Send + 'static>(
    call: Call,
    context: Context,
    start: impl FnOnce(Context) -> Pin<Box<dyn Future<Output = T> + Send>> + Send + 'static,
) -> Detached<T> {
    let mut running: Pin<Box<dyn Future<Output = Ran<T>> + Send>> =
        Box::pin(async move { run(&call, context, start).await });
    let first = std::future::poll_fn(|cx| match running.as_mut().poll(cx) {
        std::task::Poll::Ready(ran) => std::task::Poll::Ready(Some(ran)),
        std::task::Poll::Pending => std::task::Poll::Ready(None),
    })
    .await;
    match first {
        Some(ran) => Detached::Ran(ran),
        None => Detached::Waits(running),
    }
}

/// `running`, ended (`None`) as soon as it is pending while an ask of this request waits for
/// the client: an unanswered ask never resumes within the round.
async fn until_asked<T>(running: impl Future<Output = T>, context: &Context) -> Option<T> {
    let mut running = std::pin::pin!(running);
    std::future::poll_fn(|cx| match running.as_mut().poll(cx) {
        std::task::Poll::Ready(value) => std::task::Poll::Ready(Some(value)),
        std::task::Poll::Pending if context.round().is_some_and(|r| r.waiting()) => {
            std::task::Poll::Ready(None)
        }
        std::task::Poll::Pending => std::task::Poll::Pending,
    })
    .await
}

/// Runs a synchronous host function on the blocking pool, so it can hold up neither the timer
/// nor other requests; a panic there resumes here, where the dispatch catches it. Outside a tokio
/// runtime it runs in place.
pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => match runtime.spawn_blocking(|| crate::panic::catch(f)).await {
            Ok(Ok(value)) => value,
            // Resumed as its message, which holds where it happened on the pool's thread.
            Ok(Err(panic)) => std::panic::resume_unwind(Box::new(panic)),
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            // The runtime is shutting down; the caller is being dropped anyway.
            Err(_) => std::future::pending().await,
        },
        Err(_) => f(),
    }
}
