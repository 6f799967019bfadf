//! The HTTP side of `zero serve`, on hyper (the HTTP/1 implementation under axum and most Rust servers, on
//! tokio). The game logic stays synchronous: a [`Request`] in, a [`Response`] out, run on tokio's blocking pool
//! (a search takes a core for a while).
//!
//! Every resource a client can hold is bounded, so that neither a flood of requests nor a few slow clients
//! (slowloris) can take the server down or keep others out:
//! - connections: at most [`MAX_CONNECTIONS`] open; further ones wait in the kernel's queue until one closes;
//! - headers: at most [`MAX_HEADER_BYTES`] (431 past it), all of them within [`HEADER_TIMEOUT`] of the
//!   connection becoming ready for a request, idle keep-alive connections included (then the connection is
//!   closed);
//! - bodies: at most [`MAX_BODY_BYTES`] (413), all of it within [`BODY_TIMEOUT`] (408);
//! - work: at most [`MAX_IN_FLIGHT`] requests handled at once, counted only once their body is in, so that
//!   clients trickling bytes hold no handler; one more gets 503 at once rather than a place in a queue.
//!
//! And a page in a browser cannot be turned against it: on a loopback address the server answers only to a
//! `Host` of localhost, 127.0.0.1 or `[::1]` (a DNS-rebinding page names its own host), and a request that
//! changes something (any method but GET and HEAD) from a page of another origin is refused. Every error is a
//! JSON object `{"error": "..."}`, those hyper answers before any handler runs included (`http_errors::JsonErrors`).

use crate::error::{Context, Result};
use crate::http_errors::JsonErrors;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// The most bytes hyper buffers for a request's head (hyper's own floor is 8 KiB).
pub const MAX_HEADER_BYTES: usize = 16 * 1024;
/// Requests handled at once; one more is refused with 503 rather than queued.
pub const MAX_IN_FLIGHT: usize = 64;
/// Connections open at once.
pub const MAX_CONNECTIONS: usize = 1024;
/// The time a client has to send a request's headers, counted from when the connection can take a request.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The time a client has to send a request's body once its headers are in.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Threads of the runtime that reads and writes requests (the handlers run on its blocking pool).
const IO_THREADS: usize = 2;

pub struct Request {
    pub method: String,
    /// The path with its query, as requested (`/api/state?game=a`).
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

    fn into_hyper(self) -> hyper::Response<Full<Bytes>> {
        let mut response = hyper::Response::new(Full::new(Bytes::from(self.body)));
        *response.status_mut() = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(self.content_type));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

/// The handler every request goes to.
pub type Handler = Arc<dyn Fn(Request) -> Response + Send + Sync>;

/// What every connection shares: the handler, the handlers' permits, and whether the server is loopback-only.
struct Shared {
    handler: Handler,
    in_flight: Arc<Semaphore>,
    loopback: bool,
}

/// Serves `handler` on `listener` until the process ends.
pub fn serve(listener: std::net::TcpListener, handler: Handler) -> Result<()> {
    listener
        .set_nonblocking(true)
        .context("setting the listener non-blocking")?;
    let shared = Arc::new(Shared {
        handler,
        in_flight: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
        loopback: listener.local_addr()?.ip().is_loopback(),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(IO_THREADS)
        .enable_io()
        .enable_time()
        .build()
        .context("starting the HTTP runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).context("handing the listener to tokio")?;
        let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        loop {
            let permit = Arc::clone(&connections)
                .acquire_owned()
                .await
                .map_err(|_| crate::BotError::invalid("the connection limit was closed"))?;
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of file descriptors, a connection reset before it was accepted: not the server's end.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let shared = Arc::clone(&shared);
            tokio::spawn(async move {
                let service = service_fn(move |request| answer(Arc::clone(&shared), request));
                let connection = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_TIMEOUT)
                    .max_buf_size(MAX_HEADER_BYTES)
                    .serve_connection(JsonErrors::new(TokioIo::new(stream), MAX_HEADER_BYTES), service);
                // A client that breaks off or times out ends its own connection only.
                let _ = connection.await;
                drop(permit);
            });
        }
    })
}

async fn answer(
    shared: Arc<Shared>,
    request: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    Ok(respond(&shared, request).await.into_hyper())
}

/// Checks where the request comes from, reads its body within the limits, then runs the handler on the
/// blocking pool if a permit is free.
async fn respond(shared: &Shared, request: hyper::Request<Incoming>) -> Response {
    let (parts, body) = request.into_parts();
    if let Some(refusal) = refuse_foreign(&parts, shared.loopback) {
        return refusal;
    }
    let body = match tokio::time::timeout(BODY_TIMEOUT, Limited::new(body, MAX_BODY_BYTES).collect()).await {
        Ok(Ok(collected)) => collected.to_bytes().to_vec(),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
            return Response::error(413, format!("body over the limit of {MAX_BODY_BYTES} bytes"));
        }
        Ok(Err(e)) => return Response::error(400, format!("reading the body: {e}")),
        Err(_) => {
            return Response::error(
                408,
                format!("the body did not arrive within {} s", BODY_TIMEOUT.as_secs()),
            );
        }
    };
    let Ok(permit) = Arc::clone(&shared.in_flight).try_acquire_owned() else {
        return Response::error(503, "the server is busy; try again");
    };
    let request = Request {
        method: parts.method.to_string(),
        path: parts
            .uri
            .path_and_query()
            .map_or_else(|| parts.uri.path().to_string(), |p| p.to_string()),
        body,
    };
    let handler = Arc::clone(&shared.handler);
    tokio::task::spawn_blocking(move || {
        let response = handler(request);
        drop(permit);
        response
    })
    .await
    .unwrap_or_else(|_| Response::error(500, "the request failed inside the server"))
}

/// The refusal of a request that a browser page of another site may have sent: a foreign `Host` on a
/// loopback server (DNS rebinding), or a change (not GET or HEAD) from another origin (cross-site request).
fn refuse_foreign(parts: &hyper::http::request::Parts, loopback: bool) -> Option<Response> {
    let host = parts
        .headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if loopback && !is_loopback_name(host) {
        return Some(Response::error(
            403,
            format!(
                "host {host:?} refused: this server listens on a loopback address and answers only to localhost, 127.0.0.1 or [::1]"
            ),
        ));
    }
    if parts.method == Method::GET || parts.method == Method::HEAD {
        return None;
    }
    let origin = parts.headers.get(header::ORIGIN)?.to_str().unwrap_or("");
    let authority = origin.split_once("://").map_or("", |(_, rest)| rest);
    (!authority.eq_ignore_ascii_case(host)).then(|| {
        Response::error(
            403,
            format!("cross-site request refused: origin {origin:?} is not this server ({host})"),
        )
    })
}

/// Whether a `Host` header names this machine's loopback interface, with or without a port.
fn is_loopback_name(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    name.eq_ignore_ascii_case("localhost") || name == "127.0.0.1" || name == "::1"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_with_and_without_ports_and_nothing_else() {
        for host in [
            "localhost",
            "LOCALHOST:8080",
            "127.0.0.1",
            "127.0.0.1:5",
            "[::1]",
            "[::1]:80",
        ] {
            assert!(is_loopback_name(host), "{host}");
        }
        for host in [
            "",
            "x",
            "evil.example",
            "127.0.0.2",
            "localhost.evil.example:80",
            "[::2]:80",
        ] {
            assert!(!is_loopback_name(host), "{host}");
        }
    }
}
