//! `adas`: the command-line entry of the suite. `adas up` hosts all five services
//! on one port in one process — the embedded default (in-memory state unless
//! `--redis-url` is given). `adas skill validate` checks files offline; the other
//! `adas skill …`, `adas job …` and `adas chat` are clients of a running suite,
//! `adas console` serves the web console for one, `adas completions` prints a
//! shell's completion script. `--server` and `-o` (anywhere on the line) name
//! the suite the client commands talk to and how they print.

mod admin;
mod client;
mod conversations;
mod fail;
mod jobs;
mod output;
mod scenarios;
mod skill;
mod testing;

use testing::{conversation_test, skill_test, solution_test};

use std::process::ExitCode;

use adas_runtime::{
    GrpcServer, RuntimeError, ServerArgs, bind, init_tracing, ports, run_blocking, shutdown_signal,
};
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "adas",
    version,
    about = "ADAS: a runtime for declarative agent skills"
)]
struct Cli {
    /// The suite's address for client commands (`adas up` serves it); accepted
    /// before or after the subcommand.
    #[arg(long, global = true, env = "ADAS_SERVER", default_value = DEFAULT_SERVER)]
    server: String,
    /// The API key client commands present (`authorization: Bearer …`); not
    /// needed against a suite in dev mode.
    #[arg(long, global = true, env = "ADAS_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
    /// CA certificate (PEM) to verify an `https://` --server.
    #[arg(long, global = true, env = "ADAS_CA")]
    ca: Option<std::path::PathBuf>,
    /// How client commands print their result: text (lines), table, json
    /// (the proto3 JSON mapping) or yaml.
    #[arg(
        short,
        long,
        global = true,
        value_enum,
        default_value_t,
        env = "ADAS_OUTPUT"
    )]
    output: output::Format,
    #[command(subcommand)]
    command: Command,
}

const DEFAULT_SERVER: &str = "http://127.0.0.1:50050";

