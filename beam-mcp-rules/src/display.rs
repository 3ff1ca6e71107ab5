//! The rules of what hosts display: icons (source, MIME type, sizes), the priority of an
//! annotation, and RFC 3339 timestamps (`lastModified`), read once here so the macros refuse
//! at compile time what `build()` refuses at startup.

/// The image types an icon may have: the four the spec names (PNG and JPEG, which clients
/// must render; SVG and WebP, which they should), and GIF and ICO, which browsers render.
pub const ICON_MIME_TYPES: [&str; 7] = [
    "image/png",
    "image/jpeg",
    "image/svg+xml",
    "image/webp",
    "image/gif",
    "image/x-icon",
    "image/vnd.microsoft.icon",
];

/// Whether `src` is a URI an icon may have: `https:`, `http:` or a base64 `data:` image URI.
///
/// ```
/// use beam_mcp_rules::icon_source;
/// assert!(icon_source("https://example.com/a.png").is_ok());
/// assert!(icon_source("data:image/png;base64,iVBORw0KGgo=").is_ok());
/// assert!(icon_source("assets/a.png").is_err());
/// assert!(icon_source("data:text/html;base64,PGI+").is_err());
/// ```
pub fn icon_source(src: &str) -> Result<(), String> {
    if let Some(rest) = src.strip_prefix("data:") {
        let Some((kind, data)) = rest.split_once(";base64,") else {
            return Err("a data: icon is written data:<image type>;base64,<data>".into());
        };
        icon_mime_type(kind)?;
        if data.is_empty()
            || !data
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
        {
            return Err("a data: icon's data is base64".into());
        }
        return Ok(());
    }
    let rest = src
        .strip_prefix("https://")
        .or_else(|| src.strip_prefix("http://"));
    match rest {
        Some(rest)
            if !rest.is_empty()
                && !rest.starts_with('/')
                && rest.bytes().all(|b| b.is_ascii_graphic()) =>
        {
            Ok(())
        }
        _ => Err("an icon is an https: (or http:) URL or a data: URI; a file in the crate is embedded with icon = \"path\" in an attribute or beam_mcp::icon!(\"path\")".into()),
    }
}

/// Whether `mime_type` is an image type an icon may have ([`ICON_MIME_TYPES`]).
///
/// ```
/// use beam_mcp_rules::icon_mime_type;
/// assert!(icon_mime_type("image/png").is_ok());
/// assert!(icon_mime_type("image/tiff").is_err());
/// ```
pub fn icon_mime_type(mime_type: &str) -> Result<(), String> {
    if ICON_MIME_TYPES.contains(&mime_type) {
        Ok(())
    } else {
        Err(format!(
            "{mime_type:?} is not an icon type; an icon is one of {}",
            ICON_MIME_TYPES.join(", ")
        ))
    }
}

/// Whether `size` is written as an icon size: `WxH` (whole pixels above zero) or `any`.
///
/// ```
/// use beam_mcp_rules::icon_size;
/// assert!(icon_size("48x48").is_ok());
/// assert!(icon_size("any").is_ok());
/// assert!(icon_size("48").is_err());
/// assert!(icon_size("0x48").is_err());
/// ```
pub fn icon_size(size: &str) -> Result<(), String> {
    let pixels = |n: &str| {
        !n.is_empty()
            && n.len() <= 5
            && !n.starts_with('0')
            && n.bytes().all(|b| b.is_ascii_digit())
    };
    match size.split_once('x') {
        _ if size == "any" => Ok(()),
        Some((w, h)) if pixels(w) && pixels(h) => Ok(()),
        _ => Err(format!(
            "icon size {size:?} is written WxH (\"48x48\") or \"any\""
        )),
    }
}

/// Whether `priority` is an annotation's priority: from 0 (entirely optional) to 1
/// (effectively required).
///
/// ```
/// use beam_mcp_rules::priority;
/// assert!(priority(0.5).is_ok());
/// assert!(priority(1.5).is_err());
/// assert!(priority(f64::NAN).is_err());
/// ```
pub fn priority(priority: f64) -> Result<(), String> {
    if (0.0..=1.0).contains(&priority) {
        Ok(())
    } else {
        Err(format!(
            "a priority is from 0 (optional) to 1 (required), not {priority}"
        ))
    }
}

