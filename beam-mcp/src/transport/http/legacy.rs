//! The 2025-11-25 era on the same endpoint (DIGEST B4): `initialize` opens a session named by
//! `Mcp-Session-Id`; POSTs on it are answered with JSON or an event stream whose events carry
//! ids and are kept for resumption; GET opens the session's own stream; DELETE ends it.
//! Or, in the stateless legacy mode, each request stands alone and no id is issued.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response as HttpResponse;
use serde_json::Value;
use tokio::sync::mpsc;

use super::events::{EventStore, ResumeError, StoredEvent, forgotten};
use super::load::{Places, busy};
use super::refusal::HttpRefusal;
use super::sessions::{Entry, Lookup, Sessions};
use super::sse::{self, Event};
use super::status::{self, Wire};
use super::{Endpoint, empty, reply};
use crate::Server;
use crate::context::{CancelFlag, Principal};
use crate::middleware::Via;
use crate::protocol::door::Door;
use crate::protocol::envelope::Envelope;
use crate::protocol::{Exchange, Logged, ProtocolError, Reply, Revision, Session};

const SESSION_ID: &str = "mcp-session-id";
const VERSION: &str = "mcp-protocol-version";
const LAST_EVENT_ID: &str = "last-event-id";

/// How long a client told to come back at the session bound should wait.
const RETRY_AFTER_SECONDS: &str = "30";

/// How the endpoint serves 2025-11-25 clients.
pub(crate) enum Legacy {
    /// Sessions in this process (or shared with other replicas), with resumable streams.
    Sessions {
        sessions: Arc<Sessions>,
        store: Arc<dyn EventStore>,
    },
    /// No sessions: each request stands alone (replicas behind a balancer).
    Stateless,
}

/// A 2025-11-25 message's rules: no session control (DELETE ends a session), anything that is
/// no message refused, responses to the server's requests taken. The SEP-2243 headers do not
/// apply to this era.
pub(super) struct LegacyRules<'p> {
    parts: &'p Parts,
    session_id: Option<&'p str>,
}

impl Door for LegacyRules<'_> {
    fn via(&self) -> Via {
        let parts = self.parts;
        super::headers::via(
            &parts.headers,
            &parts.extensions,
            parts.version,
            self.session_id,
        )
    }

    fn has_session_control(&self) -> bool {
        false
    }

    fn refuses_non_messages(&self) -> bool {
        true
    }
}

fn text_header<'p>(parts: &'p Parts, name: &str) -> Option<&'p str> {
    parts
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
}

/// The methods that need a session, refused in the stateless legacy mode.
fn needs_session(method: &str) -> bool {
    matches!(
        method,
        "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe"
    )
}

