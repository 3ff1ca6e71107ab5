//! Interop server: rmcp (the official Rust MCP SDK) serving a copy of the weather example's
//! catalog, the same as `tests/interop/py_server.py` (Python SDK) and `ts_server.mjs` (TypeScript
//! SDK), so that beam-mcp's client (`client_check`) is checked against a third foreign server with
//! the same exact values.
//!
//! Written as a new user of rmcp would: `#[tool_router]` / `#[tool]` and `#[prompt_router]` /
//! `#[prompt]` for the tools and the prompt, `#[tool_handler]` / `#[prompt_handler]` on the
//! `ServerHandler`, whose resources and completion are written by hand; `serve(stdio())` for
//! stdio and `StreamableHttpService` (stateful sessions: `LocalSessionManager`, rmcp's default
//! config) under hyper for HTTP.
//!
//! usage: beam-mcp-interop-rmcp-server          (stdio; every revision rmcp knows: `initialize`
//!                                               negotiates up to 2025-11-25, `server/discover`
//!                                               or a request with per-request `_meta` 2026-07-28)
//!        beam-mcp-interop-rmcp-server --http   (Streamable HTTP on a free loopback port, path
//!                                               /mcp: prints "rmcp_server: listening on
//!                                               http://127.0.0.1:PORT/mcp" on stderr once it
//!                                               accepts connections; 2025-11-25 sessions and
//!                                               2026-07-28 per-request traffic on one endpoint)
//!
//! Tools: get_weather, forecast (progress), book_trip (elicitation: at 2025-11-25 an
//! `elicitation/create` request on the session through `Peer::create_elicitation`, at 2026-07-28
//! an `InputRequiredResult` whose answer comes back in the retried call's `inputResponses`), wait
//! and last_wait (cancellation); resource weather://stations; prompt plan_trip with completion of
//! its `place`.

use std::{convert::Infallible, sync::Mutex, time::Duration};

use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::{Request, Response, StatusCode, body::Incoming, service::service_fn};
use hyper_util::rt::TokioIo;
use rmcp::{
    ErrorData, RoleServer, ServerHandler, ServiceExt,
    handler::server::{
        router::{prompt::PromptRouter, tool::ToolRouter},
        tool::InputResponses,
        wrapper::Parameters,
    },
    model::{
        CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult, CompletionInfo,
        ContentBlock, ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction,
        ElicitationSchema, Implementation, InputRequest, InputRequiredResult, IntegerSchema,
        ListResourcesResult, PaginatedRequestParams, PrimitiveSchemaDefinition,
        ProgressNotificationParam, PromptMessage, ProtocolVersion, ReadResourceRequestParams,
        ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role,
        ServerCapabilities, ServerConfig, StringSchema,
    },
    prompt, prompt_handler, prompt_router, schemars,
    service::RequestContext,
    tool, tool_handler, tool_router,
    transport::{
        stdio,
        streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        },
    },
};
use serde::Deserialize;

/// The readings by place, sorted by name: (celsius, sky).
const READINGS: [(&str, f64, &str); 3] = [
    ("Lisbon", 21.0, "sunny"),
    ("Oslo", -3.0, "snow"),
    ("Paris", 14.5, "cloudy"),
];

const STATIONS_URI: &str = "weather://stations";

/// How the most recent `wait` ended: "none" (none ran), "finished" or "cancelled". Shared by
/// every server instance (one per stdio connection, per HTTP session, or per 2026-07-28 HTTP
/// request), as py_server.py's module global is.
static LAST_WAIT: Mutex<&str> = Mutex::new("none");

/// How Python prints a float (21.0, -3.0, 14.5), so that every copy of the catalog answers the
/// same text.
fn py_float(x: f64) -> String {
    if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e16 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

fn reading(place: &str) -> Result<(f64, &'static str), String> {
    READINGS
        .iter()
        .find(|(name, _, _)| *name == place)
        .map(|&(_, celsius, sky)| (celsius, sky))
        .ok_or_else(|| format!("no station for {place}"))
}

fn tool_error(text: impl Into<String>) -> CallToolResponse {
    CallToolResult::error(vec![ContentBlock::text(text.into())]).into()
}

fn tool_text(text: impl Into<String>) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(text.into())]).into()
}

