//! The window an observed graph covers, in RFC 3339 UTC.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

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
            started_at: rfc3339(started),
            ended_at: rfc3339(ended),
        }
    }

    /// As the JSON object the diff record carries: `{"ended_at": .., "started_at": ..}`.
    pub fn to_value(&self) -> Value {
        json!({ "ended_at": self.ended_at, "started_at": self.started_at })
    }
}

/// `YYYY-MM-DDTHH:MM:SS.ffffffZ`; instants before 1970 are written as 1970 (clocks that far
/// off are not a window anyone reads).
fn rfc3339(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        since.subsec_micros()
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_across_leap_years_and_centuries() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(47_540), (2100, 2, 28));
        assert_eq!(civil_from_days(47_541), (2100, 3, 1));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
    }
}