/// A POST classified as 2025-11-25.
pub(super) async fn post(
    endpoint: &Endpoint,
    legacy: &Legacy,
    parts: &Parts,
    message: Envelope,
    principal: Principal,
) -> HttpResponse {
    let server = &endpoint.server;
    let places = (&endpoint.in_flight, principal.share_key());
    // After initialize the client names the negotiated version; one this server does not serve
    // at 2025-11-25 or before is refused (a missing header means 2025-03-26: served alike).
    if let Some(version) = text_header(parts, VERSION)
        && !Revision::parse(version)
            .is_some_and(|r| !r.is_stateless() && server.inner.revisions.contains(&r))
    {
        return reply(400, None, server.unsupported(version), false);
    }
    // A malformed envelope is the core's to refuse, before any session is looked up.
    if !message.is_well_formed() {
        let alone = Arc::new(Session::single_request());
        return answer(server, parts, &alone, message, None, None, places).await;
    }
    let method = message.method().map(str::to_owned);
    let is_request = message.is_request();
    match legacy {
        Legacy::Stateless => {
            if let Some(method) = method.as_deref().filter(|m| is_request && needs_session(m)) {
                let id = message.id().cloned();
                let error = HttpRefusal::NeedsSession(method.to_owned());
                return reply(400, id, error, false);
            }
            let session = Arc::new(Session::single_request().with_principal_arc(principal));
            answer(server, parts, &session, message, None, None, places).await
        }
        Legacy::Sessions { sessions, store } => {
            if is_request && method.as_deref() == Some("initialize") {
                let digest = Some(principal.digest());
                let share = principal.share_key();
                let session = Session::new().with_principal_arc(principal);
                let message_id = message.id().cloned();
                let Some(entry) = sessions.open(session, digest, share) else {
                    tracing::warn!("the session bound is reached: initialize refused with 503");
                    return sessions_full(message_id);
                };
                entry.time(server.time_session(entry.session.agreed_revision(), || {
                    super::headers::via(
                        &parts.headers,
                        &parts.extensions,
                        parts.version,
                        Some(&entry.id),
                    )
                }));
                let mut response =
                    answer(server, parts, &entry.session, message, None, None, places).await;
                if response.status() == StatusCode::OK
                    && let Ok(value) = HeaderValue::from_str(&entry.id)
                {
                    // Shared, the session exists once the store holds it (the client's next
                    // request may reach another replica), counted in its principal's share
                    // across the replicas.
                    if let Some(share) = sessions.share() {
                        let record = super::sessions::record(&entry);
                        match share
                            .open(record, sessions.idle(), sessions.most_per_principal())
                            .await
                        {
                            Ok(true) => {}
                            Ok(false) => {
                                tracing::warn!(
                                    "the principal holds its share of the sessions across the replicas: initialize refused with 503"
                                );
                                sessions.remove(&entry.id);
                                return sessions_full(message_id);
                            }
                            Err(error) => {
                                tracing::error!(detail = %Logged(error.detail()), "a session was not kept in the store: initialize refused with 503");
                                sessions.remove(&entry.id);
                                // It may have been kept all the same (an answer that came too
                                // late): ended again in the background, so that it holds no
                                // place in its principal's share.
                                let ended =
                                    share.change(&entry.id, crate::store::SessionRelay::Ended);
                                tokio::spawn(async move { drop(ended.await) });
                                return super::load::store_unavailable();
                            }
                        }
                    }
                    response.headers_mut().insert(SESSION_ID, value);
                } else {
                    sessions.remove(&entry.id);
                }
                return response;
            }
            let id = message.id().cloned();
            let entry = match find(sessions, parts, &principal, id.clone(), server).await {
                Ok(entry) => entry,
                Err(refused) => return *refused,
            };
            // What must reach the other replicas serving the session, read before the core
            // takes the message.
            let relay = sessions.share().and_then(|_| Relay::of(&message, &entry));
            // A disconnect does not cancel a request of this era, so the work one session
            // keeps running is bounded here: checked and started in one step, so concurrent
            // requests at the bound cannot all pass.
            let bound = if is_request {
                server.inner.limits.in_flight
            } else {
                usize::MAX
            };
            // The session is this caller's (issuer and subject), but what this request may do is
            // what its own token says: a refreshed token's scopes (stepped up or narrowed) hold
            // from its first request.
            let session = entry.session.acting_as(principal);
            let handled = entry.admit(bound, || {
                let rules = LegacyRules {
                    parts,
                    session_id: Some(&entry.id),
                };
                server.handle_envelope(&session, message, &rules)
            });
            let Some(handled) = handled else {
                let mut refused = reply(503, id, HttpRefusal::SessionBusy, false);
                refused.headers_mut().insert(
                    header::RETRY_AFTER,
                    HeaderValue::from_static(RETRY_AFTER_SECONDS),
                );
                return refused;
            };
            if let (Some(relay), Some(share)) = (relay, sessions.share())
                && let Err(error) = relay.send(share.as_ref(), &entry).await
            {
                tracing::error!(detail = %Logged(error.detail()), "a session's change did not reach the store: refused with 503");
                drop(handled);
                return super::load::store_unavailable();
            }
            deliver(handled, id, Some(&entry), Some(store), places).await
        }
    }
}

/// What a message of a shared session changes that the other replicas serving it must know.
enum Relay {
    /// A response to a request this replica did not send: the one that did waits for it.
    Response(serde_json::Map<String, Value>),
    /// A cancellation: the request may run elsewhere.
    Cancelled(serde_json::Map<String, Value>),
    /// A method that changes the session's record: what changed is read after the core ran it.
    Record {
        level: Option<crate::context::LogLevel>,
        subscriptions: Vec<String>,
    },
}