#[derive(Debug, Subcommand)]
enum Command {
    /// Run all five services on one port (default 127.0.0.1:50050) in this process,
    /// with the demo MCP server beside them (default 127.0.0.1:50060).
    Up {
        #[command(flatten)]
        server: Box<ServerArgs>,
        /// Where the demo MCP server listens; skills bootstrapped from templates use it.
        #[arg(long, env = "ADAS_DEMO_MCP_LISTEN", default_value = "127.0.0.1:50060")]
        demo_mcp_listen: std::net::SocketAddr,
        /// Do not start the demo MCP server (templates then use ADAS_DEMO_MCP_URL as given).
        #[arg(long)]
        no_demo_mcp: bool,
        /// Do not serve the web console (by default on 127.0.0.1:50070, or --console-listen).
        #[arg(long)]
        no_console: bool,
        /// Append every tool call the demo MCP server executes to this file, one
        /// JSON line `{"key", "tool", "arguments", "traceparent",
        /// "traceparent_header"}` (the idempotency key and trace context from
        /// `_meta`, the trace context from HTTP): for tests and audits.
        #[arg(long, env = "ADAS_DEMO_MCP_EXECUTIONS_LOG")]
        demo_mcp_executions_log: Option<std::path::PathBuf>,
        /// Read relative dates ("tomorrow", "next Tuesday", "the 9th") as if
        /// today were this day (YYYY-MM-DD), so a conversation test has one
        /// right answer. Dev mode only: refused with --auth-file.
        #[arg(long, env = "ADAS_TODAY")]
        today: Option<jiff::civil::Date>,
    },
    /// Validate skill files (offline); put, get, list, delete skills and resolve their tools.
    Skill {
        #[command(subcommand)]
        command: skill::SkillCommand,
    },
    /// Map the connection ids of skill exports to MCP servers for your tenant
    /// (`tools[].source.connection_id` → `--url`).
    Connector {
        #[command(subcommand)]
        command: skill::ConnectorCommand,
    },
    /// Put, get, list and delete solutions: skills working as one agent,
    /// with grants, handoffs and routing (chat with one: `adas chat solutions/ID`).
    Solution {
        #[command(subcommand)]
        command: skill::SolutionCommand,
    },
    /// Start, inspect, answer, approve and cancel jobs on a running suite.
    Job {
        #[command(subcommand)]
        command: jobs::JobCommand,
    },
    /// Manage principals and their API keys in an auth file (offline).
    Auth {
        #[command(subcommand)]
        command: admin::AuthCommand,
    },
    /// A terminal conversation with a skill on a running suite.
    Chat(jobs::ChatArgs),
    /// Who the suite at --server takes your key for: principal, tenant, roles.
    Whoami,
    /// Ask the server at --server whether it serves (gRPC health): exit 0
    /// when SERVING, 5 otherwise. A container healthcheck needs nothing else.
    Health {
        /// A service to ask about (`adas.v1.OrchestratorService`); empty asks
        /// about the process.
        #[arg(long, default_value = "")]
        service: String,
    },
    /// Serve the web console for the suite at --server (any deployment: `adas
    /// up`, or the services behind one address).
    Console(ConsoleArgs),
    /// Print a shell completion script: `source <(adas completions bash)`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Run the embedded suite and a scripted refund conversation, then exit.
    Demo {
        /// Where to keep skills and archived jobs (a fresh temp dir when absent).
        #[arg(long)]
        memory_root: Option<std::path::PathBuf>,
        /// Templates directory (default: the templates built into the binary).
        #[arg(long, env = "ADAS_TEMPLATES_DIR")]
        templates_dir: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let server = cli.server;
    let client = match client::Client::new(&server, cli.api_key.as_deref())
        .and_then(|client| client.with_ca(cli.ca.as_deref()))
    {
        Ok(client) => client,
        Err(error) => return fail::Failure::usage(error).report(),
    };
    match cli.command {
        Command::Up {
            server,
            demo_mcp_listen,
            no_demo_mcp,
            no_console,
            demo_mcp_executions_log,
            today,
        } => {
            if let Some(today) = today {
                if server.auth_file.is_some() {
                    return fail::Failure::usage(
                        "--today is for conversation tests: refused with --auth-file",
                    )
                    .report();
                }
                adas_nlu::values::pin_today(today);
            }
            // Asked for by address, the console must come up; by default it
            // is a convenience, and a taken port only costs a warning.
            let console = match (no_console, server.console_listen) {
                (true, _) => None,
                (false, Some(addr)) => Some(ConsoleAt {
                    addr,
                    required: true,
                }),
                (false, None) => Some(ConsoleAt {
                    addr: std::net::SocketAddr::from(([127, 0, 0, 1], DEFAULT_CONSOLE_PORT)),
                    required: false,
                }),
            };
            up(
                *server,
                (!no_demo_mcp).then_some(DemoServer {
                    listen: demo_mcp_listen,
                    executions_log: demo_mcp_executions_log,
                }),
                console,
            )
        }
        Command::Console(args) => console(&client, args),
        Command::Health { service } => match admin::health(&client, service) {
            Ok(()) => ExitCode::SUCCESS,
            Err(failure) => failure.report(),
        },
        Command::Skill {
            command:
                skill::SkillCommand::Test {
                    skill,
                    conversations: Some(file),
                    junit,
                    json,
                    min_correct,
                },
        } => conversation_test(
            &skill,
            &file,
            (junit.as_deref(), json.as_deref()),
            min_correct,
            &client,
        ),
        Command::Skill {
            command: skill::SkillCommand::Test { skill, junit, .. },
        } => skill_test(&skill, junit.as_deref(), &client),
        Command::Skill { command } => skill::run(command, &client, cli.output),
        Command::Solution {
            command:
                skill::SolutionCommand::Test {
                    file,
                    skills,
                    connectors,
                    mcp_allow,
                    today,
                    junit,
                },
        } => {
            if let Some(today) = today {
                adas_nlu::values::pin_today(today);
            }
            let servers = testing::Servers {
                connectors,
                mcp_allow,
            };
            solution_test(&file, &skills, servers, junit.as_deref())
        }
        Command::Solution { command } => {
            skill::run(skill::SkillCommand::Solution(command), &client, cli.output)
        }
        Command::Connector { command } => {
            skill::run(skill::SkillCommand::Connector(command), &client, cli.output)
        }
        Command::Job { command } => jobs::run(command, &client, cli.output),
        Command::Whoami => jobs::whoami(&client, cli.output),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            // Written whole through `write_out`: a closed pipe ends quietly.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "adas", &mut script);
            output::write_out(&String::from_utf8_lossy(&script));
            ExitCode::SUCCESS
        }
        Command::Chat(args) => jobs::chat_main(args, &client),
        Command::Auth { command } => admin::auth(command, cli.output),
        Command::Demo {
            memory_root,
            templates_dir,
        } => demo(memory_root, templates_dir),
    }
}

