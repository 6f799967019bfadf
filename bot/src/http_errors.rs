//! JSON bodies for the answers hyper writes on its own. A request whose head hyper cannot parse (a malformed
//! request line or header: 400), whose head is over the buffer limit (431) or whose target is too long (414)
//! never reaches a handler: hyper writes a bare head with `content-length: 0` and closes the connection. The
//! server promises a JSON object `{"error": "..."}` for every error, so the connection's writes go through
//! [`JsonErrors`], which replaces such a head with one carrying a JSON body.
//!
//! A head is hyper's own when it is a whole write at a response boundary, has an error status and no
//! `content-type`: every answer of the server's handlers carries one.

use hyper::rt::{Read, ReadBufCursor, Write};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

/// A connection whose bare error answers are rewritten with JSON bodies.
pub struct JsonErrors<T> {
    inner: T,
    /// The server's limit on a request's head, which a 431 names.
    head_limit: usize,
    /// Whether the next write starts a response (the last one was written whole).
    at_boundary: bool,
    /// A replacement being written.
    pending: Option<Replacement>,
}

/// An answer written in place of one of hyper's bare heads.
struct Replacement {
    bytes: Vec<u8>,
    /// How much of it is out.
    written: usize,
    /// The length of hyper's write it stands for: what hyper is told was written once all of it is out.
    stands_for: usize,
}

impl Replacement {
    /// Writes what is left of it into `inner`.
    fn poll_out<T: Write + Unpin>(&mut self, inner: &mut T, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.bytes.len() {
            let n = ready!(Pin::new(&mut *inner).poll_write(cx, &self.bytes[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<T> JsonErrors<T> {
    pub fn new(inner: T, head_limit: usize) -> JsonErrors<T> {
        JsonErrors {
            inner,
            head_limit,
            at_boundary: true,
            pending: None,
        }
    }
}

/// The answer to write instead of `head` when it is one of hyper's bare error heads.
fn replacement(head: &[u8], head_limit: usize) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let (lines, rest) = text.split_once("\r\n\r\n")?;
    if !rest.is_empty() {
        return None;
    }
    let mut lines = lines.split("\r\n");
    let status_line = lines.next()?;
    let status: u16 = status_line.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()?;
    let headers: Vec<String> = lines.map(str::to_ascii_lowercase).collect();
    let bare = headers.iter().all(|h| !h.starts_with("content-type:"))
        && headers.iter().any(|h| h.replace(' ', "") == "content-length:0");
    if status < 400 || !bare {
        return None;
    }
    let body = serde_json::json!({ "error": message(status, head_limit) }).to_string();
    Some(
        format!(
            "{status_line}\r\ncontent-type: application/json\r\ncache-control: no-store\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

/// What a client is told for each status hyper answers by itself.
fn message(status: u16, head_limit: usize) -> String {
    match status {
        400 => "the request is not valid HTTP/1.1: its request line or a header is malformed".to_string(),
        414 => "the request's target is too long".to_string(),
        431 => format!("the request's head is over the limit of {head_limit} bytes"),
        other => format!("the request was refused before it was read (HTTP status {other})"),
    }
}

impl<T: Write + Unpin> Write for JsonErrors<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_none()
            && this.at_boundary
            && let Some(bytes) = replacement(buf, this.head_limit)
        {
            this.pending = Some(Replacement {
                bytes,
                written: 0,
                stands_for: buf.len(),
            });
        }
        if let Some(pending) = this.pending.as_mut() {
            ready!(pending.poll_out(&mut this.inner, cx))?;
            let stands_for = pending.stands_for;
            this.pending = None;
            this.at_boundary = true;
            return Poll::Ready(Ok(stands_for));
        }
        let n = ready!(Pin::new(&mut this.inner).poll_write(cx, buf))?;
        this.at_boundary = n == buf.len();
        Poll::Ready(Ok(n))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    // Not vectored: hyper then hands each response over as one buffer, which is what a head is recognised in.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

impl<T: Read + Unpin> Read for JsonErrors<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: ReadBufCursor<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::replacement;

    #[test]
    fn only_bare_error_heads_are_replaced() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(replacement(bare, 16384).unwrap()).unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"),
            "{answer}"
        );
        let body: serde_json::Value = serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("over the limit of 16384 bytes"),
            "{body}"
        );
        // The server's own answers carry a content type; a head with a body is not a bare one; nor is a success.
        let own = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(replacement(own, 16384), None);
        assert_eq!(
            replacement(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}", 16384),
            None
        );
        assert_eq!(
            replacement(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n", 16384),
            None
        );
        assert_eq!(
            replacement(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n", 16384),
            None
        );
    }
}