impl Relay {
    fn of(message: &Envelope, entry: &Entry) -> Option<Relay> {
        if message.is_response() {
            // Only a response to an id another replica could have sent travels: the ids this
            // replica numbers its requests with are its own, answered or late.
            let id = message.id()?;
            let requests = entry.session.client_requests();
            if requests.numbers(id) || id.as_u64().is_none() {
                return None;
            }
            return message.response_object().map(Relay::Response);
        }
        match message.method()? {
            "notifications/cancelled" => message.params_map().map(Relay::Cancelled),
            "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => {
                Some(Relay::Record {
                    level: entry.session.log_level_set(),
                    subscriptions: entry.session.subscriptions(),
                })
            }
            _ => None,
        }
    }

    /// Tells the store, once the core handled the message: the record's change is kept before
    /// the client hears the answer, so its next request, wherever it lands, sees it.
    async fn send(
        self,
        share: &dyn crate::store::SessionShare,
        entry: &Entry,
    ) -> Result<(), crate::store::StoreError> {
        use crate::store::SessionRelay;
        let id = &entry.id;
        match self {
            Relay::Response(message) => share.change(id, SessionRelay::Response(message)).await,
            Relay::Cancelled(params) => share.change(id, SessionRelay::Cancelled(params)).await,
            Relay::Record {
                level,
                subscriptions,
            } => {
                let now = entry.session.log_level_set();
                if let Some(set) = now.filter(|set| Some(*set) != level) {
                    share.change(id, SessionRelay::LogLevel(set)).await?;
                }
                let after = entry.session.subscriptions();
                for uri in subscriptions.iter().filter(|u| !after.contains(u)) {
                    share
                        .change(id, SessionRelay::Subscribed(uri.clone(), false))
                        .await?;
                }
                for uri in after.iter().filter(|u| !subscriptions.contains(u)) {
                    share
                        .change(id, SessionRelay::Subscribed(uri.clone(), true))
                        .await?;
                }
                Ok(())
            }
        }
    }
}

/// The endpoint's sessions and store, and the session a request names.
type Named<'l> = (&'l Sessions, &'l Arc<dyn EventStore>, Arc<Entry>);

/// The session a GET or DELETE names, with the endpoint's sessions and store; 405 where the
/// endpoint keeps no sessions (the stateless legacy mode).
async fn named_session<'l>(
    legacy: &'l Legacy,
    parts: &Parts,
    principal: &Principal,
    method: &str,
    server: &Server,
) -> Result<Named<'l>, Box<HttpResponse>> {
    let Legacy::Sessions { sessions, store } = legacy else {
        let error = HttpRefusal::HttpMethodNotAllowed(method.to_owned());
        return Err(Box::new(reply(405, None, error, false)));
    };
    let entry = find(sessions, parts, principal, None, server).await?;
    Ok((sessions, store, entry))
}

/// The session a request names, or the refusal: 400 without an id, 404 for one that is not
/// (or no longer, or not this caller's) a session; where sessions are shared, 503 when the
/// store does not answer or this replica has no room for one opened elsewhere.
async fn find(
    sessions: &Sessions,
    parts: &Parts,
    principal: &Principal,
    request: Option<Value>,
    server: &Server,
) -> Result<Arc<Entry>, Box<HttpResponse>> {
    let Some(id) = text_header(parts, SESSION_ID) else {
        return Err(Box::new(reply(
            400,
            request,
            HttpRefusal::SessionIdMissing,
            false,
        )));
    };
    match sessions
        .find_shared(id, Some(principal.digest()), server)
        .await
    {
        Ok(entry) => Ok(entry),
        Err(Lookup::NotFound) => Err(Box::new(reply(
            404,
            request,
            HttpRefusal::SessionNotFound,
            false,
        ))),
        Err(Lookup::Store(error)) => {
            tracing::error!(detail = %Logged(error.detail()), "the session store could not answer: refused with 503");
            Err(Box::new(super::load::store_unavailable()))
        }
        Err(Lookup::Full) => {
            tracing::warn!("no room here for a session opened elsewhere: refused with 503");
            Err(Box::new(sessions_full(request)))
        }
    }
}

/// 503 with `Retry-After: 30`: no room for another session (at the bound, or past the
/// principal's share).
fn sessions_full(request: Option<Value>) -> HttpResponse {
    let mut refused = reply(503, request, HttpRefusal::SessionsFull, false);
    refused.headers_mut().insert(
        header::RETRY_AFTER,
        HeaderValue::from_static(RETRY_AFTER_SECONDS),
    );
    refused
}

/// The core answers on the session: a request's response is 200 (a JSON-RPC error is the
/// answer), a refused envelope 400, a notification or a response 202.
async fn answer(
    server: &Server,
    parts: &Parts,
    session: &Arc<Session>,
    message: Envelope,
    entry: Option<&Arc<Entry>>,
    store: Option<&Arc<dyn EventStore>>,
    places: (&Places, Option<u64>),
) -> HttpResponse {
    let id = message.id().cloned();
    let rules = LegacyRules {
        parts,
        session_id: entry.map(|e| e.id.as_str()),
    };
    let answered = server.handle_envelope(session, message, &rules);
    deliver(answered, id, entry, store, places).await
}

