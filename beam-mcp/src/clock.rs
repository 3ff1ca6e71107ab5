//! Instants written as RFC 3339 in UTC, for the wire (task timestamps) and the connectome
//! (observer windows).

use std::time::{SystemTime, UNIX_EPOCH};

/// How many fraction digits a timestamp carries.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Fraction {
    /// `.mmm`
    Millis,
    /// `.uuuuuu`
    Micros,
}

/// `YYYY-MM-DDTHH:MM:SS.fffZ`; an instant before 1970 is written as 1970-01-01 (a clock that
/// far off is not a time anyone reads).
pub(crate) fn rfc3339(at: SystemTime, fraction: Fraction) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days);
    let clock = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    );
    match fraction {
        Fraction::Millis => format!("{clock}.{:03}Z", since.subsec_millis()),
        Fraction::Micros => format!("{clock}.{:06}Z", since.subsec_micros()),
    }
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
    use std::time::Duration;

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

    #[test]
    fn timestamps_in_milliseconds_and_microseconds() {
        assert_eq!(
            rfc3339(UNIX_EPOCH, Fraction::Millis),
            "1970-01-01T00:00:00.000Z"
        );
        let t = UNIX_EPOCH + Duration::from_micros(1_796_121_545_123_456);
        assert_eq!(rfc3339(t, Fraction::Millis), "2026-12-01T10:39:05.123Z");
        assert_eq!(rfc3339(t, Fraction::Micros), "2026-12-01T10:39:05.123456Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(rfc3339(leap, Fraction::Millis), "2000-02-29T00:00:00.000Z");
    }
}
