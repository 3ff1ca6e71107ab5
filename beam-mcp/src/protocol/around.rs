//! The core's side of the middleware seam. Before the chain: the item a request names, its
//! round (on the params as sent), the transport's rule for a tool, and the request's context,
//! so the exchange a transport writes exists before any middleware runs. After it: the method,
//! as the chain's last step, sharing that context.

use serde_json::{Map, Value};

use super::answer::{Answer, Body};
use super::door::Bare;
use super::request::{Begun, Era, Request};
use super::session::Session;
use crate::catalog::Catalog;
use crate::context::Context;
use crate::json::Sparse;
use crate::middleware::{BoxFuture, Call, Chain, Endpoint, Item, ItemKind, Next, Outcome};
use crate::params::Params;
use crate::server::Server;

/// The methods whose host code may ask the client, and so open a round before anything else.
const ASKING: [&str; 3] = ["tools/call", "resources/read", "prompts/get"];

impl Server {
    /// A request through the host's middleware, then its method.
    // Never inlined into the door: a server without middleware must not pay for its code.
    #[inline(never)]
    pub(crate) fn around(
        &self,
        session: &Session,
        mut request: Request<'_>,
        chain: &Chain,
    ) -> Answer {
        let id = request.id.clone();
        let era = request.era;
        let catalog = self.catalog();
        let (item, takes_context) = match named(&catalog, request.method, request.params) {
            Some((item, takes_context)) => (Some(item), takes_context),
            None => (None, false),
        };
        // The state binds the params as sent, so the round opens before middleware may change
        // them; the transport's header rule holds against what the client sent, too.
        if ASKING.contains(&request.method)
            && let Err(error) = request.open_round(self, takes_context)
        {
            return Answer::Now(Err(error));
        }
        if request.method == "tools/call"
            && let Some(name) = request.params.name()
            && let Some(tool) = catalog.tool(name)
            && let Err(error) = super::door::check_tool(request.door, tool, request.params)
        {
            return Answer::Now(Err(error));
        }
        let client_name = client_name(&request, session);
        let meta = Map::clone(&request.meta);
        // Beginning takes these into the context; the method still reads them.
        let info = request.client_info.clone();
        let capabilities = request.client_capabilities.clone();
        let begun = match request.method {
            method if ASKING.contains(&method) => request.begin(self, takes_context),
            "completion/complete" => request.begin(self, false),
            "subscriptions/listen" if era.is_stateless() && self.live().is_some() => {
                request.begin_stream(self)
            }
            _ => request.begin_with(self, false),
        };
        request.client_info = info;
        request.client_capabilities = capabilities;
        let call = Call {
            id,
            method: request.method.to_owned(),
            params: std::mem::take(request.params).into_map(),
            revision: era.revision(),
            item,
            principal: session.principal(),
            client_name,
            meta,
            catalog,
            via: request.door.via(),
            session_revision: session.hello().and_then(|h| h.version),
        };
        let end = Box::new(Method {
            server: self.clone(),
            session: session.clone(),
            era,
            client_info: request.client_info.take(),
            client_capabilities: request.client_capabilities.take(),
            log_level: request.log_level,
            context: begun.context.clone(),
        });
        let next = Next {
            chain: std::sync::Arc::clone(chain),
            index: 0,
            end,
        };
        Answer::run(begun, next.run(call))
    }
}

/// The client's name, as [`Request::schema_profile`] reads it.
fn client_name(request: &Request<'_>, session: &Session) -> Option<String> {
    let name_of = |info: Option<&Value>| {
        info.and_then(|i| i.get("name"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    if request.era.is_stateless() {
        name_of(request.client_info.as_ref())
    } else {
        let hello = session.hello();
        name_of(hello.as_ref().and_then(|h| h.info.as_ref()))
    }
}

/// The item a `tools/call`, `resources/read` or `prompts/get` names, and whether it takes a
/// context.
fn named(catalog: &Catalog, method: &str, params: &Params) -> Option<(Item, bool)> {
    let text = |key| params.get(key).and_then(Value::as_str);
    match method {
        "tools/call" => {
            let tool = catalog.tool(params.name()?)?;
            Some((Item::of_tool(tool), tool.takes_context))
        }
        "prompts/get" => {
            let prompt = catalog.prompt(params.name()?)?;
            Some((Item::of_prompt(prompt), prompt.takes_context))
        }
        "resources/read" => {
            let readable = catalog.readable(text("uri")?)?;
            let kind = if readable.is_template {
                ItemKind::Template
            } else {
                ItemKind::Resource
            };
            let item = Item {
                kind,
                name: std::sync::Arc::clone(readable.key),
                tags: readable.tags,
                scopes: readable.scopes,
                annotations: None,
                origin: readable.origin,
            };
            Some((item, readable.takes_context))
        }
        _ => None,
    }
}

/// The method at the end of the chain.
struct Method {
    server: Server,
    session: Session,
    era: Era,
    client_info: Option<Value>,
    client_capabilities: Option<Sparse>,
    log_level: Option<crate::context::LogLevel>,
    /// The context begun before the chain (its registration stays with the exchange).
    context: Context,
}

impl Endpoint for Method {
    fn run(self: Box<Self>, call: Call) -> BoxFuture<'static, Outcome> {
        let Method {
            server,
            session,
            era,
            client_info,
            client_capabilities,
            log_level,
            context,
        } = *self;
        let mut params = Params::from(call.params);
        let mut request = Request {
            id: &call.id,
            method: &call.method,
            params: &mut params,
            era,
            session: &session,
            // The transport's rules ran before the chain.
            door: &Bare,
            meta: Sparse::default(),
            client_capabilities,
            client_info,
            progress_token: None,
            log_level,
            round: None,
            begun: Some(Box::new(Begun {
                context,
                registration: None,
                late: false,
            })),
        };
        match server.route(&session, &mut request) {
            Answer::Silent => Box::pin(std::future::ready(Ok(Value::Object(Map::new())))),
            Answer::Now(outcome) => Box::pin(std::future::ready(outcome)),
            // The context is the one begun before the chain, which the exchange holds. A
            // middleware sees the result as a value.
            Answer::Run(_, work) => Box::pin(async move { work.await.map(Body::into_value) }),
            // Not reached (the chain's door runs nothing in place), and answered alike.
            Answer::Ended(_, ended) => Box::pin(std::future::ready(ended.map(Body::into_value))),
        }
    }
}
