//! The request metadata headers of 2026-07-28 (SEP-2243), checked against the decoded body
//! before the core sees it. Header names are case-insensitive; values are trimmed of
//! surrounding whitespace and compared exactly; every value of a repeated header is checked.

use std::borrow::Cow;

use axum::extract::ConnectInfo;
use axum::http::header::AsHeaderName;
use axum::http::{Extensions, HeaderMap, HeaderName, HeaderValue, Version};
use base64::Engine as _;
use serde_json::Value;

use crate::Server;
use crate::catalog::{HeaderParameter, Tool};
use crate::middleware::{Transport, Via};
use crate::protocol::door::Door;
use crate::protocol::envelope::Said;
use crate::protocol::{Logged, ProtocolError};

// Names built once: a `&str` name is parsed and hashed again at every lookup.
const VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const METHOD: HeaderName = HeaderName::from_static("mcp-method");
const NAME: HeaderName = HeaderName::from_static("mcp-name");

fn mismatch(text: impl Into<String>) -> ProtocolError {
    ProtocolError::HeaderMismatch(text.into())
}

/// Every value of `name`, trimmed; a value that is not UTF-8 is refused.
fn values<'h, K>(headers: &'h HeaderMap, name: K) -> Result<Values<'h>, ProtocolError>
where
    K: AsHeaderName + AsRef<str> + Copy,
{
    let text = |v: &'h HeaderValue| {
        std::str::from_utf8(trim_blanks(v.as_bytes())).map_err(|_| {
            let name = name.as_ref();
            mismatch(format!("{name} header value is not valid UTF-8"))
        })
    };
    let mut sent = headers.get_all(name).iter();
    let Some(first) = sent.next() else {
        return Ok(Values::Zero);
    };
    let first = text(first)?;
    match sent.next() {
        None => Ok(Values::One([first])),
        Some(second) => {
            let mut all = vec![first, text(second)?];
            for more in sent {
                all.push(text(more)?);
            }
            Ok(Values::Many(all))
        }
    }
}

/// `bytes` without the spaces and tabs around it (a header value's optional whitespace).
fn trim_blanks(bytes: &[u8]) -> &[u8] {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let start = bytes.iter().position(|b| !blank(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !blank(b))
        .map_or(start, |last| last + 1);
    &bytes[start..end]
}

/// The values of one header: a header sent once (the usual case) takes no allocation.
enum Values<'h> {
    Zero,
    One([&'h str; 1]),
    Many(Vec<&'h str>),
}

impl<'h> std::ops::Deref for Values<'h> {
    type Target = [&'h str];

    fn deref(&self) -> &[&'h str] {
        match self {
            Values::Zero => &[],
            Values::One(one) => one,
            Values::Many(all) => all,
        }
    }
}

/// `=?base64?…?=` decoded strictly (canonical padding, the standard alphabet, UTF-8);
/// anything else is the literal value, borrowed.
fn decoded<'v>(value: &'v str, name: &str) -> Result<Cow<'v, str>, ProtocolError> {
    let Some(inner) = value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    else {
        return Ok(Cow::Borrowed(value));
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(inner)
        .map_err(|_| mismatch(format!("{name} header is not valid base64")))?;
    String::from_utf8(bytes)
        .map(Cow::Owned)
        .map_err(|_| mismatch(format!("{name} header does not decode to UTF-8")))
}

/// The request metadata headers, as the rules the core calls at their steps.
pub(crate) struct HeaderRules<'h> {
    pub(crate) headers: &'h HeaderMap,
    pub(crate) extensions: &'h Extensions,
    pub(crate) version: Version,
    pub(crate) server: &'h Server,
}

/// How an HTTP request came in, for middleware and telemetry: its HTTP version, its session and
/// its own W3C trace context headers (which telemetry links, not parents: DIGEST's SEP-414).
pub(crate) fn via(
    headers: &HeaderMap,
    extensions: &Extensions,
    version: Version,
    session_id: Option<&str>,
) -> Via {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_owned())
    };
    Via {
        transport: Transport::Http,
        http_version: Some(match version {
            Version::HTTP_09 => "0.9",
            Version::HTTP_10 => "1.0",
            Version::HTTP_2 => "2",
            Version::HTTP_3 => "3",
            _ => "1.1",
        }),
        session_id: session_id.map(Into::into),
        peer: extensions
            .get::<ConnectInfo<std::net::SocketAddr>>()
            .map(|info| info.0),
        trace_headers: text("traceparent").map(|parent| (parent, text("tracestate"))),
    }
}

