//! When an answer is worth compressing. Every service accepts gzip requests
//! and may answer in gzip to a client that offers it — and most generated
//! clients offer it by default (grpcio, grpc-java, connect with
//! `acceptCompression`). Deflating each small answer afresh costs the server
//! far more CPU than the bytes it saves on a mesh link (adas-bench: +0.6 to
//! 1.0 ms per job, +25 to 45 %, for a client that only *offered* gzip), so:
//!
//! - a unary answer is compressed only from [`min_bytes`] up ([`reply`]);
//! - a streamed answer (WatchJob's events, each a small message deflated on
//!   its own) is never compressed while a threshold is set ([`StreamsPlain`]).
//!
//! `--compress-min-bytes 0` restores compressing every answer a client accepts
//! in gzip. One process serves with one config, so the threshold is set once,
//! when its server starts.

use std::collections::HashSet;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use prost::Message;

/// The default threshold: HTTP/2's default frame size. A smaller answer goes
/// out in one DATA frame either way.
pub const DEFAULT_MIN_BYTES: usize = 16 * 1024;

static MIN_BYTES: AtomicUsize = AtomicUsize::new(DEFAULT_MIN_BYTES);

/// Sets this process's threshold (`0`: compress whatever a client accepts).
pub fn set_min_bytes(bytes: usize) {
    MIN_BYTES.store(bytes, Ordering::Relaxed);
}

/// This process's threshold.
pub fn min_bytes() -> usize {
    MIN_BYTES.load(Ordering::Relaxed)
}

/// A unary answer, compressed (when the client accepts gzip) only if it is at
/// least [`min_bytes`] long.
pub fn reply<T: Message>(message: T) -> tonic::Response<T> {
    let compress = message.encoded_len() >= min_bytes();
    let mut response = tonic::Response::new(message);
    if !compress {
        response.disable_compression();
    }
    response
}

/// The paths of every server-streaming method the suite serves, from its
/// descriptors (not a list kept by hand).
static STREAMING: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let Ok(files) = prost_types::FileDescriptorSet::decode(adas_proto::FILE_DESCRIPTOR_SET) else {
        return HashSet::new();
    };
    files
        .file
        .iter()
        .flat_map(|file| {
            file.service.iter().flat_map(move |service| {
                service
                    .method
                    .iter()
                    .filter(|method| method.server_streaming())
                    .map(move |method| {
                        format!("/{}.{}/{}", file.package(), service.name(), method.name())
                    })
            })
        })
        .collect()
});

/// Whether `path` names a server-streaming method of the suite.
pub fn is_streaming(path: &str) -> bool {
    STREAMING.contains(path)
}

/// A tower layer: a call to a server-streaming method is served as if its
/// client accepted no compression (tonic can only compress a whole stream or
/// none of it), unless the threshold is 0.
#[derive(Debug, Clone, Default)]
pub struct StreamsPlain;

impl<S> tower::Layer<S> for StreamsPlain {
    type Service = StreamsPlainService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        StreamsPlainService { inner }
    }
}

/// The service of [`StreamsPlain`].
#[derive(Debug, Clone)]
pub struct StreamsPlainService<S> {
    inner: S,
}

impl<S, B> tower::Service<http::Request<B>> for StreamsPlainService<S>
where
    S: tower::Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        if min_bytes() > 0 && is_streaming(request.uri().path()) {
            request.headers_mut().remove("grpc-accept-encoding");
        }
        self.inner.call(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streaming_methods_come_from_the_descriptors() {
        assert!(is_streaming("/adas.v1.OrchestratorService/WatchJob"));
        assert!(!is_streaming("/adas.v1.OrchestratorService/GetJob"));
        assert!(!is_streaming("/adas.v1.OrchestratorService/Unknown"));
    }
}