/// An RFC 3339 date-time (`2025-01-12T15:00:58Z`, `2025-01-12T16:00:58.250+01:00`) as seconds
/// and nanoseconds since the Unix epoch, UTC.
///
/// ```
/// use beam_mcp_rules::timestamp;
/// assert_eq!(timestamp("1970-01-01T00:00:00Z"), Ok((0, 0)));
/// assert_eq!(timestamp("2025-01-12T16:00:58.25+01:00"), Ok((1_736_694_058, 250_000_000)));
/// assert!(timestamp("2025-02-30T00:00:00Z").is_err());
/// assert!(timestamp("2025-01-12 15:00").is_err());
/// ```
pub fn timestamp(text: &str) -> Result<(i64, u32), String> {
    let refuse = || {
        format!(
            "{text:?} is not an RFC 3339 date-time; write it as 2025-01-12T15:00:58Z (or with an offset, +01:00)"
        )
    };
    let bytes = text.as_bytes();
    let number = |from: usize, to: usize| -> Option<i64> {
        let digits = bytes.get(from..to)?;
        digits
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let at = |i: usize, c: u8| bytes.get(i) == Some(&c);
    let shape = at(4, b'-')
        && at(7, b'-')
        && (at(10, b'T') || at(10, b't'))
        && at(13, b':')
        && at(16, b':');
    if !shape {
        return Err(refuse());
    }
    let fields = (|| {
        Some((
            number(0, 4)?,
            number(5, 7)?,
            number(8, 10)?,
            number(11, 13)?,
            number(14, 16)?,
            number(17, 19)?,
        ))
    })();
    let Some((year, month, day, hour, minute, second)) = fields else {
        return Err(refuse());
    };
    let mut i = 19;
    let mut nanos: u32 = 0;
    if at(i, b'.') {
        let start = i + 1;
        i = start;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return Err(refuse());
        }
        // Nanoseconds from the first nine digits; further digits are below a nanosecond.
        for (k, d) in bytes[start..i].iter().take(9).enumerate() {
            nanos += u32::from(d - b'0') * 10u32.pow(8 - k as u32);
        }
    }
    let offset = match bytes.get(i) {
        Some(b'Z' | b'z') if i + 1 == bytes.len() => 0,
        Some(sign @ (b'+' | b'-')) if i + 6 == bytes.len() && at(i + 3, b':') => {
            let (Some(h), Some(m)) = (number(i + 1, i + 3), number(i + 4, i + 6)) else {
                return Err(refuse());
            };
            if h > 23 || m > 59 {
                return Err(refuse());
            }
            let minutes = h * 60 + m;
            if *sign == b'+' { minutes } else { -minutes }
        }
        _ => return Err(refuse()),
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return Err(refuse()),
    };
    // A leap second (60) is read as the second before the next minute begins.
    if day == 0 || day > days_in_month || hour > 23 || minute > 59 || second > 60 {
        return Err(refuse());
    }
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second.min(59) - offset * 60;
    Ok((seconds, nanos))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day counted from 1970-01-01 (the inverse of `days_from_civil`):
/// `(year, month, day)`.
///
/// ```
/// assert_eq!(beam_mcp_rules::civil_from_days(20_100), (2025, 1, 12));
/// ```
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_day_of_four_centuries_goes_there_and_back() {
        for days in -146_097..146_097 {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, i64::from(m), i64::from(d)), days);
        }
    }

    #[test]
    fn timestamps_read_their_offset_and_fraction() {
        assert_eq!(timestamp("2025-01-12T15:00:58Z"), Ok((1_736_694_058, 0)));
        assert_eq!(
            timestamp("2025-01-12T10:00:58-05:00"),
            Ok((1_736_694_058, 0))
        );
        assert_eq!(
            timestamp("2024-02-29T00:00:00.123456789123Z"),
            Ok((1_709_164_800, 123_456_789))
        );
        for bad in [
            "2023-02-29T00:00:00Z",
            "2025-13-01T00:00:00Z",
            "2025-01-12T24:00:00Z",
            "2025-01-12T15:00:58",
            "2025-01-12T15:00:58+1:00",
            "2025-01-12T15:00:58.Z",
            "2025-01-12T15:00:58Zjunk",
            "+2025-01-12T15:00:58Z",
            "",
        ] {
            assert!(timestamp(bad).is_err(), "{bad}");
        }
    }
}