/// Where `adas up` serves the web console unless told otherwise.
const DEFAULT_CONSOLE_PORT: u16 = 50070;

/// Where the console is served, and whether the suite fails without it.
#[derive(Debug, Clone, Copy)]
pub struct ConsoleAt {
    /// Its address.
    pub addr: std::net::SocketAddr,
    /// A bind failure stops the suite (else: a warning).
    pub required: bool,
}

/// Where and how `adas console` serves.
#[derive(Debug, clap::Args)]
struct ConsoleArgs {
    /// Where the console listens (plain HTTP).
    #[arg(long, env = "ADAS_CONSOLE_LISTEN", default_value = "127.0.0.1:50070")]
    console_listen: std::net::SocketAddr,
    /// Host names the console answers besides its own address; any other
    /// `Host` is refused (DNS rebinding). Repeat or comma-separate.
    #[arg(
        long = "console-host",
        env = "ADAS_CONSOLE_HOSTS",
        value_delimiter = ','
    )]
    console_hosts: Vec<String>,
    /// A trace UI's page of one trace, with `{trace_id}` where the id
    /// goes (`http://localhost:16686/trace/{trace_id}` for Jaeger): each
    /// job page links its trace there.
    #[arg(long, env = "ADAS_CONSOLE_TRACE_URL")]
    console_trace_url: Option<String>,
}

/// `adas console`: the web console of the suite at `--server`, until ctrl-c.
fn console(client: &client::Client, args: ConsoleArgs) -> ExitCode {
    init_tracing(adas_runtime::LogFormat::Pretty, "info");
    let addr = args.console_listen;
    run_blocking(async move {
        let channel = client.plain_channel().map_err(RuntimeError::Startup)?;
        let console = adas_console::Console::new(channel)
            .with_host_names(&args.console_hosts)
            .with_trace_url(args.console_trace_url.as_deref())
            .map_err(RuntimeError::Startup)?
            .spawn(addr, shutdown_signal())
            .await
            .map_err(|source| RuntimeError::Bind { addr, source })?;
        let _ = console.await;
        Ok::<(), RuntimeError>(())
    })
}

/// The demo MCP server `adas up` runs beside the suite.
#[derive(Debug)]
pub struct DemoServer {
    /// Where it listens (port 0: any free port).
    pub listen: std::net::SocketAddr,
    /// Where it logs the calls it executes.
    pub executions_log: Option<std::path::PathBuf>,
}

fn up(server: ServerArgs, demo_mcp: Option<DemoServer>, console: Option<ConsoleAt>) -> ExitCode {
    let config = server.into_config(ports::ALL_IN_ONE);
    adas_runtime::telemetry::init(config.log_format, &config.log, &config.otlp, "adas");
    let code = adas_runtime::run_on(config.runtime_threads, async move {
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let signal = shutdown_signal();
        tokio::spawn(async move {
            signal.await;
            let _ = stop.send(true);
        });
        serve_suite(config, demo_mcp, console, stopped, None).await
    });
    adas_runtime::telemetry::flush();
    code
}

/// Resolves once `stop` turns true.
async fn stopped(mut stop: tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|stopped| *stopped).await;
}

