//! The annotations a host reads on a resource or a content block (`Annotations` in both
//! revisions' schemas): who it is for, how much it matters, when it last changed.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

/// Who speaks a prompt message, or who a resource or a content block is for (the spec's one
/// `Role`).
///
/// ```
/// assert_eq!(beam_mcp::Role::Assistant.as_str(), "assistant");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The person using the host.
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// The wire word: `user` or `assistant`.
    ///
    /// ```
    /// assert_eq!(beam_mcp::Role::User.as_str(), "user");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// How much a resource or a block matters, from 0 (entirely optional) to 1 (effectively
/// required); no other value can be made.
///
/// ```
/// use beam_mcp::Priority;
/// assert_eq!(Priority::new(0.8).map(Priority::get), Some(0.8));
/// assert!(Priority::new(1.2).is_none());
/// assert!(Priority::new(f64::NAN).is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Priority(f64);

impl Priority {
    /// Effectively required (1).
    pub const REQUIRED: Priority = Priority(1.0);
    /// Entirely optional (0).
    pub const OPTIONAL: Priority = Priority(0.0);

    /// `value` as a priority, when it is from 0 to 1.
    ///
    /// ```
    /// assert!(beam_mcp::Priority::new(0.0).is_some());
    /// ```
    pub const fn new(value: f64) -> Option<Priority> {
        if value >= 0.0 && value <= 1.0 {
            Some(Priority(value))
        } else {
            None
        }
    }

    /// The value, from 0 to 1.
    ///
    /// ```
    /// assert_eq!(beam_mcp::Priority::REQUIRED.get(), 1.0);
    /// ```
    pub const fn get(self) -> f64 {
        self.0
    }

    /// A priority the macros checked at compile time.
    #[doc(hidden)]
    pub const fn __checked(value: f64) -> Priority {
        match Priority::new(value) {
            Some(p) => p,
            None => panic!("a priority is from 0 to 1"),
        }
    }
}

/// A moment in UTC, written on the wire as RFC 3339 (`2025-01-12T15:00:58Z`): a resource's or
/// a block's `lastModified`. Made from a [`SystemTime`] (a file's modification time), from
/// seconds since the Unix epoch, or at compile time from `last_modified = "..."` in an
/// attribute, which is checked there.
///
/// ```
/// use beam_mcp::Timestamp;
/// let t = Timestamp::from_unix(1_736_694_058, 0);
/// assert_eq!(t.to_string(), "2025-01-12T15:00:58Z");
/// assert_eq!(Timestamp::from_unix(0, 250_000_000).to_string(), "1970-01-01T00:00:00.25Z");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    seconds: i64,
    nanos: u32,
}

impl Timestamp {
    /// `seconds` (and `nanos`, below a second; more is carried into the seconds) since
    /// 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// let t = beam_mcp::Timestamp::from_unix(59, 1_500_000_000);
    /// assert_eq!(t.to_string(), "1970-01-01T00:01:00.5Z");
    /// ```
    pub const fn from_unix(seconds: i64, nanos: u32) -> Timestamp {
        Timestamp {
            seconds: seconds.saturating_add((nanos / 1_000_000_000) as i64),
            nanos: nanos % 1_000_000_000,
        }
    }

    /// The moment `time` names.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let t = beam_mcp::Timestamp::from_system_time(UNIX_EPOCH + Duration::from_secs(86_400));
    /// assert_eq!(t.to_string(), "1970-01-02T00:00:00Z");
    /// ```
    pub fn from_system_time(time: SystemTime) -> Timestamp {
        match time.duration_since(UNIX_EPOCH) {
            Ok(after) => Timestamp::from_unix(after.as_secs() as i64, after.subsec_nanos()),
            Err(before) => {
                let before = before.duration();
                // Before the epoch: round down to the second, then add back the fraction.
                let seconds = -(before.as_secs() as i64) - i64::from(before.subsec_nanos() > 0);
                let nanos = if before.subsec_nanos() > 0 {
                    1_000_000_000 - before.subsec_nanos()
                } else {
                    0
                };
                Timestamp::from_unix(seconds, nanos)
            }
        }
    }

