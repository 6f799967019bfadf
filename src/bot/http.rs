//! A small HTTP/1.1 server on std's `TcpListener`, just enough for `zero serve`'s page and JSON API: one thread
//! per connection, `Connection: close`, and limits so that a flood of requests cannot take it down: a cap on
//! open connections (excess ones get 503 at once), read/write timeouts, bounded header and body sizes.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

pub const MAX_BODY_BYTES: usize = 16 * 1024;
const MAX_HEADER_BYTES: usize = 16 * 1024;
const MAX_CONNECTIONS: usize = 64;
const IO_TIMEOUT: Duration = Duration::from_secs(10);

pub struct Request {
    pub method: String,
    pub path: String,
    pub body: Vec<u8>,
}

pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response {
            status,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
        }
    }

    pub fn error(status: u16, message: impl Into<String>) -> Response {
        Response::json(status, &serde_json::json!({ "error": message.into() }))
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Payload Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Serves `handler` on `listener` forever.
pub fn serve(listener: TcpListener, handler: Arc<dyn Fn(Request) -> Response + Send + Sync>) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
        let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            let _ = write_response(&mut stream, &Response::error(503, "too many connections"));
            continue;
        }
        let handler = Arc::clone(&handler);
        let open = Arc::clone(&open);
        std::thread::spawn(move || {
            let response = match read_request(&mut stream) {
                Ok(request) => handler(request),
                Err(response) => response,
            };
            let _ = write_response(&mut stream, &response);
            // Unread input (a refused body) would make the kernel reset the connection and the client lose the
            // response: close our side, then drain a bounded amount briefly.
            let _ = stream.shutdown(std::net::Shutdown::Write);
            let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
            let _ = std::io::copy(&mut (&mut stream).take(1 << 20), &mut std::io::sink());
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

fn read_request(stream: &mut TcpStream) -> Result<Request, Response> {
    let mut reader = BufReader::new(stream.take((MAX_HEADER_BYTES + MAX_BODY_BYTES) as u64));
    let mut line = String::new();
    let bad = |m: &str| Response::error(400, m.to_string());
    reader
        .read_line(&mut line)
        .map_err(|_| bad("unreadable request line"))?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(path)) = (parts.next(), parts.next()) else {
        return Err(bad("malformed request line"));
    };
    let (method, path) = (method.to_string(), path.to_string());
    let mut content_length = 0usize;
    let mut header_bytes = line.len();
    loop {
        let mut header = String::new();
        let n = reader.read_line(&mut header).map_err(|_| bad("unreadable header"))?;
        header_bytes += n;
        if header_bytes > MAX_HEADER_BYTES {
            return Err(Response::error(413, "headers too large"));
        }
        let header = header.trim_end();
        if n == 0 || header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            content_length = value.trim().parse().map_err(|_| bad("bad Content-Length"))?;
        }
    }
    if content_length > MAX_BODY_BYTES {
        return Err(Response::error(
            413,
            format!("body of {content_length} bytes is over the limit of {MAX_BODY_BYTES}"),
        ));
    }
    let mut body = vec![0; content_length];
    reader
        .read_exact(&mut body)
        .map_err(|_| bad("body shorter than its Content-Length"))?;
    Ok(Request { method, path, body })
}

fn write_response(stream: &mut TcpStream, response: &Response) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&response.body)?;
    stream.flush()
}
