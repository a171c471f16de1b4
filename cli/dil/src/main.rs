//! `dil`: verified execution of an agent command under ordered gates (spec 001).
//! The engine is `adas-dil`; this binary parses arguments and maps the final
//! state to the exit code — 0 COMPLETED, 1 FAILED, 2 UNKNOWN, nothing else.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "dil",
    version,
    about = "Runs an agent under ordered verification gates: COMPLETED (0), FAILED (1) or UNKNOWN (2)",
    after_long_help = adas_dil::DOCUMENTATION
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// dil agent <spec.dil> [options] -- <agent-command>
    #[command(after_long_help = adas_dil::DOCUMENTATION)]
    Agent(AgentArgs),
}

#[derive(Debug, clap::Args)]
struct AgentArgs {
    /// The `.dil` spec: validations, gates `V_GATE_NN_…` and their predicates.
    spec: PathBuf,
    /// Most attempts per gate; only agent crashes and transient failures are retried.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    max_retries: u32,
    /// Seconds each agent attempt may run before its process group is killed.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,
    /// Seconds between `running (pid=…)` progress lines.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    progress_interval: f64,
    /// Where the agent runs, predicates are evaluated and `.dil/runs/` is written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    workdir: PathBuf,
    /// The run id (default: start time in ms and dil's pid).
    #[arg(long)]
    run_id: Option<String>,
    /// The agent command and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "AGENT-COMMAND")]
    command: Vec<String>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            // Help and version are answers, not runs; every other usage error is UNKNOWN.
            return match error.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(2),
            };
        }
    };
    let Command::Agent(args) = cli.command;
    if !(args.progress_interval.is_finite() && args.progress_interval >= 0.1) {
        eprintln!("dil: --progress-interval must be at least 0.1 seconds");
        return ExitCode::from(2);
    }
    if let Some(run_id) = &args.run_id
        && (run_id.is_empty()
            || !run_id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            || run_id.starts_with('.'))
    {
        eprintln!("dil: --run-id must be letters, digits, `-`, `_` or `.`, not starting with `.`");
        return ExitCode::from(2);
    }
    let options = adas_dil::RunOptions {
        spec_path: args.spec,
        command: args.command,
        workdir: args.workdir,
        max_attempts: args.max_retries,
        agent_timeout: args.timeout.map(Duration::from_secs),
        progress_interval: Duration::from_secs_f64(args.progress_interval),
        run_id: args.run_id,
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("dil: cannot start: {error}");
            return ExitCode::from(2);
        }
    };
    let mut stdout = std::io::stdout();
    let state = runtime.block_on(adas_dil::run(&options, &mut stdout));
    ExitCode::from(state.exit_code() as u8)
}
