//! A run: the agent attempt by attempt, gate by gate, under the verifier, with the
//! terminal lines and the artifacts of the contract (see the crate docs).

mod verify;

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::{Value as Json, json};
use sha2::{Digest, Sha256};
use tokio::signal::unix::{Signal, SignalKind, signal};

use crate::spec::{Spec, Validation, parse, unsupported_tokens};
use crate::verify::{Evidence, Verdict, kill_group, verify};
use verify::*;

/// What one `dil agent` invocation runs.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The `.dil` file.
    pub spec_path: PathBuf,
    /// The agent's argv (after `--`).
    pub command: Vec<String>,
    /// Where the agent runs, predicates are evaluated and `.dil/runs/` lives.
    pub workdir: PathBuf,
    /// Most attempts per gate (the contract's "maximum retries", default 3).
    pub max_attempts: u32,
    /// Bound on each agent attempt.
    pub agent_timeout: Option<Duration>,
    /// How often a running agent or verification is reported.
    pub progress_interval: Duration,
    /// The run id; generated when absent.
    pub run_id: Option<String>,
}

/// How a run ends: exactly one of these, always printed and stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FinalState {
    /// Every gate passed.
    Completed,
    /// A gate's predicate was false.
    Failed,
    /// The result cannot be determined.
    Unknown,
}

impl FinalState {
    /// The process exit code: 0, 1 or 2.
    pub fn exit_code(self) -> i32 {
        match self {
            FinalState::Completed => 0,
            FinalState::Failed => 1,
            FinalState::Unknown => 2,
        }
    }

    fn label(self) -> &'static str {
        match self {
            FinalState::Completed => "COMPLETED",
            FinalState::Failed => "FAILED",
            FinalState::Unknown => "UNKNOWN",
        }
    }
}

/// Why a gate is UNKNOWN: every UNKNOWN belongs to exactly one class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnknownClass {
    /// The spec exceeds the verifier's vocabulary.
    UnknownVerifierLimit,
    /// The agent crashed (non-zero exit, signal, not startable).
    UnknownAgentCrash,
    /// A timeout or a killed command: may pass on another attempt.
    UnknownTransient,
    /// dil itself failed.
    UnknownInternal,
}

impl UnknownClass {
    /// The short name the terminal shows: `gate 02: UNKNOWN (agent_crash)`.
    pub fn short(self) -> &'static str {
        match self {
            UnknownClass::UnknownVerifierLimit => "verifier_limit",
            UnknownClass::UnknownAgentCrash => "agent_crash",
            UnknownClass::UnknownTransient => "transient",
            UnknownClass::UnknownInternal => "internal",
        }
    }

    /// Only crashes and transient failures are worth another attempt.
    pub fn retryable(self) -> bool {
        matches!(
            self,
            UnknownClass::UnknownAgentCrash | UnknownClass::UnknownTransient
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum GateState {
    Passed,
    Failed,
    Unknown,
    NotRun,
}

#[derive(Debug, Clone, Serialize)]
struct AttemptReceipt {
    attempt: u32,
    started_at_unix_ms: u64,
    duration_ms: u64,
    exit_code: Option<i32>,
    signal: Option<i32>,
    outcome: &'static str,
    class: Option<UnknownClass>,
    reason: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct GateReceipt {
    number: u32,
    id: String,
    goal: String,
    state: GateState,
    class: Option<UnknownClass>,
    reason: Option<String>,
    attempts: Vec<AttemptReceipt>,
}

#[derive(Debug, Clone, Serialize)]
struct RunError {
    kind: &'static str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
struct SpecRef {
    path: String,
    sha256: Option<String>,
}

/// `run_receipt.json`.
#[derive(Debug, Clone, Serialize)]
struct Receipt {
    schema: &'static str,
    run_id: String,
    spec: SpecRef,
    command: Vec<String>,
    workdir: String,
    max_attempts: u32,
    timeout_secs: Option<u64>,
    started_at_unix_ms: u64,
    ended_at_unix_ms: u64,
    final_state: FinalState,
    exit_code: i32,
    error: Option<RunError>,
    gates: Vec<GateReceipt>,
}

#[derive(Debug, Clone, Serialize)]
struct Check {
    attempt: u32,
    result: &'static str,
    evidence: Vec<Evidence>,
}

/// How one agent attempt ended.
enum AgentEnd {
    Exited(i32),
    Signalled(i32),
    TimedOut,
    Interrupted,
    SpawnFailed(String),
    Internal(String),
}

/// How one attempt of a gate ended.
struct AttemptEnd {
    state: GateState,
    class: Option<UnknownClass>,
    reason: Option<String>,
    interrupted: bool,
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis() as u64)
        .unwrap_or(0)
}

/// SIGINT and SIGTERM, observed instead of dying so the agent's process group
/// can be killed and the artifacts written.
struct Interrupts {
    int: Option<Signal>,
    term: Option<Signal>,
}

impl Interrupts {
    fn install() -> Self {
        Self {
            int: signal(SignalKind::interrupt()).ok(),
            term: signal(SignalKind::terminate()).ok(),
        }
    }

    async fn recv(&mut self) {
        async fn one(signal: &mut Option<Signal>) {
            match signal {
                Some(signal) => {
                    signal.recv().await;
                }
                None => std::future::pending().await,
            }
        }
        tokio::select! {
            () = one(&mut self.int) => {}
            () = one(&mut self.term) => {}
        }
    }
}

/// The terminal: every line starts with `dil agent: ` and is flushed at once,
/// because a reader who only reads the terminal must see progress as it happens.
struct Terminal<'a> {
    out: &'a mut dyn Write,
}

impl Terminal<'_> {
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "dil agent: {line}");
        let _ = self.out.flush();
    }
}

