//! Where the Redis is and how to reach it: the URL, credentials and TLS roots, from the code or
//! from the environment.

use std::time::Duration;

use redis::{Client, IntoConnectionInfo, ProtocolVersion};

/// How a replica reaches Redis.
///
/// ```
/// use beam_mcp::redis::RedisOptions;
/// use std::time::Duration;
///
/// let options = RedisOptions::new("rediss://redis.internal:6380/0")
///     .username("mcp")
///     .password("from-the-secret-store")
///     .response_timeout(Duration::from_millis(250));
/// assert_eq!(options.url(), "rediss://redis.internal:6380/0");
/// // Secrets stay out of Debug output.
/// assert!(!format!("{options:?}").contains("from-the-secret-store"));
/// ```
#[derive(Clone)]
pub struct RedisOptions {
    url: String,
    username: Option<String>,
    password: Option<String>,
    ca_pem: Option<Vec<u8>>,
    pub(super) response_timeout: Duration,
    pub(super) max_reconnect_delay: Duration,
}

/// Why a replica could not connect to Redis.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// `BEAM_MCP_REDIS_URL` is not set.
    #[error("BEAM_MCP_REDIS_URL is not set: it names the shared Redis (redis:// or rediss://)")]
    NoUrl,
    /// The URL could not be read.
    #[error("the Redis URL is not valid: {0}")]
    Url(String),
    /// The file of TLS roots could not be read.
    #[error("the Redis CA file {path} could not be read: {source}")]
    CaFile {
        /// The file named by `BEAM_MCP_REDIS_CA_FILE`.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// Redis did not answer, or refused the credentials.
    #[error("Redis could not be reached: {0}")]
    Unreachable(String),
}

impl RedisOptions {
    /// Redis at `url`: `redis://host:port/db`, or `rediss://…` for TLS (checked against the
    /// system's roots, or [`ca_pem`](Self::ca_pem)).
    pub fn new(url: impl Into<String>) -> RedisOptions {
        RedisOptions {
            url: url.into(),
            username: None,
            password: None,
            ca_pem: None,
            response_timeout: Duration::from_millis(500),
            max_reconnect_delay: Duration::from_millis(500),
        }
    }

    /// From the environment: `BEAM_MCP_REDIS_URL` (required), `BEAM_MCP_REDIS_USERNAME` and
    /// `BEAM_MCP_REDIS_PASSWORD` (an ACL user, or the password alone for `AUTH`; they override
    /// what the URL says), and `BEAM_MCP_REDIS_CA_FILE` (PEM roots of a private CA).
    pub fn from_env() -> Result<RedisOptions, ConnectError> {
        let url = std::env::var("BEAM_MCP_REDIS_URL").map_err(|_| ConnectError::NoUrl)?;
        let mut options = RedisOptions::new(url);
        if let Ok(username) = std::env::var("BEAM_MCP_REDIS_USERNAME") {
            options = options.username(username);
        }
        if let Ok(password) = std::env::var("BEAM_MCP_REDIS_PASSWORD") {
            options = options.password(password);
        }
        if let Ok(path) = std::env::var("BEAM_MCP_REDIS_CA_FILE") {
            let pem = std::fs::read(&path).map_err(|source| ConnectError::CaFile {
                path: path.clone(),
                source,
            })?;
            options = options.ca_pem(pem);
        }
        Ok(options)
    }

    /// The URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The ACL user.
    pub fn username(mut self, username: impl Into<String>) -> Self {
        self.username = Some(username.into());
        self
    }

    /// The password (`AUTH`).
    pub fn password(mut self, password: impl Into<String>) -> Self {
        self.password = Some(password.into());
        self
    }

    /// Trust these PEM roots for `rediss://` instead of the system's.
    pub fn ca_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.ca_pem = Some(pem.into());
        self
    }

    /// How long one command may take before its request is refused (default 500 ms; at
    /// least 1 ms).
    pub fn response_timeout(mut self, limit: Duration) -> Self {
        self.response_timeout = limit.max(Duration::from_millis(1));
        self
    }

    /// The longest wait between two attempts to reconnect (default 500 ms), so service is back
    /// within about this long after Redis is.
    pub fn max_reconnect_delay(mut self, delay: Duration) -> Self {
        self.max_reconnect_delay = delay.max(Duration::from_millis(10));
        self
    }

    pub(super) fn client(&self) -> Result<Client, ConnectError> {
        let info = self
            .url
            .as_str()
            .into_connection_info()
            .map_err(|e| ConnectError::Url(e.to_string()))?;
        // RESP3: pub/sub rides the command connection, and is resubscribed after a reconnect.
        let mut settings = info
            .redis_settings()
            .clone()
            .set_protocol(ProtocolVersion::RESP3);
        if let Some(username) = &self.username {
            settings = settings.set_username(username);
        }
        if let Some(password) = &self.password {
            settings = settings.set_password(password);
        }
        let info = info.set_redis_settings(settings);
        let client = match &self.ca_pem {
            Some(pem) => Client::build_with_tls(
                info,
                redis::TlsCertificates {
                    client_tls: None,
                    root_cert: Some(pem.clone()),
                },
            ),
            None => Client::open(info),
        };
        client.map_err(|e| ConnectError::Url(e.to_string()))
    }
}

impl std::fmt::Debug for RedisOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisOptions")
            .field("url", &redacted(&self.url))
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "…"))
            .field("ca_pem", &self.ca_pem.as_ref().map(Vec::len))
            .field("response_timeout", &self.response_timeout)
            .field("max_reconnect_delay", &self.max_reconnect_delay)
            .finish()
    }
}

/// The URL without a password it may carry (`redis://user:secret@host`).
fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://…@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_in_the_url_stays_out_of_debug() {
        let options = RedisOptions::new("redis://mcp:hunter2@10.0.0.5:6379/0");
        let shown = format!("{options:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("10.0.0.5:6379/0"), "{shown}");
    }

    #[test]
    fn a_url_that_is_not_redis_is_refused_before_connecting() {
        let error = RedisOptions::new("http://example").client().unwrap_err();
        assert!(matches!(error, ConnectError::Url(_)), "{error}");
    }
}