    /// The moment `text` names, when it is an RFC 3339 date-time.
    ///
    /// ```
    /// let t = beam_mcp::Timestamp::parse("2025-01-12T16:00:58+01:00").unwrap();
    /// assert_eq!(t.to_string(), "2025-01-12T15:00:58Z");
    /// assert!(beam_mcp::Timestamp::parse("yesterday").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Timestamp, String> {
        beam_mcp_rules::timestamp(text).map(|(seconds, nanos)| Timestamp::from_unix(seconds, nanos))
    }

    /// Seconds since the Unix epoch.
    ///
    /// ```
    /// assert_eq!(beam_mcp::Timestamp::from_unix(42, 0).unix_seconds(), 42);
    /// ```
    pub const fn unix_seconds(self) -> i64 {
        self.seconds
    }
}

impl fmt::Display for Timestamp {
    /// RFC 3339 in UTC, with the fraction of a second only when there is one (to the
    /// nanosecond, its trailing zeros cut). RFC 3339 writes years 0000 to 9999: a moment
    /// outside them is written as the nearest end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
        const FIRST: i64 = -62_167_219_200;
        const LAST: i64 = 253_402_300_799;
        let (seconds, nanos) = if self.seconds < FIRST {
            (FIRST, 0)
        } else if self.seconds > LAST {
            (LAST, 999_999_999)
        } else {
            (self.seconds, self.nanos)
        };
        let days = seconds.div_euclid(86_400);
        let second_of_day = seconds.rem_euclid(86_400);
        let (year, month, day) = beam_mcp_rules::civil_from_days(days);
        write!(
            f,
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            second_of_day / 3_600,
            second_of_day / 60 % 60,
            second_of_day % 60
        )?;
        if nanos > 0 {
            let fraction = format!("{nanos:09}");
            write!(f, ".{}", fraction.trim_end_matches('0'))?;
        }
        f.write_str("Z")
    }
}

/// Who a resource or content block is for, how much it matters and when it last changed.
/// Every part is optional; [`Annotations::NONE`] has none.
///
/// ```
/// use beam_mcp::{Annotations, Priority, Role, Timestamp};
///
/// const FOR_THE_USER: Annotations = Annotations::NONE
///     .with_audience(&[Role::User])
///     .with_priority(Priority::REQUIRED)
///     .with_last_modified(Timestamp::from_unix(1_736_694_058, 0));
/// assert_eq!(
///     FOR_THE_USER.to_value(),
///     Some(serde_json::json!({
///         "audience": ["user"],
///         "priority": 1.0,
///         "lastModified": "2025-01-12T15:00:58Z",
///     }))
/// );
/// assert_eq!(Annotations::NONE.to_value(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Annotations {
    /// Who it is for; empty when not said.
    pub audience: &'static [Role],
    /// How much it matters.
    pub priority: Option<Priority>,
    /// When it last changed.
    pub last_modified: Option<Timestamp>,
}

impl Annotations {
    /// No annotations.
    pub const NONE: Annotations = Annotations {
        audience: &[],
        priority: None,
        last_modified: None,
    };

