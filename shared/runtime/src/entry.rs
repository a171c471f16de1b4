//! The `main` of a single-service binary: parse flags once, set up tracing,
//! bind, serve until SIGTERM/ctrl-c.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser};
use tracing::error;

use crate::config::{PeerArgs, ServerArgs, ServerConfig};
use crate::error::RuntimeError;
use crate::server::{GrpcServer, bind, shutdown_signal};

/// Flags of a single-service binary.
#[derive(Debug, Parser)]
pub struct ServiceCli {
    /// Server flags.
    #[command(flatten)]
    pub server: ServerArgs,
    /// Peer service addresses.
    #[command(flatten)]
    pub peers: PeerArgs,
}

/// Runs a service binary: parses the flags once (named `name`, default port
/// `default_port`), sets up tracing, and runs `run` with the config and the peer
/// addresses on a multi-threaded runtime. Exit code 1 on error.
pub fn service_main<F, Fut>(
    name: &'static str,
    about: &'static str,
    default_port: u16,
    run: F,
) -> ExitCode
where
    F: FnOnce(ServerConfig, PeerArgs) -> Fut,
    Fut: Future<Output = Result<(), RuntimeError>>,
{
    let command = ServiceCli::command().name(name).bin_name(name).about(about);
    let cli = match ServiceCli::from_arg_matches(&command.get_matches()) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    let config = cli.server.into_config(default_port);
    crate::telemetry::init(config.log_format, &config.log, &config.otlp, name);
    // Checked before the service binds anything: a refused start listens nowhere.
    if let Err(error) = config.check_dev_listeners(&[]) {
        eprintln!("error: {error}");
        return ExitCode::FAILURE;
    }
    let code = run_on(config.runtime_threads, run(config, cli.peers));
    crate::telemetry::flush();
    code
}

/// Binds the configured address and serves until SIGTERM/ctrl-c.
pub async fn serve_until_shutdown(
    config: &ServerConfig,
    server: GrpcServer,
) -> Result<(), RuntimeError> {
    let listener = bind(config.listen).await?;
    server.serve(listener, shutdown_signal()).await
}

/// Runs `future` on a multi-threaded runtime and turns its error into exit code 1.
pub fn run_blocking<E: std::fmt::Display>(future: impl Future<Output = Result<(), E>>) -> ExitCode {
    run_on(None, future)
}

/// [`run_blocking`] on a runtime of `threads` worker threads (`None`: one per core).
pub fn run_on<E: std::fmt::Display>(
    threads: Option<usize>,
    future: impl Future<Output = Result<(), E>>,
) -> ExitCode {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = threads {
        builder.worker_threads(threads);
    }
    let runtime = match builder.enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            error!(%error, "cannot start the async runtime");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(future);
    // Whatever the future spawned (a console, a demo MCP server, a listener)
    // stops with the runtime, so a refused start leaves nothing listening.
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            error!(%error, "exiting on error");
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
