//! The HTTP side of `zero serve`, on axum (tokio's HTTP stack: hyper underneath, tower's middleware): chosen
//! because it is the most used and best kept Rust server, and tower gives the limits this server needs as
//! ready-made layers. The game logic stays synchronous: a [`Request`] in, a [`Response`] out, run on tokio's
//! blocking pool (a search takes a core for a while).
//!
//! Limits, so that a flood of requests cannot take the server down: at most [`MAX_IN_FLIGHT`] requests are
//! handled at once and any more get 503 at once (tower's load shedding over a concurrency limit), and a body
//! over [`MAX_BODY_BYTES`] gets 413. Every error is a JSON object `{"error": "..."}`.

use anyhow::{Context, Result};
use axum::Router;
use axum::body::Bytes;
use axum::error_handling::HandleErrorLayer;
use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::IntoResponse;
use std::sync::Arc;
use tower::ServiceBuilder;

pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// Requests handled at once; one more is refused with 503 rather than queued.
pub const MAX_IN_FLIGHT: usize = 64;
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
}

impl IntoResponse for Response {
    fn into_response(self) -> axum::response::Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let headers = [
            (header::CONTENT_TYPE, HeaderValue::from_static(self.content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ];
        (status, headers, self.body).into_response()
    }
}

/// The handler every request goes to.
pub type Handler = Arc<dyn Fn(Request) -> Response + Send + Sync>;

/// Serves `handler` on `listener` until the process ends.
pub fn serve(listener: std::net::TcpListener, handler: Handler) -> Result<()> {
    listener
        .set_nonblocking(true)
        .context("setting the listener non-blocking")?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(IO_THREADS)
        .enable_io()
        .build()
        .context("starting the HTTP runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).context("handing the listener to tokio")?;
        let limits = ServiceBuilder::new()
            .layer(HandleErrorLayer::new(|_: tower::BoxError| async {
                Response::error(503, "the server is busy; try again")
            }))
            .load_shed()
            .concurrency_limit(MAX_IN_FLIGHT);
        let app = Router::new()
            .fallback(move |method: Method, uri: Uri, body: Result<Bytes, BytesRejection>| {
                let handler = Arc::clone(&handler);
                async move { respond(handler, method, uri, body).await }
            })
            .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
            .layer(limits);
        axum::serve(listener, app).await.context("serving HTTP")
    })
}

/// Runs the handler on the blocking pool; a refused body is answered without it.
async fn respond(handler: Handler, method: Method, uri: Uri, body: Result<Bytes, BytesRejection>) -> Response {
    let body = match body {
        Ok(body) => body.to_vec(),
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return Response::error(413, format!("body over the limit of {MAX_BODY_BYTES} bytes"));
        }
        Err(rejection) => return Response::error(rejection.status().as_u16(), rejection.body_text()),
    };
    let request = Request {
        method: method.to_string(),
        path: uri
            .path_and_query()
            .map_or_else(|| uri.path().to_string(), |p| p.to_string()),
        body,
    };
    tokio::task::spawn_blocking(move || handler(request))
        .await
        .unwrap_or_else(|_| Response::error(500, "the request failed inside the server"))
}