    const_setters! {
        /// Who it is for.
        with_audience(audience: &'static [Role]) => audience;

        /// How much it matters.
        with_priority(priority: Priority) => Some(priority);

        /// When it last changed.
        with_last_modified(last_modified: Timestamp) => Some(last_modified);
    }

    /// The annotations as the wire spells them, or `None` when there are none.
    ///
    /// ```
    /// use beam_mcp::{Annotations, Role};
    /// let a = Annotations::NONE.with_audience(&[Role::Assistant]);
    /// assert_eq!(a.to_value(), Some(serde_json::json!({ "audience": ["assistant"] })));
    /// ```
    pub fn to_value(&self) -> Option<Value> {
        let mut map = Map::new();
        if !self.audience.is_empty() {
            let roles = self.audience.iter().map(|r| Value::from(r.as_str()));
            map.insert("audience".into(), roles.collect());
        }
        if let Some(priority) = self.priority {
            map.insert("priority".into(), Value::from(priority.get()));
        }
        if let Some(moment) = self.last_modified {
            map.insert("lastModified".into(), Value::from(moment.to_string()));
        }
        (!map.is_empty()).then_some(Value::Object(map))
    }
}

#[cfg(feature = "client")]
impl Role {
    /// The role a wire word names.
    pub(crate) fn from_wire(word: &str) -> Option<Role> {
        match word {
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            _ => None,
        }
    }
}

#[cfg(feature = "client")]
impl Annotations {
    /// Annotations as the wire spells them (what a proxy relays): unknown keys are left out,
    /// a known key of the wrong shape is refused.
    pub(crate) fn from_value(value: &Value) -> Result<Annotations, String> {
        const USER: &[Role] = &[Role::User];
        const ASSISTANT: &[Role] = &[Role::Assistant];
        const BOTH: &[Role] = &[Role::User, Role::Assistant];
        const BOTH_REVERSED: &[Role] = &[Role::Assistant, Role::User];
        let object = value
            .as_object()
            .ok_or("annotations that are not an object")?;
        let mut out = Annotations::NONE;
        if let Some(audience) = object.get("audience") {
            let roles = audience
                .as_array()
                .ok_or("an audience that is not an array")?
                .iter()
                .map(|r| r.as_str().and_then(Role::from_wire))
                .collect::<Option<Vec<_>>>()
                .ok_or("an audience of a role other than user or assistant")?;
            out.audience = match roles.as_slice() {
                [] => &[],
                [Role::User] | [Role::User, Role::User] => USER,
                [Role::Assistant] | [Role::Assistant, Role::Assistant] => ASSISTANT,
                [Role::User, Role::Assistant] => BOTH,
                [Role::Assistant, Role::User] => BOTH_REVERSED,
                _ => return Err("an audience naming a role more than once".into()),
            };
        }
        if let Some(priority) = object.get("priority") {
            out.priority = Some(
                priority
                    .as_f64()
                    .and_then(Priority::new)
                    .ok_or("a priority that is not a number from 0 to 1")?,
            );
        }
        if let Some(moment) = object.get("lastModified") {
            let text = moment
                .as_str()
                .ok_or("a lastModified that is not a string")?;
            out.last_modified = Some(Timestamp::parse(text)?);
        }
        Ok(out)
    }
}

/// `entry.annotations`, when there are any.
pub(crate) fn insert_annotations(entry: &mut Map<String, Value>, annotations: &Annotations) {
    if let Some(value) = annotations.to_value() {
        entry.insert("annotations".into(), value);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_moment_before_the_epoch_keeps_its_fraction() {
        let t = Timestamp::from_system_time(UNIX_EPOCH - Duration::from_millis(1_500));
        assert_eq!(t.to_string(), "1969-12-31T23:59:58.5Z");
        let t = Timestamp::from_system_time(UNIX_EPOCH - Duration::from_secs(86_400));
        assert_eq!(t.to_string(), "1969-12-31T00:00:00Z");
    }

    #[test]
    fn a_moment_outside_rfc_3339_s_years_is_written_as_the_nearest_end() {
        assert_eq!(
            Timestamp::from_unix(i64::MAX, 1_500_000_000).to_string(),
            "9999-12-31T23:59:59.999999999Z"
        );
        assert_eq!(
            Timestamp::from_unix(i64::MIN, 0).to_string(),
            "0000-01-01T00:00:00Z"
        );
        assert_eq!(
            Timestamp::parse("0000-01-01T00:00:00Z").unwrap(),
            Timestamp::from_unix(-62_167_219_200, 0)
        );
        assert_eq!(
            Timestamp::parse("9999-12-31T23:59:59Z").unwrap(),
            Timestamp::from_unix(253_402_300_799, 0)
        );
    }

    #[test]
    fn what_is_written_reads_back() {
        for text in [
            "2025-01-12T15:00:58Z",
            "1999-12-31T23:59:59.999999999Z",
            "2000-02-29T12:00:00.5Z",
        ] {
            assert_eq!(Timestamp::parse(text).unwrap().to_string(), text);
        }
    }
}
