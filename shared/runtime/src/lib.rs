//! adas-runtime: what every ADAS binary shares — typed configuration parsed once in
//! `main` (flags and `ADAS_*` env, the same names everywhere), tracing and
//! OpenTelemetry setup with W3C trace context, the metrics page, the one
//! gRPC server builder (health, reflection, timeout, concurrency limit, message
//! size, graceful shutdown), peer channels, and the mapping of errors to
//! `tonic::Status` with `google.rpc` details. Linking it also sets the
//! process' allocator.

pub mod auth;
pub mod compression;
mod config;
pub mod convert;
mod entry;
mod error;
pub mod metrics;
pub mod quota;
mod server;
pub mod telemetry;
mod work;

pub use auth::{Principal, principal};
pub use compression::reply;
pub use config::{
    DEFAULT_DEMO_MCP_URL, DEFAULT_MEMORY_ROOT, Durability, LogFormat, PeerAddrs, PeerArgs,
    ServerArgs, ServerConfig, StepEngine, TriggerLimits, ports,
};
pub use entry::{ServiceCli, run_blocking, run_on, serve_until_shutdown, service_main};
pub use error::{ERROR_DOMAIN, FieldViolation, RuntimeError, status_with_details};
pub use server::{GrpcServer, bind, connect_lazy, connect_peer, shutdown_signal};
pub use telemetry::init_tracing;
pub use work::off_worker;

// Every binary that links this crate (each service, `adas`, the demo MCP
// server, the bench and the tests) allocates with jemalloc: under load glibc's
// malloc and free were about a fifth of a worker's CPU (arena locks, chunk
// consolidation). Measured against mimalloc 2 and 3 in the same run, jemalloc
// cut the most CPU per job (e2e/BENCH.md, sixth pass).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;