impl Door for HeaderRules<'_> {
    fn has_session_control(&self) -> bool {
        // Session control belongs to stdio; an HTTP request has no session to shut down.
        false
    }

    fn refuses_non_messages(&self) -> bool {
        true
    }

    fn accepts_responses(&self) -> bool {
        false
    }

    fn check_message(&self, said: Said<'_>) -> Result<(), ProtocolError> {
        check(self.headers, said, self.server).inspect_err(|error| {
            tracing::info!(reason = %Logged(&error.to_string()), "header check failed");
        })
    }

    fn via(&self) -> Via {
        via(self.headers, self.extensions, self.version, None)
    }

    fn check_tool(&self, tool: &Tool, arguments: Option<&Value>) -> Result<(), ProtocolError> {
        for parameter in &tool.headers {
            let value = arguments.and_then(|a| {
                parameter
                    .path
                    .iter()
                    .try_fold(a, |value, key| value.get(key))
            });
            check_param(self.headers, parameter, value).inspect_err(|error| {
                tracing::info!(reason = %Logged(&error.to_string()), "header check failed");
            })?;
        }
        Ok(())
    }
}

/// The message-level checks, in the order of the specification's validation list (steps 3 to
/// 8). The core runs after, and answers what is left (unknown methods, unknown tools, bad
/// arguments); the `Mcp-Param-*` rules run when the core has found the tool.
fn check(headers: &HeaderMap, said: Said<'_>, server: &Server) -> Result<(), ProtocolError> {
    let is_request = said.is_request;
    let method = said.method;
    said.meta()?;
    let versions = values(headers, &VERSION)?;
    if versions.is_empty() {
        return Err(mismatch(
            "Missing mcp-protocol-version header; it is required on every POST",
        ));
    }
    let body_version = said.version();
    if is_request {
        if body_version.is_none() {
            return Err(ProtocolError::MetaRequired);
        }
        if !said.capabilities() {
            return Err(ProtocolError::MetaLacksCapabilities);
        }
    }
    let supported = &server.inner.supported_names;
    if let Some(refused) = versions.iter().find(|v| !supported.iter().any(|s| s == *v)) {
        return Err(server.unsupported(refused));
    }
    if let Some(body_version) = body_version
        && versions.iter().any(|v| *v != body_version)
    {
        return Err(mismatch(
            "mcp-protocol-version header does not match the body value",
        ));
    }
    let methods = values(headers, &METHOD)?;
    if is_request && methods.is_empty() {
        return Err(mismatch("Missing mcp-method header; it is required"));
    }
    if methods.len() > 1 {
        return Err(mismatch("mcp-method header is repeated"));
    }
    if methods.iter().any(|m| *m != method) {
        return Err(mismatch(
            "mcp-method header does not match the corresponding request body value",
        ));
    }
    if let Some(body_name) = said.named() {
        let names = values(headers, &NAME)?;
        match (body_name, &*names) {
            (None, []) => {}
            (Some(_), []) => return Err(mismatch("Missing mcp-name header; it is required")),
            (_, [_, _, ..]) => return Err(mismatch("mcp-name header is repeated")),
            (Some(body_name), [one]) if decoded(one, NAME.as_str())? == body_name => {}
            _ => {
                return Err(mismatch(
                    "mcp-name header does not match the corresponding request body value",
                ));
            }
        }
    }
    Ok(())
}

/// One `Mcp-Param-{header}` against the argument it mirrors.
fn check_param(
    headers: &HeaderMap,
    parameter: &HeaderParameter,
    body: Option<&Value>,
) -> Result<(), ProtocolError> {
    let field = parameter.field.as_str();
    let sent = values(headers, field)?;
    match (body, &*sent) {
        (None | Some(Value::Null), []) => Ok(()),
        (None | Some(Value::Null), _) => Err(mismatch(format!(
            "{field} header was sent, but the body carries no such value"
        ))),
        (Some(_), []) => Err(mismatch(format!(
            "{field} header is required: the body carries a value to mirror"
        ))),
        (Some(body), [one]) => {
            if mirrors(&decoded(one, field)?, body) {
                Ok(())
            } else {
                Err(mismatch(format!(
                    "{field} header does not match the corresponding request body value"
                )))
            }
        }
        (Some(_), _) => Err(mismatch(format!("{field} header is repeated"))),
    }
}

