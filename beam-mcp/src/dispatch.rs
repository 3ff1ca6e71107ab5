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
    let (span, started, _counted) = opened(call, Some(context.meta()));
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
        ended(finished)
    }
    .instrument(span.clone())
    .await;
    record(&span, started, &ran);
    ran
}

/// A host call opened: its span (its kind and name, its outcome and duration once it ends, and
/// the W3C trace context of the request's `_meta`), when it started (read only when the span
/// or the observer is on) and its count in the observed connectome.
// Always: two callers, and a call here costs more than the span when it is off.
#[inline(always)]
fn opened(
    call: &Call,
    meta: Option<&serde_json::Map<String, serde_json::Value>>,
) -> (tracing::Span, Option<Instant>, Counted) {
    let text = |key: &str| meta?.get(key)?.as_str();
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
    let counted = Counted {
        counter: call.observed.clone(),
        started,
    };
    (span, started, counted)
}

/// How a host call ended, from what its future gave (`None`: it waits on an unanswered ask).
#[inline]
fn ended<T>(finished: Option<Result<T, String>>) -> Ran<T> {
    match finished {
        Some(Ok(value)) => Ran::Done(value),
        Some(Err(panic)) => Ran::Panicked(panic),
        None => Ran::InputRequired,
    }
}

/// Records how the call ended on its span, when the span or the observer is on.
#[inline]
fn record<T>(span: &tracing::Span, started: Option<Instant>, ran: &Ran<T>) {
    if let Some(started) = started {
        span.record("outcome", ran.label());
        span.record("duration_us", started.elapsed().as_micros() as u64);
    }
}

/// A host call after [`first_poll`].
pub(crate) enum First<T> {
    /// It ended (or stopped on an unanswered ask) at its first poll.
    Ran(Ran<T>),
    /// It waits: the rest of it, to be awaited where a real waker registers.
    Waits(Waiting<T>),
}

/// Host code that did not end at its first poll: what [`run`] holds across its awaits, movable
/// since the host's future is boxed (none of it is pinned in place).
pub(crate) struct Waiting<T> {
    running: CatchUnwind<Pin<Box<dyn Future<Output = T> + Send>>>,
    span: tracing::Span,
    started: Option<Instant>,
    counted: Counted,
    asking: Context,
}

impl<T> Waiting<T> {
    /// The rest of the call, as [`run`] would have gone on.
    pub(crate) async fn finish(self) -> Ran<T> {
        let Waiting {
            running,
            span,
            started,
            counted,
            asking,
        } = self;
        let finished = until_asked(running, &asking).instrument(span.clone()).await;
        let ran = ended(finished);
        record(&span, started, &ran);
        drop(counted);
        ran
    }
}

/// [`run`] for a call with no time limit, made in the caller's place up to its first poll
/// (with a waker that wakes nothing): host code that answers at once (most) is answered with
/// no future boxed and nothing awaited. What waits is handed back ([`First::Waits`]); its next
/// poll, where it is awaited, registers the real waker. Called within a runtime's context.
/// `meta`: the request's `_meta` (its trace context; `None` when it has no other members),
/// read where the caller keeps it (the context handed on may be [`Context::inert`]).
pub(crate) fn first_poll<T>(
    call: &Call,
    meta: Option<&serde_json::Map<String, serde_json::Value>>,
    context: Context,
    start: impl FnOnce(Context) -> Pin<Box<dyn Future<Output = T> + Send>>,
) -> First<T> {
    let (span, started, counted) = opened(call, meta);
    let asking = context.clone();
    // `Ok`: it waits; `Err`: how it ended.
    let polled = span.in_scope(|| {
        let mut running = CatchUnwind::start(|| start(context)).map_err(Ran::Panicked)?;
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match Pin::new(&mut running).poll(&mut cx) {
            std::task::Poll::Ready(finished) => Err(ended(Some(finished))),
            // An unanswered ask ends the round, as `until_asked` ends it.
            std::task::Poll::Pending if asking.round().is_some_and(|r| r.waiting()) => {
                Err(Ran::InputRequired)
            }
            std::task::Poll::Pending => Ok(running),
        }
    });
    match polled {
        Ok(running) => First::Waits(Waiting {
            running,
            span,
            started,
            counted,
            asking,
        }),
        Err(ran) => {
            record(&span, started, &ran);
            drop(counted);
            First::Ran(ran)
        }
    }
}

/// Counts a call in the observed connectome when it ends, however it ends: a cancelled call's
/// future is dropped mid-way, and is counted then.
struct Counted {
    counter: Option<Arc<Counter>>,
    started: Option<Instant>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        if let (Some(counter), Some(started)) = (&self.counter, self.started) {
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