/// What the core answered, as HTTP: see [`answer`].
async fn deliver(
    answered: Reply,
    id: Option<Value>,
    entry: Option<&Arc<Entry>>,
    store: Option<&Arc<dyn EventStore>>,
    places: (&Places, Option<u64>),
) -> HttpResponse {
    // A DELETE that ended the session while this request was being read: the request is
    // dropped (cancelling it), as the session's others were.
    if entry.is_some_and(|e| e.is_gone()) {
        drop(answered);
        return reply(404, None, HttpRefusal::SessionNotFound, false);
    }
    let exchange = match answered {
        Reply::Silent => return empty(202),
        Reply::Ready(response) => return status::respond(&response, Wire::Sessions),
        Reply::Pending(exchange) => exchange,
    };
    let (places, key) = places;
    let slot = match places.take(key) {
        Ok(slot) => slot,
        Err(full) => {
            tracing::debug!(?full, "no in-flight place: refused with 503");
            return busy(id);
        }
    };
    if exchange.streams() {
        match (entry, store) {
            (Some(entry), Some(store)) => {
                // The slot goes with the work, not with the connection: a client that leaves
                // does not free a place while the call it started still runs, and the call
                // gives it back while it waits on its client.
                exchange.occupy(slot);
                stream(Arc::clone(entry), Arc::clone(store), exchange)
            }
            _ => slot.hold_until_sent(sse::response(exchange, Wire::Sessions).await),
        }
    } else {
        let response = match exchange.response().await {
            Some(response) => status::respond(&response, Wire::Sessions),
            None => reply(500, None, ProtocolError::Internal, false),
        };
        slot.hold_until_sent(response)
    }
}

/// A POST's event stream on a session: a priming event, then each message with an id
/// `<stream>-<seq>`, each kept in the store. The client going away does not cancel the request
/// (2025-11-25): its remaining messages are kept for a GET with `Last-Event-ID`.
///
fn stream(entry: Arc<Entry>, store: Arc<dyn EventStore>, mut exchange: Exchange) -> HttpResponse {
    let number = entry.open_stream();
    let (tx, rx) = mpsc::channel::<Bytes>(sse::BUFFER);
    tokio::spawn(async move {
        let mut connected = tx.send(Event::priming(number, 0)).await.is_ok();
        let mut seq = 0;
        while let Some(message) = exchange.next().await {
            seq += 1;
            let mut data = Vec::with_capacity(256);
            message.write_to(&mut data);
            let data = Bytes::from(data);
            let event = StoredEvent {
                stream: number,
                seq,
                data: data.clone(),
            };
            if keep(store.as_ref(), &entry, event).await {
                entry.touch();
            }
            entry.stored.notify_waiters();
            // A resumption took the stream over: this connection sends nothing more.
            connected = connected && entry.holds(number, 0);
            if connected {
                connected = tx
                    .send(Event::message(Some((number, seq)), &data))
                    .await
                    .is_ok();
            }
        }
        entry.end_stream(number);
    });
    sse::stream_response(rx)
}

/// GET with a session id: the session's own stream (one at a time), or with `Last-Event-ID`
/// a resumption of any of its streams.
pub(super) async fn get(
    legacy: &Legacy,
    parts: &Parts,
    principal: &Principal,
    endpoint: &Endpoint,
) -> HttpResponse {
    // A GET stream, resumed or not, waits without working and holds a connection: it takes a
    // place among the streams, in its principal's share, until its last byte is written. The
    // place is taken first, so a refused GET takes no stream over.
    let slot = match super::stream_lease::take(endpoint, principal.share_key(), None).await {
        Ok(slot) => slot,
        Err(refused) => return refused,
    };
    let response = get_stream(legacy, parts, principal, endpoint).await;
    if response.status() == StatusCode::OK {
        slot.hold_until_sent(response)
    } else {
        response
    }
}