/// Strings exactly; booleans as `true`/`false`; integers numerically (`42` = `42.0`), by the
/// grammar `-?(0|[1-9][0-9]*)(\.0+)?`. Floats, objects and arrays never match.
fn mirrors(text: &str, body: &Value) -> bool {
    match body {
        Value::String(s) => s == text,
        Value::Bool(b) => text == if *b { "true" } else { "false" },
        Value::Number(n) => {
            let Some(header) = integer(text) else {
                return false;
            };
            if let Some(i) = n.as_i64() {
                i128::from(i) == header
            } else if let Some(u) = n.as_u64() {
                i128::from(u) == header
            } else {
                // A float body value mirrors only when it is integral and exactly representable.
                n.as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.abs() < 9.0e15 && f as i128 == header)
            }
        }
        _ => false,
    }
}

fn integer(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = match digits.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (digits, None),
    };
    let whole_ok = whole == "0"
        || (!whole.is_empty()
            && !whole.starts_with('0')
            && whole.bytes().all(|b| b.is_ascii_digit()));
    let fraction_ok = fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b == b'0'));
    if !whole_ok || !fraction_ok || whole.len() > 30 {
        return None;
    }
    let value: i128 = whole.parse().ok()?;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_follow_the_grammar() {
        for (text, value) in [
            ("0", 0),
            ("-0", 0),
            ("42", 42),
            ("42.0", 42),
            ("-7.000", -7),
        ] {
            assert_eq!(integer(text), Some(value), "{text}");
        }
        for text in [
            "", "-", "01", "1e3", "1.5", "1.", "+1", " 1", "0x10", "1_000",
        ] {
            assert_eq!(integer(text), None, "{text}");
        }
    }

    #[test]
    fn blanks_are_trimmed_as_str_trims_them() {
        for text in [
            "",
            " ",
            "\t \t",
            "a",
            " a ",
            "\ta b\t",
            " \u{a0}é \t",
            "x\n ",
            "  ..  ",
        ] {
            assert_eq!(
                trim_blanks(text.as_bytes()),
                text.trim_matches([' ', '\t']).as_bytes(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn values_mirror_by_type() {
        assert!(mirrors("42", &json!(42)));
        assert!(mirrors("42", &json!(42.0)));
        assert!(mirrors("42.0", &json!(42)));
        assert!(!mirrors("42", &json!(42.5)));
        assert!(!mirrors("42", &json!("42.0")));
        assert!(mirrors("true", &json!(true)));
        assert!(!mirrors("True", &json!(true)));
        assert!(!mirrors("1", &json!(true)));
        assert!(!mirrors("{}", &json!({})));
        assert!(!mirrors("[]", &json!([])));
    }

    #[test]
    fn base64_is_decoded_strictly_and_only_when_wrapped() {
        assert_eq!(decoded("=?base64?SGVsbG8=?=", "h").unwrap(), "Hello");
        assert!(
            decoded("=?base64?SGVsbG8?=", "h").is_err(),
            "missing padding"
        );
        assert!(
            decoded("=?base64?SGVs!!!bG8=?=", "h").is_err(),
            "outside the alphabet"
        );
        assert!(
            decoded("=?base64?SGVsbG9=?=", "h").is_err(),
            "non-canonical trailing bits"
        );
        assert!(decoded("=?base64?/w==?=", "h").is_err(), "not UTF-8");
        assert_eq!(decoded("SGVsbG8=", "h").unwrap(), "SGVsbG8=");
        assert_eq!(
            decoded("=?base64?SGVsbG8=", "h").unwrap(),
            "=?base64?SGVsbG8="
        );
        assert_eq!(
            decoded("=?BASE64?SGVsbG8=?=", "h").unwrap(),
            "=?BASE64?SGVsbG8=?="
        );
        assert_eq!(decoded("=?base64??=", "h").unwrap(), "");
    }
}
