//! One request's outbound stream: its notifications, then exactly one response, then nothing.

use serde_json::Value;

use super::answer::{Ended, HostWork};
use super::request::{Begun, Era};
use super::response::Response;
use super::session::Registration;
#[cfg(feature = "stdio")]
use super::session::Session;
use crate::context::Context;
use crate::context::Outbox;
use crate::server::Server;

/// A message a request sends its client.
#[derive(Debug, Clone, PartialEq)]
pub enum Outbound {
    /// A notification that belongs to the request (`notifications/progress`,
    /// `notifications/message`, or one of a `subscriptions/listen` stream), as a JSON-RPC
    /// notification object.
    Notification(Value),
    /// The response; always the last message.
    Response(Response),
}

impl Outbound {
    /// Appends the compact JSON form to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        match self {
            Outbound::Notification(message) => {
                if serde_json::to_writer(&mut *out, message).is_err() {
                    out.extend_from_slice(b"null");
                }
            }
            Outbound::Response(response) => response.write_to(out),
        }
    }
}

/// A request whose answer needs host code: a stream of [`Outbound`] messages, read with
/// [`next`](Exchange::next), that the transport writes in order. Dropping it cancels the
/// request: the host future is dropped and nothing more is sent.
///
/// ```
/// # async fn demo(server: beam_mcp::Server) {
/// use beam_mcp::protocol::{Outbound, Reply, Session};
/// let session = Session::new();
/// let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p"}}}"#;
/// if let Reply::Pending(mut exchange) = server.handle(&session, call) {
///     while let Some(message) = exchange.next().await {
///         match message {
///             Outbound::Notification(n) => println!("{n}"),
///             Outbound::Response(r) => println!("{}", r.to_json()),
///         }
///     }
/// }
/// # }
/// ```
pub struct Exchange {
    work: Option<HostWork>,
    /// Who answers once the work has its outcome: the core, with the request's id and era.
    answerer: Answerer,
    /// The response, held back while notifications queued before it are written. Boxed: it is
    /// rarely there, and inline it would double the size of every [`Reply`](super::Reply).
    held: Option<Box<Response>>,
    /// The request's context: its notification queue and its cancellation flag.
    context: Context,
    finished: bool,
    /// Where the session finds the request to cancel it, while it runs.
    _registration: Option<Registration>,
    /// Not registered yet: the transport registers it if it goes on ([`Exchange::register`]).
    #[cfg_attr(
        not(feature = "stdio"),
        allow(dead_code, reason = "only stdio's reader registers late")
    )]
    late: bool,
}

impl Exchange {
    pub(crate) fn new(work: HostWork, answerer: Answerer, begun: Begun) -> Self {
        Exchange {
            work: Some(work),
            answerer,
            held: None,
            context: begun.context,
            finished: false,
            _registration: begun.registration,
            late: begun.late,
        }
    }

    /// Registers the request with `session` (where `notifications/cancelled` and the end of
    /// the connection find it), when the core left it to the transport: called before the
    /// transport reads another message, once the request goes on past
    /// [`answer_now`](Self::answer_now) or waits for a slot.
    #[cfg(feature = "stdio")]
    pub(crate) fn register(&mut self, session: &Session) {
        if std::mem::take(&mut self.late) && !self.finished {
            self._registration = session.register(&self.answerer.id, &self.context);
        }
    }

    /// True when the request may send notifications before its response (it asked for
    /// progress or logs, or is a subscription): over HTTP, the answer is an event stream.
    pub fn streams(&self) -> bool {
        self.context.outbox().is_some()
    }

    /// Holds `place` (a transport's in-flight slot) while the request works: it is given back
    /// when the request waits on its client (an ask on a 2025-11-25 session: waiting is no
    /// work, and the answer that ends the wait must find the endpoint open) or ends.
    #[cfg(feature = "http")]
    pub(crate) fn occupy(&self, place: impl Send + 'static) {
        self.context.occupy(Box::new(place));
    }

    /// Cancels the request: the host future is dropped at the next [`next`](Self::next), and
    /// nothing more is sent.
    pub fn cancel(&self) {
        self.context.cancel();
    }