async fn get_stream(
    legacy: &Legacy,
    parts: &Parts,
    principal: &Principal,
    endpoint: &Endpoint,
) -> HttpResponse {
    let (sessions, store, entry) =
        match named_session(legacy, parts, principal, "GET", &endpoint.server).await {
            Ok(named) => named,
            Err(refused) => return *refused,
        };
    let accepts = text_header(parts, header::ACCEPT.as_str())
        .is_some_and(|a| a.contains("text/event-stream") || a.contains("*/*"));
    if !accepts {
        return reply(406, None, HttpRefusal::NotAcceptable, false);
    }
    let resume_from = match text_header(parts, LAST_EVENT_ID) {
        None => None,
        Some(last) => match parse_event_id(last) {
            Some(at) => Some(at),
            None => {
                return reply(
                    400,
                    None,
                    HttpRefusal::LastEventId(last.to_owned(), "is not an event id of this server"),
                    false,
                );
            }
        },
    };
    let own = entry.get_stream();
    let (stream, after) = resume_from.unwrap_or((own, u64::MAX));
    match entry.stream_state(stream) {
        Some(_) if stream != own => return resume(entry, Arc::clone(store), stream, after).await,
        Some(_) => {}
        // A stream another replica serves (or served): a POST's is read from the store as it
        // goes on; another replica's GET stream (a base: low 32 bits zero) is replayed, and this
        // replica's own GET stream follows.
        None if sessions.share().is_some() && stream & 0xffff_ffff != 0 => {
            return resume_elsewhere(entry, Arc::clone(store), stream, after, sessions.idle())
                .await;
        }
        None if sessions.share().is_some() => {}
        None => {
            return last_event_id_refused(stream, after, NO_STREAM);
        }
    }
    // The session's own stream, taken over from any earlier GET (which may be a connection
    // that died without a word): claimed first, so no event falls between the two; where
    // sessions are shared, a GET held by another replica ends too.
    let reader = entry.claim(own);
    if let Some(share) = sessions.share() {
        let listening = share.change(&entry.id, crate::store::SessionRelay::Listening);
        tokio::spawn(async move {
            if let Err(error) = listening.await {
                tracing::warn!(detail = %Logged(error.detail()), "other replicas were not told of a new GET stream");
            }
        });
    }
    let missed = match resume_from {
        None => Vec::new(),
        Some((stream, after)) => match held(store.as_ref(), &entry, stream, after).await {
            Ok(missed) => missed,
            Err(refused) => return *refused,
        },
    };
    // Resuming this stream, the priming event is the resume point itself; otherwise (or
    // resuming another replica's) this stream's newest event.
    let primed = match resume_from {
        Some((stream, after)) if stream == own => after,
        _ => entry.get_seq(),
    };
    entry.listening.fetch_add(1, Ordering::AcqRel);
    let (tx, rx) = mpsc::channel::<Bytes>(sse::BUFFER);
    let store = Arc::clone(store);
    let stopping = Arc::clone(&endpoint.stopping);
    let shared = sessions
        .share()
        .map(|share| (Arc::clone(share), sessions.idle()));
    tokio::spawn(async move {
        listen(
            &entry,
            store.as_ref(),
            (reader, primed, missed),
            &tx,
            &stopping,
            shared,
        )
        .await;
        entry.listening.fetch_sub(1, Ordering::AcqRel);
        entry.touch();
    });
    sse::stream_response(rx)
}

/// Writes the session's unsolicited messages as they come, each kept in the store, with a
/// keep-alive comment on a quiet stream; ends when the client goes, the session ends or the
/// endpoint stops. Where sessions are shared (`shared`: the share and the idle lifetime), an
/// open stream keeps its session alive in the store, touched once a minute, and ends when the
/// store no longer holds it (ended through another replica, even if the relay was lost).
async fn listen(
    entry: &Entry,
    store: &dyn EventStore,
    (reader, primed, missed): (u64, u64, Vec<StoredEvent>),
    tx: &mpsc::Sender<Bytes>,
    stopping: &CancelFlag,
    shared: Option<(Arc<dyn crate::store::SessionShare>, Duration)>,
) {
    let mut touched = tokio::time::Instant::now();
    let own = entry.get_stream();
    if tx.send(Event::priming(own, primed)).await.is_err() {
        return;
    }
    for event in missed {
        if tx
            .send(Event::message(Some((event.stream, event.seq)), &event.data))
            .await
            .is_err()
        {
            return;
        }
    }
    let outbox = entry.session.unsolicited();
    let ending = entry.session.ending();
    let mut keep_alive = tokio::time::interval(sse::KEEP_ALIVE);
    keep_alive.tick().await;
    loop {
        // A newer GET took the stream over: this one ends, and hands on any wake it took.
        if !entry.holds(own, reader) {
            outbox.nudge();
            return;
        }
        while let Some(message) = outbox.pop() {
            let seq = entry.next_get_seq();
            let data = Bytes::from(serde_json::to_vec(&message).unwrap_or_default());
            let event = StoredEvent {
                stream: own,
                seq,
                data: data.clone(),
            };
            keep(store, entry, event).await;
            if tx
                .send(Event::message(Some((own, seq)), &data))
                .await
                .is_err()
            {
                return;
            }
        }
        tokio::select! {
            () = outbox.pushed() => {}
            () = ending.cancelled() => return,
            // The endpoint stops: the stream ends, so a graceful shutdown is not held up.
            () = stopping.cancelled() => return,
            () = tx.closed() => return,
            _ = keep_alive.tick() => {
                if tx.send(Bytes::from_static(sse::KEEP_ALIVE_COMMENT)).await.is_err() {
                    return;
                }
                if let Some((share, idle)) = &shared
                    && touched.elapsed() >= LISTEN_TOUCH
                {
                    touched = tokio::time::Instant::now();
                    // A store away for a moment is asked again at the next minute.
                    if let Ok(None) = share.touch(&entry.id, *idle).await {
                        return;
                    }
                }
            }
        }
    }
}

