//! Per-item scopes with step-up, as a middleware on the seam: an item declares the scopes a
//! caller needs (`#[tool(scopes = ["notes:write"])]`), and a caller whose principal lacks one is
//! refused naming them, so that an OAuth client can ask for a token that has them.

use std::marker::PhantomData;

use serde_json::json;

use super::{BoxFuture, Call, Item, Middleware, Next, Outcome, Refusal};

/// The code of a refusal for a missing scope: an application code (outside the spec's
/// `-32768..-32000`), 403 as in HTTP.
pub const INSUFFICIENT_SCOPE: i32 = -31403;

/// A caller's identity that knows its scopes: what the [`scopes`] middleware asks.
///
/// `transport::http::OAuthPrincipal` implements it (feature `oauth`);
/// a host's own principal (from `authorize`, or [`Session::with_principal`]) implements it to
/// be checked the same way.
///
/// ```
/// use beam_mcp::middleware::Scoped;
///
/// #[derive(Hash)]
/// struct Staff { admin: bool }
///
/// impl Scoped for Staff {
///     fn has_scope(&self, scope: &str) -> bool {
///         scope != "notes:delete" || self.admin
///     }
/// }
/// # assert!(!Staff { admin: false }.has_scope("notes:delete"));
/// ```
///
/// [`Session::with_principal`]: crate::protocol::Session::with_principal
pub trait Scoped: Send + Sync + 'static {
    /// Whether the caller was granted `scope`.
    fn has_scope(&self, scope: &str) -> bool;
}

/// A middleware enforcing each item's declared scopes for callers whose principal is a `P`.
///
/// A `tools/call`, `resources/read` or `prompts/get` of an item with scopes is refused unless
/// the caller's principal is a `P` with every one of them: a JSON-RPC error `-31403`
/// "Insufficient scope: " and the missing scopes, with `data.requiredScopes`. With
/// [`bearer_challenge`](Scopes::bearer_challenge) (an OAuth resource server, which
/// `OAuth::step_up` sets), the HTTP answer is 403 with `WWW-Authenticate: Bearer
/// error="insufficient_scope", scope="…", resource_metadata="…"`, naming the scopes to ask for.
///
/// ```
/// use beam_mcp::middleware::{self, Scoped};
///
/// #[derive(Hash)]
/// struct Caller(Vec<String>);
/// impl Scoped for Caller {
///     fn has_scope(&self, scope: &str) -> bool {
///         self.0.iter().any(|s| s == scope)
///     }
/// }
///
/// let server = beam_mcp::Server::builder()
///     .middleware(middleware::scopes::<Caller>().hide_unusable())
///     .build()
///     .unwrap();
/// # let _ = server;
/// ```
pub fn scopes<P: Scoped>() -> Scopes<P> {
    Scopes {
        challenge: None,
        hide: false,
        principal: PhantomData,
    }
}

/// The middleware [`scopes`] makes.
pub struct Scopes<P> {
    challenge: Option<Challenge>,
    hide: bool,
    principal: PhantomData<fn() -> P>,
}

/// What a 403 challenge names beyond the item's scopes.
struct Challenge {
    resource_metadata: String,
    /// The scopes every token must carry anyway (the resource server's own).
    base: Vec<String>,
}

impl<P: Scoped> Scopes<P> {
    /// Hides from `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list`
    /// the items the caller lacks a scope for; those lists are then answered
    /// `cacheScope: "private"` at 2026-07-28.
    #[must_use]
    pub fn hide_unusable(mut self) -> Self {
        self.hide = true;
        self
    }

    /// Answers a missing scope over HTTP with 403 and an RFC 6750 challenge naming the scopes
    /// to ask for: `base` (the scopes every token of this resource server must carry) and the
    /// item's, with the RFC 9728 metadata URL.
    #[must_use]
    pub fn bearer_challenge<S: Into<String>>(
        mut self,
        resource_metadata: impl Into<String>,
        base: impl IntoIterator<Item = S>,
    ) -> Self {
        self.challenge = Some(Challenge {
            resource_metadata: resource_metadata.into(),
            base: base.into_iter().map(Into::into).collect(),
        });
        self
    }

    /// The item's scopes the caller lacks.
    fn missing(call: &Call, item: &Item) -> Vec<&'static str> {
        let principal = call.principal::<P>();
        item.scopes()
            .iter()
            .copied()
            .filter(|scope| !principal.is_some_and(|p| p.has_scope(scope)))
            .collect()
    }

    fn refusal(&self, item: &Item, missing: &[&str]) -> Refusal {
        let refusal = Refusal::new(
            INSUFFICIENT_SCOPE,
            format!("Insufficient scope: {}", missing.join(" ")),
        )
        .with_data(json!({ "requiredScopes": item.scopes() }));
        match &self.challenge {
            None => refusal,
            Some(challenge) => {
                let mut wanted: Vec<&str> = challenge.base.iter().map(String::as_str).collect();
                for scope in item.scopes() {
                    if !wanted.contains(scope) {
                        wanted.push(scope);
                    }
                }
                refusal.with_status(403).with_challenge(format!(
                    r#"Bearer error="insufficient_scope", scope="{}", resource_metadata="{}""#,
                    wanted.join(" "),
                    challenge.resource_metadata
                ))
            }
        }
    }
}

impl<P: Scoped> Middleware for Scopes<P> {
    fn handle<'a>(&'a self, call: Call, next: Next) -> BoxFuture<'a, Outcome> {
        Box::pin(async move {
            if let Some(item) = call.item() {
                let missing = Self::missing(&call, item);
                if !missing.is_empty() {
                    return Err(self.refusal(item, &missing).into());
                }
                return next.run(call).await;
            }
            if !self.hide {
                return next.run(call).await;
            }
            let view = call.clone_view();
            let mut outcome = next.run(call).await;
            if let Ok(result) = &mut outcome {
                view.retain_listed(result, |item| Self::missing(&view, item).is_empty());
            }
            outcome
        })
    }
}

impl<P> std::fmt::Debug for Scopes<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scopes")
            .field("hide", &self.hide)
            .field("challenge", &self.challenge.is_some())
            .finish()
    }
}