/// The artifact directory and its append-only agent markers.
struct Artifacts {
    dir: PathBuf,
}

impl Artifacts {
    fn append(&self, name: &str, line: &str) -> std::io::Result<()> {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join(name))?;
        writeln!(file, "{line}")
    }

    fn write(&self, name: &str, content: &str) -> std::io::Result<()> {
        fs::write(self.dir.join(name), content)
    }

    fn json(&self, name: &str, value: &impl Serialize) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
        self.write(name, &(text + "\n"))
    }

    fn gate_log(&self, gate: u32, attempt: u32, stream: &str) -> std::io::Result<File> {
        File::create(
            self.dir
                .join(format!("agent.gate{gate:02}.pass{attempt}.{stream}.log")),
        )
    }
}

/// Runs the spec and returns the final state. Artifacts are written whatever the
/// end; only an artifact directory that cannot be created is reported on `out`
/// alone (there is nowhere to write).
pub async fn run(options: &RunOptions, out: &mut dyn Write) -> FinalState {
    let mut terminal = Terminal { out };
    let started_at = unix_ms();
    let run_id = options
        .run_id
        .clone()
        .unwrap_or_else(|| format!("{started_at}-{}", std::process::id()));
    let dir = run_dir(&options.workdir, &run_id);
    // A run never writes into another run's artifacts: the directory must be new.
    let created = dir
        .parent()
        .map_or(Ok(()), fs::create_dir_all)
        .and_then(|()| fs::create_dir(&dir));
    if let Err(error) = created {
        let why = if error.kind() == std::io::ErrorKind::AlreadyExists {
            format!("run id {run_id} is already used ({} exists)", dir.display())
        } else {
            format!("internal error: cannot create {}: {error}", dir.display())
        };
        terminal.say(&why);
        terminal.say(&format!("final state: {}", FinalState::Unknown.label()));
        return FinalState::Unknown;
    }
    let artifacts = Artifacts { dir };
    let source = fs::read(&options.spec_path);
    let mut receipt = Receipt {
        schema: "dil.run_receipt/v1",
        run_id: run_id.clone(),
        spec: SpecRef {
            path: options.spec_path.display().to_string(),
            sha256: source
                .as_ref()
                .ok()
                .map(|bytes| hex(&Sha256::digest(bytes))),
        },
        command: options.command.clone(),
        workdir: options.workdir.display().to_string(),
        max_attempts: options.max_attempts,
        timeout_secs: options.agent_timeout.map(|timeout| timeout.as_secs()),
        started_at_unix_ms: started_at,
        ended_at_unix_ms: started_at,
        final_state: FinalState::Unknown,
        exit_code: 2,
        error: None,
        gates: Vec::new(),
    };
    let mut checks: Vec<(String, Vec<Check>)> = Vec::new();
    let spec = match source
        .map_err(|error| RunError {
            kind: "internal",
            message: format!("cannot read {}: {error}", options.spec_path.display()),
            line: None,
            column: None,
        })
        .and_then(parse_spec)
    {
        Ok(spec) => Some(spec),
        Err(error) => {
            match (error.line, error.column) {
                (Some(line), Some(column)) => terminal.say(&format!(
                    "spec error: {}:{line}:{column}: {}",
                    options.spec_path.display(),
                    error.message
                )),
                _ => terminal.say(&format!("error: {}", error.message)),
            }
            receipt.error = Some(error);
            None
        }
    };
    let mut final_state = FinalState::Unknown;
    if let Some(spec) = &spec {
        let gates = spec.gates();
        terminal.say(&format!("detected {} gate(s)", gates.len()));
        receipt.gates = gates.iter().map(|gate| not_run(gate)).collect();
        if gates.is_empty() {
            terminal.say("reason: the spec has no V_GATE_NN_ validations");
            receipt.error = Some(RunError {
                kind: "no_gates",
                message: "the spec has no V_GATE_NN_ validations".into(),
                line: None,
                column: None,
            });
        } else {
            final_state = run_gates(
                options,
                spec,
                &run_id,
                &artifacts,
                &mut terminal,
                &mut receipt,
                &mut checks,
            )
            .await;
        }
    }
    unstarted(&artifacts, receipt.error.as_ref());
    receipt.final_state = final_state;
    receipt.exit_code = final_state.exit_code();
    receipt.ended_at_unix_ms = unix_ms();
    let verification = verification_json(&run_id, spec.as_ref(), &checks);
    let written = artifacts
        .json("verification.json", &verification)
        .and_then(|()| artifacts.json("run_receipt.json", &receipt));
    if let Err(error) = written {
        terminal.say(&format!(
            "internal error: cannot write the receipt: {error}"
        ));
        terminal.say(&format!("final state: {}", FinalState::Unknown.label()));
        return FinalState::Unknown;
    }
    terminal.say(&format!(
        "receipt: {}",
        artifacts.dir.join("run_receipt.json").display()
    ));
    terminal.say(&format!("final state: {}", final_state.label()));
    final_state
}