    /// The next message, or `None` once the response was given or the request was cancelled.
    pub async fn next(&mut self) -> Option<Outbound> {
        loop {
            if self.finished {
                return None;
            }
            // A response already produced is still given (with what was queued before it): a
            // cancel that comes after it, or a time limit that cancelled the host code, races
            // it harmlessly.
            if self.held.is_none() && self.context.is_cancelled() {
                self.stop();
                return None;
            }
            if let Some(message) = self.context.outbox().and_then(Outbox::pop) {
                return Some(Outbound::Notification(message));
            }
            if let Some(response) = self.held.take() {
                self.finished = true;
                return Some(Outbound::Response(*response));
            }
            let Some(work) = self.work.as_mut() else {
                self.finished = true;
                return None;
            };
            let context = &self.context;
            let pushed = async {
                match context.outbox() {
                    Some(outbox) => outbox.pushed().await,
                    None => std::future::pending().await,
                }
            };
            // The work first: an answer ready at once costs no waiting on the other two.
            let woke = tokio::select! {
                biased;
                outcome = work => Woke::Answered(outcome),
                () = context.cancelled() => Woke::Cancelled,
                () = pushed => Woke::Pushed,
            };
            match woke {
                Woke::Cancelled => {
                    self.stop();
                    return None;
                }
                Woke::Answered(outcome) => {
                    self.work = None;
                    let response = self.answerer.respond(outcome);
                    self.context.give_back_place();
                    // Nothing may follow the response, even from a clone of the context.
                    if let Some(outbox) = self.context.outbox() {
                        let dropped = outbox.close();
                        if dropped > 0 {
                            tracing::warn!(
                                dropped,
                                "notifications dropped: the client read too slowly"
                            );
                        }
                    }
                    if self.context.outbox().is_none_or(Outbox::is_empty) {
                        self.finished = true;
                        return Some(Outbound::Response(response));
                    }
                    self.held = Some(Box::new(response));
                }
                Woke::Pushed => {}
            }
        }
    }

    /// The response, when the host code answers at its first poll and the request sends nothing
    /// before it (it asked for no progress or logs): a transport writes it without handing the
    /// exchange to a task of its own. Otherwise `None`, and the exchange is driven by
    /// [`next`](Self::next) as before (its work was polled once; the next poll registers the
    /// real waker).
    // The stdio read loop and the HTTP handler answer inline; a build with neither would carry
    // dead code.
    #[cfg(any(feature = "stdio", feature = "http"))]
    pub(crate) fn answer_now(&mut self) -> Option<Response> {
        if self.finished || self.held.is_some() || self.streams() || self.context.is_cancelled() {
            return None;
        }
        let work = self.work.as_mut()?;
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match work.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(outcome) => {
                self.work = None;
                self.finished = true;
                Some(self.answerer.respond(outcome))
            }
            std::task::Poll::Pending => None,
        }
    }

    /// Waits for the response, discarding notifications.
    pub async fn response(mut self) -> Option<Response> {
        while let Some(message) = self.next().await {
            if let Outbound::Response(response) = message {
                return Some(response);
            }
        }
        None
    }

    fn stop(&mut self) {
        self.work = None;
        self.context.give_back_place();
        self.held = None;
        self.finished = true;
        if let Some(outbox) = self.context.outbox() {
            outbox.close();
        }
    }
}

enum Woke {
    Cancelled,
    Answered(Ended),
    Pushed,
}

/// The core's answer to one request, written when its work ends.
pub(crate) struct Answerer {
    pub(crate) server: Server,
    pub(crate) id: Value,
    pub(crate) era: Era,
}

impl Answerer {
    /// Called once: the work ends once.
    fn respond(&mut self, outcome: Ended) -> Response {
        self.server
            .respond(std::mem::take(&mut self.id), self.era, outcome)
    }
}

impl Drop for Exchange {
    fn drop(&mut self) {
        if !self.finished {
            // The transport gave up on the request (a closed stream): so does the host code.
            self.context.cancel();
            self.stop();
        }
    }
}

impl std::fmt::Debug for Exchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exchange")
            .field("streams", &self.streams())
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}