/// How often an open GET stream of a shared session touches its record.
const LISTEN_TOUCH: Duration = Duration::from_secs(60);

/// Keeps an event of a live session; false when the session has ended here. The store is asked
/// again after it: a session that ended everywhere while the event was being kept (its events
/// forgotten just before this one came) is forgotten once more, so no event outlives its
/// session.
///
/// An event the store fails to keep is still sent on a live connection; a resumption that
/// would need it is refused, since the events after it no longer follow on (`held`).
pub(super) async fn keep(store: &dyn EventStore, entry: &Entry, event: StoredEvent) -> bool {
    if entry.is_gone() {
        return false;
    }
    let (stream, seq) = (event.stream, event.seq);
    if let Err(error) = store.store_owned(&entry.id, entry.share, event).await {
        tracing::error!(stream, seq, detail = %Logged(error.detail()), "an event was not kept: a resumption past it is refused");
        return false;
    }
    if entry.is_gone() {
        // Ended everywhere: forgotten again. Only this replica's copy of a shared session let
        // go: the session's events stay for the replicas that serve it.
        if entry.has_ended() {
            forgotten(store.forget(&entry.id).await);
        }
        return false;
    }
    true
}

/// The held events of a stream after `after`, or the refusal when some are gone.
async fn held(
    store: &dyn EventStore,
    entry: &Entry,
    stream: u64,
    after: u64,
) -> Result<Vec<StoredEvent>, Box<HttpResponse>> {
    let gone = || Err(Box::new(last_event_id_refused(stream, after, TOO_OLD)));
    match follow_on(after, store.after(&entry.id, stream, after).await) {
        Ok(events) => Ok(events),
        // A stream of this session with nothing kept yet.
        Err(ResumeError::Unknown) => Ok(Vec::new()),
        Err(ResumeError::Store(error)) => {
            tracing::error!(detail = %Logged(error.detail()), "the event store could not answer a resumption");
            Err(Box::new(super::load::store_unavailable()))
        }
        Err(_) => gone(),
    }
}

/// A store's events after `after`, refused as evicted unless they follow on from it: one the
/// store failed to keep (or lost) would otherwise be skipped without a word.
fn follow_on(
    after: u64,
    events: Result<Vec<StoredEvent>, ResumeError>,
) -> Result<Vec<StoredEvent>, ResumeError> {
    let events = events?;
    let mut next = after.checked_add(1);
    for event in &events {
        if Some(event.seq) != next {
            return Err(ResumeError::Evicted);
        }
        next = event.seq.checked_add(1);
    }
    Ok(events)
}

/// Resumes a POST's stream after `after`: the held events, then the rest as the request
/// produces them, until it ends.
async fn resume(
    entry: Arc<Entry>,
    store: Arc<dyn EventStore>,
    stream: u64,
    after: u64,
) -> HttpResponse {
    // This reader takes the stream over first: the connection it replaces sends nothing more,
    // so no event goes out twice.
    let reader = entry.claim(stream);
    let first = match held(store.as_ref(), &entry, stream, after).await {
        Ok(events) => events,
        Err(refused) => return *refused,
    };
    let (tx, rx) = mpsc::channel::<Bytes>(sse::BUFFER);
    tokio::spawn(async move {
        let mut last = after;
        let mut batch = first;
        loop {
            let woken = entry.stored.notified();
            tokio::pin!(woken);
            woken.as_mut().enable();
            // A newer resumption took the stream over (and woke this reader): this one ends.
            if !entry.holds(stream, reader) {
                return;
            }
            for event in batch.drain(..) {
                last = event.seq;
                if !entry.holds(stream, reader)
                    || tx
                        .send(Event::message(Some((stream, event.seq)), &event.data))
                        .await
                        .is_err()
                {
                    return;
                }
            }
            let ended = entry.stream_state(stream) != Some(false);
            let more = match follow_on(last, store.after(&entry.id, stream, last).await) {
                Ok(more) => more,
                // Nothing kept for it yet: the request has not said anything since.
                Err(ResumeError::Unknown) => Vec::new(),
                // Evicted, lost or unreachable: the stream ends rather than skip an event.
                Err(_) => return,
            };
            if more.is_empty() {
                if ended {
                    return;
                }
                tokio::select! {
                    () = &mut woken => {}
                    () = tx.closed() => return,
                    () = tokio::time::sleep(Duration::from_secs(15)) => {
                        if tx.send(Bytes::from_static(sse::KEEP_ALIVE_COMMENT)).await.is_err() {
                            return;
                        }
                    }
                }
            }
            batch = more;
        }
    });
    sse::stream_response(rx)
}

