//! What the stdio framing refuses before a message reaches the core.

/// A frame the stdio reader refuses: answered `-32600` (or `-32700` for a bad length) without
/// an id, and the reader goes on (or, for a frame it cannot skip, stops).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum FrameError {
    /// A stdio line longer than the bound.
    #[error("Request line exceeds 1048576 bytes")]
    LineTooLong,
    /// A `Content-Length` frame longer than the bound.
    #[error("Request frame exceeds 1048576 bytes")]
    FrameTooLong,
    /// A `Content-Length` header whose value is not a length.
    #[error("Parse error: invalid_content_length")]
    InvalidContentLength,
}

impl FrameError {
    /// The JSON-RPC error code.
    pub(crate) fn code(&self) -> i64 {
        match self {
            FrameError::InvalidContentLength => -32700,
            FrameError::LineTooLong | FrameError::FrameTooLong => -32600,
        }
    }

    /// The error response, without an id (the frame's was never read).
    pub(crate) fn response(&self) -> Vec<u8> {
        super::refusal::error_response(None, self.code(), self.to_string(), None)
    }
}
