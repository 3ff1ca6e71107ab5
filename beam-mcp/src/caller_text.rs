//! Text a caller chose, as errors and logs carry it: cut to a bound, and escaped in the log.

/// The most bytes of caller text an error carries back, in `data`.
///
/// Longer text is cut at the last UTF-8 character boundary at or before this many bytes.
///
/// ```
/// use beam_mcp::protocol::{CALLER_TEXT_BYTES, ProtocolError};
/// let e = ProtocolError::UnknownTool("x".repeat(1 << 20));
/// let data = e.data().unwrap();
/// assert_eq!(data["name"].as_str().unwrap().len(), CALLER_TEXT_BYTES);
/// ```
pub const CALLER_TEXT_BYTES: usize = 256;

/// `text` cut to at most [`CALLER_TEXT_BYTES`] bytes, on a character boundary.
pub(crate) fn caller_text(text: &str) -> &str {
    if text.len() <= CALLER_TEXT_BYTES {
        return text;
    }
    let mut end = CALLER_TEXT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Text a caller chose, or host text that may hold it (a panic message, a fault's reason), as a
/// log line shows it: cut like an error's `data` (to [`CALLER_TEXT_BYTES`], then how long it
/// was) and escaped (`\n`, quotes, control characters), so that it can neither forge a line nor
/// run one to a mebibyte. Every such string reaches the log through it.
pub(crate) struct Logged<'a>(pub(crate) &'a str);

impl std::fmt::Display for Logged<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cut = caller_text(self.0);
        write!(f, "{}", cut.escape_debug())?;
        if cut.len() < self.0.len() {
            write!(f, "… ({} bytes)", self.0.len())?;
        }
        Ok(())
    }
}
