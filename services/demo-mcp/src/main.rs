//! `adas-demo-mcp`: serves the demo tools over MCP streamable HTTP at `/mcp`.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::Parser;

#[derive(Debug, Parser)]
#[command(
    name = "adas-demo-mcp",
    version,
    about = "Demo MCP server with the tools of the ADAS skill templates"
)]
struct Cli {
    /// Address to listen on.
    #[arg(long, env = "ADAS_DEMO_MCP_LISTEN", default_value = "127.0.0.1:50060")]
    listen: SocketAddr,
    /// Serve one client over stdin/stdout instead (for `stdio:` server URIs).
    #[arg(long)]
    stdio: bool,
    /// Log filter (tracing env-filter syntax).
    #[arg(long, env = "ADAS_LOG", default_value = "info,rmcp=warn")]
    log: String,
    /// Append each executed tool call to this file as a JSON line
    /// `{"key", "tool", "arguments"}` (the idempotency key from `_meta`), for tests that count them.
    #[arg(long, env = "ADAS_DEMO_MCP_EXECUTIONS_LOG")]
    executions_log: Option<std::path::PathBuf>,
    /// Fail every `tools/list` while still running calls (for tests of a
    /// hostile server).
    #[arg(long, hide = true)]
    fail_list: bool,
    /// Leave this tool out of `tools/list` while still running calls to it
    /// (for tests of a hostile server). Repeat for several.
    #[arg(long = "hide-tool", hide = true)]
    hide_tools: Vec<String>,
    /// Offer only this tool (repeat for several; `customer.records`, a read
    /// that leaks personal fields, is offered only so). For tests.
    #[arg(long = "only-tool", hide = true)]
    only_tools: Vec<String>,
    /// Added latency per tool call in milliseconds (for tests).
    #[arg(long, env = "ADAS_DEMO_MCP_DELAY_MS", default_value_t = 0)]
    delay_ms: u64,
    /// Threads of the async runtime; absent: one per core (as every ADAS binary).
    #[arg(long, env = "ADAS_RUNTIME_THREADS", value_parser = clap::value_parser!(u16).range(1..=1024))]
    runtime_threads: Option<u16>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    adas_runtime::init_tracing(adas_runtime::LogFormat::Pretty, &cli.log);
    if cli.stdio {
        return adas_runtime::run_blocking(adas_demo_mcp::DemoMcp::new().serve_stdio());
    }
    adas_runtime::run_on(cli.runtime_threads.map(usize::from), async move {
        let listener = tokio::net::TcpListener::bind(cli.listen).await?;
        let addr = listener.local_addr()?;
        // Stopping gracefully from the moment it says it listens.
        let shutdown = adas_runtime::shutdown_signal();
        println!("listening on {addr}");
        tracing::info!(%addr, path = adas_demo_mcp::MCP_PATH, "demo MCP server serving");
        let base = if cli.only_tools.is_empty() {
            adas_demo_mcp::DemoMcp::new()
        } else {
            let names: Vec<&str> = cli.only_tools.iter().map(String::as_str).collect();
            adas_demo_mcp::DemoMcp::only(&names)
        };
        let mut server = base.with_delay(std::time::Duration::from_millis(cli.delay_ms));
        if let Some(path) = &cli.executions_log {
            server = server.with_executions_log(path)?;
        }
        if cli.fail_list {
            server = server.with_failing_list();
        }
        if !cli.hide_tools.is_empty() {
            server = server.with_hidden(cli.hide_tools.clone());
        }
        server.serve_http(listener, shutdown).await
    })
}