/// Runs the whole suite in this process until `stop`: the five services on one
/// port, their workers, and (unless `None`) the demo MCP server. `ready` gets the
/// gRPC address once it listens.
pub async fn serve_suite(
    mut config: adas_runtime::ServerConfig,
    demo_mcp: Option<DemoServer>,
    console: Option<ConsoleAt>,
    stop: tokio::sync::watch::Receiver<bool>,
    ready: Option<tokio::sync::oneshot::Sender<std::net::SocketAddr>>,
) -> Result<(), RuntimeError> {
    // Every listener obeys dev mode's loopback rule, checked before any binds.
    let mut extra = Vec::new();
    if let Some(demo) = &demo_mcp {
        extra.push(("--demo-mcp-listen", demo.listen));
    }
    if let Some(console) = &console {
        extra.push(("--console-listen", console.addr));
    }
    config.check_dev_listeners(&extra)?;
    let demo = match demo_mcp {
        Some(server) => Some(start_demo(server, &mut config).await?),
        None => None,
    };
    let store = adas_boot::open_store(&config).await?;
    let listener = bind(config.listen).await?;
    // With `--step-engine remote` the embedded workers reach the services
    // through this very server (by default they decide steps in-process).
    let local = listener.local_addr().map_err(|source| RuntimeError::Bind {
        addr: config.listen,
        source,
    })?;
    let scheme = self_scheme(&config)?;
    let self_url = format!("{scheme}://127.0.0.1:{}", local.port());
    let max = config.max_message_bytes;
    // With an auth file, the workers call this server with a key that exists
    // only in this process (a `service` principal); in dev mode with none.
    let (auth, internal_key) = config
        .authenticator()?
        .with_internal_key()
        .map_err(RuntimeError::Startup)?;
    if internal_key.is_some() {
        config.peer_key = internal_key;
    }
    // One model client for the services that use models in this process.
    let llm = adas_boot::models(&config)?;
    // One catalog for the services that read skills in this process.
    let catalog = adas_boot::open_catalog(&config, &store)?;
    let repo = adas_jobs::JobRepo::new(store.clone(), config.memory_root.clone());
    // One MCP connector: one kept session per server for the whole process.
    let mcp = adas_boot::mcp_connector(&config)?;
    let workers = adas_orchestrator::spawn_workers(
        &config,
        repo.clone(),
        catalog.clone(),
        (&self_url, &self_url, &self_url),
        mcp.clone(),
        stop.clone(),
    )?;
    if let Some(ConsoleAt { addr, required }) = console {
        if config.tls.is_some() {
            tracing::warn!(
                "no console beside a TLS suite: run `adas console --server https://… --ca …`"
            );
        } else {
            let spawned = adas_console::Console::new(adas_runtime::connect_lazy(&self_url)?)
                .with_host_names(&config.console_hosts)
                .with_trace_url(config.console_trace_url.as_deref())
                .map_err(RuntimeError::Startup)?
                .spawn(addr, stopped(stop.clone()))
                .await;
            match spawned {
                Ok(_) => {}
                Err(source) if required => return Err(RuntimeError::Bind { addr, source }),
                Err(error) => {
                    tracing::warn!(%addr, %error, "the console is not served (--console-listen picks another address)");
                }
            }
        }
    }
    if let Some(ready) = ready {
        let _ = ready.send(std::net::SocketAddr::from(([127, 0, 0, 1], local.port())));
    }
    let served = GrpcServer::new(&config)
        .with_auth(auth)
        .add_service(
            adas_skill_registry::build(&config, store.clone(), catalog.clone(), mcp.clone())?
                .into_service(max),
        )
        .add_service(
            adas_intent::Intent::new(
                catalog.clone(),
                repo.clone(),
                adas_engine::planner(llm.clone()),
            )
            .into_service(max),
        )
        .add_service(
            adas_orchestrator::Orchestrator::new(repo.clone(), catalog.clone(), &config)?
                .into_service(max),
        )
        .add_service(
            adas_gate::Gate::with_llm(catalog.clone(), repo.clone(), llm.clone()).into_service(max),
        )
        .add_service(
            adas_dal_agent::build(&config, store.clone(), catalog.clone(), mcp.clone(), llm)?
                .into_service(max),
        )
        .serve(listener, stopped(stop))
        .await;
    for worker in workers {
        let _ = worker.await;
    }
    // Jobs that ended before the stop are archived before the process goes.
    repo.flush_archive().await;
    // In this order: sessions end while their server listens, then it stops.
    mcp.close().await;
    if let Some((stop_demo, server)) = demo {
        let _ = stop_demo.send(true);
        let _ = server.await;
    }
    served
}

