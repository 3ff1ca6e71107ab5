//! Reading the body: at most the cap, within one whole-body deadline.

use std::time::Duration;

use axum::body::Body;
use http_body_util::BodyExt;

use super::refusal::HttpRefusal;
use crate::json::MAX_MESSAGE_BYTES;
use crate::protocol::ProtocolError;

/// Why the body could not be had.
pub(crate) enum BodyError {
    /// More than [`MAX_MESSAGE_BYTES`]: 413.
    TooLarge,
    /// The deadline passed first: 408.
    Timeout,
    /// The connection failed mid-body: 400.
    Unreadable(String),
}

impl BodyError {
    pub(crate) fn status_and_error(self, deadline: Duration) -> (u16, HttpRefusal) {
        match self {
            BodyError::TooLarge => (413, ProtocolError::TooLarge.into()),
            BodyError::Timeout => (408, HttpRefusal::BodyTimeout(deadline.as_millis() as u64)),
            BodyError::Unreadable(detail) => {
                tracing::info!(%detail, "the request body could not be read");
                (400, HttpRefusal::BodyUnreadable)
            }
        }
    }
}

/// The whole body, refused as soon as it passes the cap; every frame counts against one
/// deadline, so a client dripping bytes cannot hold the request open.
pub(crate) async fn read(mut body: Body, deadline: Duration) -> Result<Vec<u8>, BodyError> {
    let read = async {
        let mut bytes = Vec::new();
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| BodyError::Unreadable(e.to_string()))?;
            if let Ok(data) = frame.into_data() {
                if bytes.len() + data.len() > MAX_MESSAGE_BYTES {
                    return Err(BodyError::TooLarge);
                }
                bytes.extend_from_slice(&data);
            }
        }
        Ok(bytes)
    };
    tokio::time::timeout(deadline, read)
        .await
        .unwrap_or(Err(BodyError::Timeout))
}