/// Whether this request speaks 2026-07-28 or later (its own `_meta`, else the session's
/// `initialize`): there the server may not send requests, and asks through input_required.
fn modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28)
}

#[derive(Deserialize, schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct PlaceArgs {
    place: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct ForecastArgs {
    place: String,
    days: i64,
}

/// What the booking form answers.
#[derive(Deserialize)]
struct Booking {
    travellers: i64,
    seat: String,
}

/// The key of book_trip's one input request at 2026-07-28.
const BOOKING: &str = "booking";

/// The form book_trip asks (what py_server.py's pydantic `Booking` sends; rmcp writes the
/// properties in name order).
fn booking_form() -> ElicitationSchema {
    ElicitationSchema::builder()
        .title("Booking")
        .required_property(
            "travellers",
            PrimitiveSchemaDefinition::Integer(
                IntegerSchema::new()
                    .title("Travellers")
                    .description("How many travel"),
            ),
        )
        .required_property(
            "seat",
            PrimitiveSchemaDefinition::String(
                StringSchema::new()
                    .title("Seat")
                    .description("window or aisle"),
            ),
        )
        .build()
        .expect("the booking form is a valid schema")
}

#[derive(Clone)]
struct Weather {
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
}

impl Weather {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
            prompt_router: Self::prompt_router(),
        }
    }
}

#[tool_router]
impl Weather {
    #[tool(description = "Current weather at a place.")]
    fn get_weather(
        &self,
        Parameters(PlaceArgs { place }): Parameters<PlaceArgs>,
    ) -> CallToolResponse {
        match reading(&place) {
            Ok((celsius, sky)) => tool_text(format!("{place}: {} °C, {sky}", py_float(celsius))),
            Err(e) => tool_error(e),
        }
    }

    #[tool(description = "The next days at a place, a degree warmer each day, with progress.")]
    async fn forecast(
        &self,
        Parameters(ForecastArgs { place, days }): Parameters<ForecastArgs>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let (celsius, sky) = match reading(&place) {
            Ok(reading) => reading,
            Err(e) => return tool_error(e),
        };
        let token = context.meta.get_progress_token();
        let mut lines = Vec::new();
        for d in 1..=days {
            if let Some(token) = &token {
                let progress = ProgressNotificationParam::new(token.clone(), d as f64)
                    .with_total(days as f64)
                    .with_message(format!("day {d}"));
                if let Err(e) = context.peer.notify_progress(progress).await {
                    return tool_error(format!("progress: {e}"));
                }
            }
            lines.push(format!(
                "day {d}: {} °C, {sky}",
                py_float(celsius + d as f64)
            ));
        }
        tool_text(lines.join("\n"))
    }