/// How soon a stream another replica serves is read again from the store.
const ELSEWHERE_POLL: Duration = Duration::from_millis(100);
/// How seldom, at the least, once it has been quiet for a while (the wait doubles up to it).
const ELSEWHERE_POLL_MOST: Duration = Duration::from_secs(1);
/// How long a stream of which nothing is kept yet is waited for: one named by the priming event
/// alone, or by an id no replica gave out.
const NOTHING_KEPT_YET: Duration = Duration::from_secs(30);

/// Resumes a POST's stream that another replica serves (or served): its events after `after`,
/// read from the store as they are kept, until its response. The store is asked again after
/// 100 ms, then less often while nothing comes (at most a second apart). A stream of which
/// nothing is kept yet (`after` 0: the client saw only the priming event) is waited for 30 s; a
/// stream silent for the session's idle lifetime ends.
async fn resume_elsewhere(
    entry: Arc<Entry>,
    store: Arc<dyn EventStore>,
    stream: u64,
    after: u64,
    idle: Duration,
) -> HttpResponse {
    let first = match follow_on(after, store.after(&entry.id, stream, after).await) {
        Ok(events) => events,
        Err(ResumeError::Unknown) if after == 0 => Vec::new(),
        Err(ResumeError::Unknown) => {
            return last_event_id_refused(stream, after, NO_STREAM);
        }
        Err(ResumeError::Store(error)) => {
            tracing::error!(detail = %Logged(error.detail()), "the event store could not answer a resumption");
            return super::load::store_unavailable();
        }
        Err(_) => {
            return last_event_id_refused(stream, after, TOO_OLD);
        }
    };
    let (tx, rx) = mpsc::channel::<Bytes>(sse::BUFFER);
    tokio::spawn(async move {
        let started = tokio::time::Instant::now();
        let mut known = after > 0;
        let mut last = after;
        let mut batch = first;
        let mut heard = started;
        let mut quiet = started;
        let mut wait = ELSEWHERE_POLL;
        loop {
            if batch.is_empty() {
                wait = (wait * 2).min(ELSEWHERE_POLL_MOST);
            } else {
                (heard, known, wait) = (tokio::time::Instant::now(), true, ELSEWHERE_POLL);
            }
            for event in batch.drain(..) {
                last = event.seq;
                if tx
                    .send(Event::message(Some((stream, event.seq)), &event.data))
                    .await
                    .is_err()
                    || is_response(&event.data)
                {
                    return;
                }
                quiet = tokio::time::Instant::now();
            }
            if entry.is_gone()
                || heard.elapsed() >= idle
                || (!known && started.elapsed() >= NOTHING_KEPT_YET)
            {
                return;
            }
            tokio::select! {
                () = tx.closed() => return,
                () = tokio::time::sleep(wait) => {}
            }
            if quiet.elapsed() >= sse::KEEP_ALIVE {
                if tx
                    .send(Bytes::from_static(sse::KEEP_ALIVE_COMMENT))
                    .await
                    .is_err()
                {
                    return;
                }
                quiet = tokio::time::Instant::now();
            }
            batch = match follow_on(last, store.after(&entry.id, stream, last).await) {
                Ok(more) => more,
                Err(ResumeError::Unknown) => Vec::new(),
                // Evicted or lost: the stream ends rather than skip an event. A store away for a
                // moment is asked again.
                Err(ResumeError::Store(_)) => Vec::new(),
                Err(_) => return,
            };
        }
    });
    sse::stream_response(rx)
}

