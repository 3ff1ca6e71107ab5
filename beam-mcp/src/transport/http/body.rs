//! Reading the body: at most the cap, within one whole-body deadline.

use std::time::Duration;

use axum::body::{Body, Bytes};
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
/// deadline, so a client dripping bytes cannot hold the request open. A body that came in one
/// frame (the usual case) is that frame's bytes, not copied.
pub(crate) async fn read(mut body: Body, deadline: Duration) -> Result<Bytes, BodyError> {
    let read = async {
        let mut first = Bytes::new();
        let mut joined: Option<Vec<u8>> = None;
        let mut total = 0;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| BodyError::Unreadable(e.to_string()))?;
            let Ok(data) = frame.into_data() else {
                continue;
            };
            total += data.len();
            if total > MAX_MESSAGE_BYTES {
                return Err(BodyError::TooLarge);
            }
            match &mut joined {
                None if first.is_empty() => first = data,
                None => {
                    let mut all = Vec::with_capacity(total);
                    all.extend_from_slice(&first);
                    all.extend_from_slice(&data);
                    joined = Some(all);
                }
                Some(all) => all.extend_from_slice(&data),
            }
        }
        Ok(joined.map_or(first, Bytes::from))
    };
    tokio::time::timeout(deadline, read)
        .await
        .unwrap_or(Err(BodyError::Timeout))
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::convert::Infallible;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use std::time::Duration;

    use axum::body::{Body, Bytes};
    use http_body::Frame;

    use super::{BodyError, read};
    use crate::json::MAX_MESSAGE_BYTES;

    /// A body sent in the given frames, all ready at once.
    struct Frames(VecDeque<Bytes>);

    impl http_body::Body for Frames {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            Poll::Ready(self.0.pop_front().map(|data| Ok(Frame::data(data))))
        }
    }

    fn body(frames: Vec<Bytes>) -> Body {
        Body::new(Frames(frames.into()))
    }

    #[tokio::test]
    async fn frames_are_joined_in_order_and_one_frame_is_kept_whole() {
        let cases: [&[&str]; 6] = [
            &[],
            &[""],
            &["{}"],
            &["", "{\"a\":", "", "1}"],
            &["{", "\"a\"", ":", "[1,2]", "}"],
            &["{}", ""],
        ];
        for frames in cases {
            let sent: Vec<Bytes> = frames.iter().map(|f| Bytes::from(f.to_string())).collect();
            let got = match read(body(sent.clone()), Duration::from_secs(5)).await {
                Ok(got) => got,
                Err(_) => panic!("{frames:?} was refused"),
            };
            assert_eq!(got, frames.concat().as_bytes(), "{frames:?}");
            if let [one] = &sent[..] {
                // The frame itself, not a copy of it.
                assert_eq!(got.as_ptr(), one.as_ptr(), "{frames:?}");
            }
        }
    }

    #[tokio::test]
    async fn a_body_past_the_cap_is_refused_across_frames() {
        let half = Bytes::from(vec![b' '; MAX_MESSAGE_BYTES / 2 + 1]);
        let refused = read(body(vec![half.clone(), half]), Duration::from_secs(5)).await;
        assert!(matches!(refused, Err(BodyError::TooLarge)));
        let at_cap = Bytes::from(vec![b' '; MAX_MESSAGE_BYTES]);
        let read_whole = read(body(vec![at_cap]), Duration::from_secs(5)).await;
        assert!(matches!(read_whole, Ok(bytes) if bytes.len() == MAX_MESSAGE_BYTES));
    }
}