/// Files of the contract that no attempt wrote: present in every run,
/// saying why (`error`, or that no attempt ran).
fn unstarted(artifacts: &Artifacts, error: Option<&RunError>) {
    if artifacts.dir.join("agent.started").exists() {
        return;
    }
    let why = match error {
        Some(error) => error.message.clone(),
        None => "no agent attempt ran".into(),
    };
    let _ = artifacts.write("agent.started", &format!("not started: {why}\n"));
    let _ = artifacts.write("agent.finished", "not started\n");
    let _ = artifacts.write("agent.exit_code", "none\n");
    let _ = artifacts.gate_log(0, 0, "stdout");
    let _ = artifacts.gate_log(0, 0, "stderr");
}

/// The spec from its bytes: UTF-8, parsed, an error with its line:column.
fn parse_spec(bytes: Vec<u8>) -> Result<Spec, RunError> {
    let text = String::from_utf8(bytes).map_err(|_| RunError {
        kind: "spec_error",
        message: "the spec is not UTF-8".into(),
        line: None,
        column: None,
    })?;
    parse(&text).map_err(|error| RunError {
        kind: "spec_error",
        message: error.message.clone(),
        line: Some(error.line),
        column: Some(error.column),
    })
}

fn not_run(gate: &Validation) -> GateReceipt {
    GateReceipt {
        number: gate.gate.unwrap_or_default(),
        id: gate.id.clone(),
        goal: gate.goal.clone(),
        state: GateState::NotRun,
        class: None,
        reason: None,
        attempts: Vec::new(),
    }
}