/// True for a JSON-RPC response (no method): the last message of a POST's stream.
fn is_response(data: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Map<String, Value>>(data)
        .is_ok_and(|m| !m.contains_key("method"))
}

/// Why a `Last-Event-ID` naming a stream of nothing is refused.
const NO_STREAM: &str = "names no stream of this session";
/// Why one older than what the store holds is refused.
const TOO_OLD: &str = "is older than the events this server still holds; nothing was replayed";

/// 400: `Last-Event-ID` `<stream>-<after>` cannot be resumed, and `why`.
fn last_event_id_refused(stream: u64, after: u64, why: &'static str) -> HttpResponse {
    reply(
        400,
        None,
        HttpRefusal::LastEventId(format!("{stream}-{after}"), why),
        false,
    )
}

/// `<stream>-<seq>`, both decimal.
fn parse_event_id(id: &str) -> Option<(u64, u64)> {
    let (stream, seq) = id.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(stream) || !digits(seq) {
        return None;
    }
    Some((stream.parse().ok()?, seq.parse().ok()?))
}

/// DELETE with a session id: the session ends, its running requests are cancelled.
pub(super) async fn delete(
    legacy: &Legacy,
    parts: &Parts,
    principal: &Principal,
    server: &Server,
) -> HttpResponse {
    let (sessions, _, entry) = match named_session(legacy, parts, principal, "DELETE", server).await
    {
        Ok(named) => named,
        Err(refused) => return *refused,
    };
    // Shared, the session ends in the store first: no replica serves it after.
    if let Some(share) = sessions.share()
        && let Err(error) = share
            .change(&entry.id, crate::store::SessionRelay::Ended)
            .await
    {
        tracing::error!(detail = %Logged(error.detail()), "a session could not be ended in the store: DELETE refused with 503");
        return super::load::store_unavailable();
    }
    sessions.remove(&entry.id);
    empty(200)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::events::{MemoryEventStore, ResumeError, StoredEvent};
    use super::super::sessions::{SessionLimits, Sessions};
    use super::{follow_on, keep, parse_event_id};
    use crate::protocol::Session;

    /// An event kept for a session that ended is not kept: the store holds nothing of it.
    /// (Before, the GET stream kept events without asking whether its session had ended.)
    #[tokio::test]
    async fn no_event_outlives_its_session() {
        let store = Arc::new(MemoryEventStore::default());
        let sessions = Sessions::new(SessionLimits::default(), store.clone());
        let entry = sessions.open(Session::new(), None, None).unwrap();
        let event = |seq| StoredEvent {
            stream: 0,
            seq,
            data: "{}".into(),
        };
        assert!(keep(store.as_ref(), &entry, event(1)).await);
        assert_eq!(store.after(&entry.id, 0, 0).unwrap().len(), 1);
        sessions.remove(&entry.id);
        assert!(!keep(store.as_ref(), &entry, event(2)).await);
        assert_eq!(store.after(&entry.id, 0, 0), Err(ResumeError::Unknown));
    }

    /// A resumption is served only when the events follow on from the one named: a gap (an
    /// event a store failed to keep) refuses it rather than skip the event without a word.
    #[test]
    fn a_gap_in_the_events_refuses_the_resumption() {
        let events = |seqs: &[u64]| -> Result<Vec<StoredEvent>, ResumeError> {
            Ok(seqs
                .iter()
                .map(|&seq| StoredEvent {
                    stream: 1,
                    seq,
                    data: "{}".into(),
                })
                .collect())
        };
        assert_eq!(follow_on(2, events(&[3, 4, 5])).unwrap().len(), 3);
        assert_eq!(follow_on(2, events(&[])).unwrap().len(), 0);
        assert_eq!(follow_on(2, events(&[4, 5])), Err(ResumeError::Evicted));
        assert_eq!(follow_on(2, events(&[3, 5])), Err(ResumeError::Evicted));
        assert_eq!(follow_on(u64::MAX, events(&[1])), Err(ResumeError::Evicted));
        assert_eq!(
            follow_on(0, Err(ResumeError::Unknown)),
            Err(ResumeError::Unknown)
        );
    }

    #[test]
    fn event_ids_are_two_decimal_numbers() {
        assert_eq!(parse_event_id("3-17"), Some((3, 17)));
        assert_eq!(parse_event_id("0-0"), Some((0, 0)));
        for bad in [
            "",
            "3",
            "3-",
            "-1",
            "a-1",
            "1-b",
            "1-2-3",
            "+1-2",
            "1-99999999999999999999999",
        ] {
            assert_eq!(parse_event_id(bad), None, "{bad}");
        }
    }
}
