//! The window an observed graph covers, in RFC 3339 UTC.

use std::time::SystemTime;

use serde_json::{Value, json};

use crate::clock::{Fraction, rfc3339};

/// From when to when an observed graph was collected: `started_at` and `ended_at` in RFC 3339
/// UTC with microseconds (`2026-12-01T12:00:00.000000Z`). The diff carries it verbatim.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use beam_mcp::connectome::Window;
///
/// let start = UNIX_EPOCH + Duration::from_secs(1_789_344_000);
/// let window = Window::between(start, start + Duration::from_micros(3_600_000_001));
/// assert_eq!(window.started_at, "2026-09-14T00:00:00.000000Z");
/// assert_eq!(window.ended_at, "2026-09-14T01:00:00.000001Z");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Window {
    /// When the observer started.
    pub started_at: String,
    /// When the graph was read.
    pub ended_at: String,
}

impl Window {
    /// The window between two instants.
    pub fn between(started: SystemTime, ended: SystemTime) -> Window {
        Window {
            started_at: rfc3339(started, Fraction::Micros),
            ended_at: rfc3339(ended, Fraction::Micros),
        }
    }

    /// As the JSON object the diff record carries: `{"ended_at": .., "started_at": ..}`.
    pub fn to_value(&self) -> Value {
        json!({ "ended_at": self.ended_at, "started_at": self.started_at })
    }
}