/// Starts the demo MCP server (stopped last, so the suite's MCP sessions
/// close while it listens); its real address (port 0 picks one) becomes
/// `config.demo_mcp_url`, what templates get. Returns its stop switch and task.
async fn start_demo(
    DemoServer {
        listen: addr,
        executions_log,
    }: DemoServer,
    config: &mut adas_runtime::ServerConfig,
) -> Result<
    (
        tokio::sync::watch::Sender<bool>,
        tokio::task::JoinHandle<()>,
    ),
    RuntimeError,
> {
    let demo_listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| RuntimeError::Bind { addr, source })?;
    let demo_addr = demo_listener
        .local_addr()
        .map_err(|source| RuntimeError::Bind { addr, source })?;
    config.demo_mcp_url = format!("http://{demo_addr}{}", adas_demo_mcp::MCP_PATH);
    tracing::info!(url = %config.demo_mcp_url, "demo MCP server serving");
    let (stop_demo, demo_stopped) = tokio::sync::watch::channel(false);
    let mut server = adas_demo_mcp::DemoMcp::new();
    if let Some(path) = &executions_log {
        server = server
            .with_executions_log(path)
            .map_err(|error| RuntimeError::Startup(format!("{}: {error}", path.display())))?;
    }
    let server = tokio::spawn(async move {
        if let Err(error) = server
            .serve_http(demo_listener, stopped(demo_stopped))
            .await
        {
            tracing::error!(%error, "demo MCP server stopped");
        }
    });
    Ok((stop_demo, server))
}

/// The scheme of this process' own URL, for its workers. Over TLS they
/// verify this server like any peer: --peer-ca is the CA of its
/// certificate, which must name 127.0.0.1.
fn self_scheme(config: &adas_runtime::ServerConfig) -> Result<&'static str, RuntimeError> {
    Ok(if config.tls.is_some() {
        if config.peer_ca.is_none() && config.step_engine == adas_runtime::StepEngine::Remote {
            return Err(RuntimeError::Startup(
                "with --tls-cert and --step-engine remote, `adas up` needs --peer-ca \
                 (the CA of its certificate) for its own workers' calls"
                    .into(),
            ));
        }
        "https"
    } else {
        "http"
    })
}

/// The embedded suite on free loopback ports, a scripted refund conversation
/// against it (ask → answer → approval → reply), then a clean stop.
fn demo(
    memory_root: Option<std::path::PathBuf>,
    templates: Option<std::path::PathBuf>,
) -> ExitCode {
    let memory_root = memory_root
        .unwrap_or_else(|| std::env::temp_dir().join(format!("adas-demo-{}", std::process::id())));
    let mut config = adas_runtime::ServerConfig::local(memory_root);
    config.log = "warn".into();
    config.templates_dir = templates;
    init_tracing(config.log_format, &config.log);
    run_blocking(async move {
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let (ready, address) = tokio::sync::oneshot::channel();
        let suite = tokio::spawn(serve_suite(
            config,
            Some(DemoServer {
                listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
                executions_log: None,
            }),
            None,
            stopped,
            Some(ready),
        ));
        let address = address
            .await
            .map_err(|_| RuntimeError::Startup("the suite did not start".into()))?;
        let script = vec![
            "I want a refund".to_owned(),
            "ORD-1".to_owned(),
            "700".to_owned(),
            "y".to_owned(),
        ];
        let client = client::Client::new(&format!("http://{address}"), None)
            .map_err(RuntimeError::Startup)?;
        let outcome = jobs::chat(&client, "cs-tier-1", &client, Some(script)).await;
        let _ = stop.send(true);
        let _ = suite.await;
        outcome.map_err(|failure| RuntimeError::Startup(failure.message))
    })
}