    #[tool(description = "Asks the user to confirm a trip.")]
    async fn book_trip(
        &self,
        Parameters(PlaceArgs { place }): Parameters<PlaceArgs>,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let (celsius, sky) = match reading(&place) {
            Ok(reading) => reading,
            Err(e) => return tool_error(e),
        };
        let question = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: format!(
                "Book a trip to {place}? It is {} °C there, {sky}.",
                py_float(celsius)
            ),
            requested_schema: booking_form(),
        };
        let answer = if modern(&context) {
            // 2026-07-28: the first round returns the question; the client answers it and
            // retries the call with inputResponses.
            match responses.and_then(|mut responses| responses.remove(BOOKING)) {
                None => {
                    return InputRequiredResult::from_input_requests(
                        [(
                            BOOKING.to_owned(),
                            InputRequest::Elicitation(ElicitRequest::new(question)),
                        )]
                        .into(),
                    )
                    .into();
                }
                Some(value) => match serde_json::from_value::<ElicitResult>(value) {
                    Ok(answer) => answer,
                    Err(e) => {
                        return tool_error(format!("booking: not an elicitation result: {e}"));
                    }
                },
            }
        } else {
            // 2025-11-25: an elicitation/create request on the session.
            match context.peer.create_elicitation(question).await {
                Ok(answer) => answer,
                Err(e) => return tool_error(format!("booking: elicitation failed: {e}")),
            }
        };
        match answer.action {
            ElicitationAction::Accept => {
                let booking = answer
                    .content
                    .and_then(|content| serde_json::from_value::<Booking>(content).ok());
                match booking {
                    Some(Booking { travellers, seat }) => {
                        let plural = if travellers > 1 { "s" } else { "" };
                        tool_text(format!(
                            "Booked a trip to {place} for {travellers}, {seat} seat{plural}."
                        ))
                    }
                    None => tool_error("booking: the form does not match its schema"),
                }
            }
            ElicitationAction::Decline => {
                tool_text(format!("Not booked: you declined the trip to {place}."))
            }
            _ => tool_text(format!("Not booked: you cancelled the trip to {place}.")),
        }
    }

    #[tool(description = "Waits 10 s, or until the request is cancelled.")]
    async fn wait(&self, context: RequestContext<RoleServer>) -> CallToolResponse {
        let cancelled = tokio::select! {
            _ = context.ct.cancelled() => true,
            _ = tokio::time::sleep(Duration::from_secs(10)) => false,
        };
        *LAST_WAIT.lock().unwrap_or_else(|e| e.into_inner()) =
            if cancelled { "cancelled" } else { "finished" };
        if cancelled {
            // rmcp drops the response to a cancelled request.
            tool_error("wait: cancelled")
        } else {
            tool_text("waited 10 s")
        }
    }

    #[tool(description = "How the most recent wait ended.")]
    fn last_wait(&self) -> CallToolResponse {
        tool_text(*LAST_WAIT.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct PlanTripArgs {
    place: String,
}

#[prompt_router]
impl Weather {
    #[prompt(description = "Plan a trip.")]
    fn plan_trip(
        &self,
        Parameters(PlanTripArgs { place }): Parameters<PlanTripArgs>,
    ) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            format!("I am going to {place} for a few days. What should I pack?"),
        )]
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for Weather {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_completions()
                .enable_prompts()
                .enable_resources()
                .enable_tools()
                .build(),
        )
        .with_server_info(Implementation::new("rmcp-weather", "1.0.0"))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(STATIONS_URI, "stations")
                .with_description("The station names, one a line.")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != STATIONS_URI {
            return Err(ErrorData::resource_not_found(
                format!("unknown resource {}", request.uri),
                None,
            ));
        }
        let names: Vec<&str> = READINGS.iter().map(|(name, _, _)| *name).collect();
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(names.join("\n"), STATIONS_URI).with_mime_type("text/plain"),
        ])
        .into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let values = if request.argument.name == "place" {
            let typed = request.argument.value.to_lowercase();
            READINGS
                .iter()
                .map(|(name, _, _)| *name)
                .filter(|name| name.to_lowercase().starts_with(&typed))
                .map(str::to_owned)
                .collect()
        } else {
            Vec::new()
        };
        let completion =
            CompletionInfo::new(values).map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(CompleteResult::new(completion))
    }
}

fn not_found() -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(Full::new(Bytes::from("Not Found")).boxed());
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

async fn serve_http() -> std::io::Result<()> {
    let service = StreamableHttpService::new(
        || Ok(Weather::new()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    // Port 0: the OS picks a free port; bound means it accepts connections.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    // In one write: the harness reads whole lines, and `eprintln!` writes its pieces one by one.
    let line = format!("rmcp_server: listening on http://127.0.0.1:{port}/mcp\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        tokio::spawn(async move {
            let route = service_fn(move |request: Request<Incoming>| {
                let service = service.clone();
                async move {
                    Ok::<_, Infallible>(if request.uri().path() == "/mcp" {
                        service.handle(request).await
                    } else {
                        not_found()
                    })
                }
            });
            let served = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), route)
                .await;
            // A client that goes away mid-response (how a 2026-07-28 call is cancelled over
            // HTTP, or an SSE stream closed) is not worth a line.
            if let Err(e) = served
                && !e.is_incomplete_message()
            {
                eprintln!("rmcp_server: connection: {e}");
            }
        });
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [] => match Weather::new().serve(stdio()).await {
            Ok(running) => running.waiting().await.map(drop).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        },
        [flag] if flag == "--http" => serve_http().await.map_err(|e| e.to_string()),
        _ => {
            eprintln!("usage: beam-mcp-interop-rmcp-server [--http]");
            return std::process::ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rmcp_server: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