async fn run_gates(
    options: &RunOptions,
    spec: &Spec,
    run_id: &str,
    artifacts: &Artifacts,
    terminal: &mut Terminal<'_>,
    receipt: &mut Receipt,
    checks: &mut Vec<(String, Vec<Check>)>,
) -> FinalState {
    let mut interrupts = Interrupts::install();
    let max_attempts = options.max_attempts.max(1);
    for (index, gate) in spec.gates().into_iter().enumerate() {
        let number = gate.gate.unwrap_or_default();
        let mut gate_checks = Vec::new();
        let mut attempt = 1;
        let end = loop {
            if attempt == 1 {
                terminal.say(&format!("gate {number:02}: running"));
            } else {
                terminal.say(&format!(
                    "gate {number:02}: running (attempt {attempt}/{max_attempts})"
                ));
            }
            let started = Instant::now();
            let started_at = unix_ms();
            let context = AttemptContext {
                options,
                run_id,
                artifacts,
                gate,
                number,
                attempt,
                max_attempts,
            };
            let agent = run_agent(&context, terminal, &mut interrupts).await;
            let (exit_code, signal) = match &agent {
                AgentEnd::Exited(code) => (Some(*code), None),
                AgentEnd::Signalled(signal) => (None, Some(*signal)),
                _ => (None, None),
            };
            let end = match agent {
                AgentEnd::Exited(0) => {
                    let (end, check) = verify_gate(&context, terminal, &mut interrupts).await;
                    if let Some(check) = check {
                        gate_checks.push(check);
                    }
                    end
                }
                other => agent_failure(other, &context),
            };
            let duration = started.elapsed();
            receipt.gates[index].attempts.push(AttemptReceipt {
                attempt,
                started_at_unix_ms: started_at,
                duration_ms: duration.as_millis() as u64,
                exit_code,
                signal,
                outcome: match end.state {
                    GateState::Passed => "passed",
                    GateState::Failed => "failed",
                    GateState::Unknown | GateState::NotRun => "unknown",
                },
                class: end.class,
                reason: end.reason.clone(),
            });
            match (end.state, end.class) {
                (GateState::Passed, _) => {
                    terminal.say(&format!(
                        "gate {number:02}: PASSED ({:.1}s)",
                        duration.as_secs_f64()
                    ));
                }
                (GateState::Failed, _) => {
                    terminal.say(&format!(
                        "gate {number:02}: FAILED ({:.1}s)",
                        duration.as_secs_f64()
                    ));
                }
                (_, class) => {
                    let class = class.unwrap_or(UnknownClass::UnknownInternal);
                    terminal.say(&format!("gate {number:02}: UNKNOWN ({})", class.short()));
                }
            }
            if let Some(reason) = &end.reason {
                terminal.say(&format!("reason: {reason}"));
            }
            let retry = end.state == GateState::Unknown
                && !end.interrupted
                && end.class.is_some_and(UnknownClass::retryable)
                && attempt < max_attempts;
            if !retry {
                break end;
            }
            attempt += 1;
            terminal.say(&format!(
                "retrying gate {number:02} (attempt {attempt}/{max_attempts})"
            ));
        };
        checks.push((gate.id.clone(), gate_checks));
        let gate_receipt = &mut receipt.gates[index];
        gate_receipt.state = end.state;
        gate_receipt.class = end.class;
        gate_receipt.reason = end.reason.clone();
        match end.state {
            GateState::Passed => continue,
            GateState::Failed => return FinalState::Failed,
            GateState::Unknown | GateState::NotRun => return FinalState::Unknown,
        }
    }
    FinalState::Completed
}

struct AttemptContext<'a> {
    options: &'a RunOptions,
    run_id: &'a str,
    artifacts: &'a Artifacts,
    gate: &'a Validation,
    number: u32,
    attempt: u32,
    max_attempts: u32,
}

fn agent_failure(agent: AgentEnd, context: &AttemptContext<'_>) -> AttemptEnd {
    let unknown = |class, reason: String, interrupted| AttemptEnd {
        state: GateState::Unknown,
        class: Some(class),
        reason: Some(reason),
        interrupted,
    };
    match agent {
        AgentEnd::Exited(code) => unknown(
            UnknownClass::UnknownAgentCrash,
            format!("agent exited with code {code}"),
            false,
        ),
        AgentEnd::Signalled(signal) => unknown(
            UnknownClass::UnknownAgentCrash,
            format!("agent was killed by signal {signal}"),
            false,
        ),
        AgentEnd::TimedOut => unknown(
            UnknownClass::UnknownTransient,
            format!(
                "agent did not finish within {}s (--timeout); its process group was killed",
                context
                    .options
                    .agent_timeout
                    .map(|timeout| timeout.as_secs())
                    .unwrap_or_default()
            ),
            false,
        ),
        AgentEnd::Interrupted => unknown(
            UnknownClass::UnknownTransient,
            "interrupted; the agent's process group was killed".into(),
            true,
        ),
        AgentEnd::SpawnFailed(error) => unknown(
            UnknownClass::UnknownAgentCrash,
            format!("cannot start the agent: {error}"),
            false,
        ),
        AgentEnd::Internal(error) => unknown(UnknownClass::UnknownInternal, error, false),
    }
}

async fn run_agent(
    context: &AttemptContext<'_>,
    terminal: &mut Terminal<'_>,
    interrupts: &mut Interrupts,
) -> AgentEnd {
    let artifacts = context.artifacts;
    let (number, attempt) = (context.number, context.attempt);
    let logs = (
        artifacts.gate_log(number, attempt, "stdout"),
        artifacts.gate_log(number, attempt, "stderr"),
    );
    let (Ok(stdout), Ok(stderr)) = logs else {
        return AgentEnd::Internal("cannot create the agent's log files".into());
    };
    let Some((program, args)) = context.options.command.split_first() else {
        return AgentEnd::SpawnFailed("no agent command after `--`".into());
    };
    let mut command = tokio::process::Command::new(program);
    command
        .args(args)
        .current_dir(&context.options.workdir)
        .env("DIL_RUN_ID", context.run_id)
        .env("DIL_RUN_DIR", &artifacts.dir)
        .env("DIL_SPEC", &context.options.spec_path)
        .env("DIL_GATE", format!("{number:02}"))
        .env("DIL_GATE_ID", &context.gate.id)
        .env("DIL_GOAL", &context.gate.goal)
        .env("DIL_ATTEMPT", attempt.to_string())
        .env("DIL_MAX_ATTEMPTS", context.max_attempts.to_string())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        // Its own group, so a timeout or ctrl-c kills everything it started.
        .process_group(0);
    let started = Instant::now();
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => {
            let _ = artifacts.append(
                "agent.started",
                &format!(
                    "{} gate={number:02} attempt={attempt} spawn_failed",
                    unix_ms()
                ),
            );
            let _ = artifacts.write("agent.exit_code", "spawn_failed\n");
            let _ = artifacts.append(
                "agent.finished",
                &format!(
                    "{} gate={number:02} attempt={attempt} exit=spawn_failed duration_ms=0",
                    unix_ms()
                ),
            );
            return AgentEnd::SpawnFailed(error.to_string());
        }
    };
    let pid = child.id().unwrap_or_default();
    let _ = artifacts.append(
        "agent.started",
        &format!("{} gate={number:02} attempt={attempt} pid={pid}", unix_ms()),
    );
    let interval = context
        .options
        .progress_interval
        .max(Duration::from_millis(100));
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
    let deadline = context
        .options
        .agent_timeout
        .map(|timeout| tokio::time::Instant::now() + timeout);
    let end = loop {
        tokio::select! {
            status = child.wait() => {
                use std::os::unix::process::ExitStatusExt;
                break match status {
                    Ok(status) => match (status.code(), status.signal()) {
                        (Some(code), _) => AgentEnd::Exited(code),
                        (None, Some(signal)) => AgentEnd::Signalled(signal),
                        (None, None) => AgentEnd::Internal("the agent's exit status is unreadable".into()),
                    },
                    Err(error) => AgentEnd::Internal(format!("cannot wait for the agent: {error}")),
                };
            }
            _ = ticker.tick() => {
                terminal.say(&format!("running (pid={pid}, gate={number:02}, attempt={attempt})"));
            }
            () = sleep_until(deadline) => {
                kill_group(pid);
                let _ = child.wait().await;
                break AgentEnd::TimedOut;
            }
            () = interrupts.recv() => {
                kill_group(pid);
                let _ = child.wait().await;
                break AgentEnd::Interrupted;
            }
        }
    };
    let exit = match &end {
        AgentEnd::Exited(code) => code.to_string(),
        AgentEnd::Signalled(signal) => format!("signal:{signal}"),
        AgentEnd::TimedOut => "timeout".into(),
        AgentEnd::Interrupted => "interrupted".into(),
        AgentEnd::SpawnFailed(_) => "spawn_failed".into(),
        AgentEnd::Internal(_) => "none".into(),
    };
    let _ = artifacts.write("agent.exit_code", &format!("{exit}\n"));
    let _ = artifacts.append(
        "agent.finished",
        &format!(
            "{} gate={number:02} attempt={attempt} exit={exit} duration_ms={}",
            unix_ms(),
            started.elapsed().as_millis()
        ),
    );
    end
}

async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// The path of a run's artifacts, for callers that print or inspect them.
pub fn run_dir(workdir: &Path, run_id: &str) -> PathBuf {
    workdir.join(".dil").join("runs").join(run_id)
}
