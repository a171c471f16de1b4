//! `adas job …` and `adas chat`: clients of a running suite (`adas up`, or the
//! services behind one address). The chat renders the input widget exactly when
//! spec 000's UI contract says — paused ∧ USER_ACTION_REQUIRED ∧ reason_code — with
//! one prompt per requested field and its type, and approvals as a prompt for the
//! approver. Who answers and who approves is the principal of the API key used
//! (`--api-key`, and `adas chat --approver-key` for approvals).

mod act;
mod chat;
mod list;

use list::{OutcomeArg, StatusArg, print_jobs, since};

use std::io::BufRead;
use std::process::ExitCode;

use crate::fail::Failure;
use std::time::Duration;

use adas_proto::pb;
use adas_proto::pb::dal_agent_service_client::DalAgentServiceClient;
use adas_proto::pb::gate_service_client::GateServiceClient;
use adas_proto::pb::orchestrator_service_client::OrchestratorServiceClient;
use clap::{Args, Subcommand};

use crate::output::{
    Format, out, print_fields, print_table, print_value, progress, status_colour, to_json,
    write_out,
};
use adas_runtime::auth::AuthChannel as Channel;

use crate::client::Client;
pub(crate) use chat::*;
use tonic_types::StatusExt;

/// `adas job` subcommands.
#[derive(Debug, Subcommand)]
pub enum JobCommand {
    /// Start a job; prints its name.
    Start {
        /// Skill slag, or `solutions/{id}` to start on a solution (its
        /// routing picks the skill; continue with its `conversation`).
        slag: String,
        /// The goal (optional with --program).
        #[arg(required_unless_present = "program", default_value = "")]
        goal: String,
        /// Run this DIA program instead of planning from the goal (every call is
        /// still gated; an ASK pauses the job).
        #[arg(long)]
        program: Option<String>,
        /// Resource bindings `name=value`.
        #[arg(long = "resource", value_parser = key_value)]
        resources: Vec<(String, String)>,
        /// Idempotency key.
        #[arg(long)]
        request_id: Option<String>,
        /// Continue this conversation (`skills/{slag}/conversations/{id}`, a
        /// previous job's `conversation`): its facts carry over.
        #[arg(long)]
        conversation: Option<String>,
    },
    /// Print a job: a summary, a table, or the whole job with `-o json|yaml`.
    Get {
        /// Job name `skills/{slag}/jobs/{id}`.
        name: String,
    },
    /// List jobs, newest first: of one skill, or of every skill you may read.
    List {
        /// Skill slag; without one, every skill's jobs.
        slag: Option<String>,
        /// Only jobs in this status.
        #[arg(long, value_enum)]
        status: Option<StatusArg>,
        /// Only jobs with this outcome.
        #[arg(long, value_enum)]
        outcome: Option<OutcomeArg>,
        /// Only jobs this principal started (its name).
        #[arg(long)]
        owner: Option<String>,
        /// Only jobs created within this long (`90s`, `30m`, `24h`, `7d`) or
        /// since this RFC 3339 time.
        #[arg(long, value_parser = since)]
        since: Option<prost_types::Timestamp>,
        /// At most this many jobs (0: every one).
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// Oldest first (one skill only).
        #[arg(long, requires = "slag")]
        oldest_first: bool,
        /// Go on where an earlier listing stopped (the token it printed).
        #[arg(long)]
        page_token: Option<String>,
    },
    /// Stream a job's events until it ends.
    Watch {
        /// Job name.
        name: String,
    },
    /// Answer the job's current ask: `field=value` pairs.
    Answer {
        /// Job name.
        name: String,
        /// Answers.
        #[arg(value_parser = key_value, required = true)]
        fields: Vec<(String, String)>,
    },
    /// Approve (or `--reject`) the call the job waits on, as the principal of
    /// the API key (it must hold the approver role the skill names).
    Approve {
        /// Job name.
        name: String,
        /// Reject instead.
        #[arg(long)]
        reject: bool,
        /// Why: kept with the decision, shown in `job get`, `job watch` and
        /// the console's timeline.
        #[arg(long, default_value = "")]
        comment: String,
    },
    /// Cancel jobs: each name given, and with `-` each job named on
    /// standard input (a line's first word, as `adas job list` prints them):
    /// `adas job list --status paused | adas job cancel -`.
    Cancel {
        /// Job names (`-`: read them from standard input).
        #[arg(required = true)]
        names: Vec<String>,
        /// Why, kept in each job's events and audit.
        #[arg(long, default_value = "cancelled from the CLI")]
        reason: String,
    },
    /// Run a failed or escalated job again as a new job (same skill, goal,
    /// context and resources, in the same conversation); prints the new job.
    Retry {
        /// Job name.
        name: String,
    },
    /// List a skill's paused jobs with what each waits for — escalated jobs
    /// (HUMAN_TAKEOVER_REQUIRED) among them, oldest ask first.
    Waiting {
        /// Skill slag.
        slag: String,
    },
    /// Take over an escalated job: send `--reply` to the user as the human in
    /// charge (operator or admin); the job completes with it.
    Takeover {
        /// Job name.
        name: String,
        /// The reply to the user.
        #[arg(long)]
        reply: String,
    },
}

/// `adas chat` arguments.
#[derive(Debug, Args)]
pub struct ChatArgs {
    /// Skill slag, or `solutions/{id}` to chat with a solution.
    slag: String,
    /// Read the user's lines from this file instead of the terminal.
    #[arg(long)]
    script: Option<std::path::PathBuf>,
    /// The API key that decides approvals (an approver principal); by default
    /// the chat's own key, which may not approve its own job outside dev mode.
    #[arg(long, env = "ADAS_APPROVER_KEY", hide_env_values = true)]
    approver_key: Option<String>,
}

fn key_value(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .ok_or_else(|| format!("`{text}` is not name=value"))
}

pub(crate) struct Clients {
    pub(crate) orchestrator: OrchestratorServiceClient<Channel>,
    pub(crate) dal: DalAgentServiceClient<Channel>,
    pub(crate) gate: GateServiceClient<Channel>,
}

pub(crate) async fn connect(client: &Client) -> Result<Clients, Failure> {
    let channel = client.channel().await?;
    Ok(Clients {
        orchestrator: OrchestratorServiceClient::new(channel.clone())
            .accept_compressed(tonic::codec::CompressionEncoding::Gzip),
        dal: DalAgentServiceClient::new(channel.clone())
            .accept_compressed(tonic::codec::CompressionEncoding::Gzip),
        gate: GateServiceClient::new(channel)
            .accept_compressed(tonic::codec::CompressionEncoding::Gzip),
    })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// A job asked for what it does not wait for: not in a state for this
/// (exit 6, as `cancel` of an ended job), with how to see its state.
fn not_waiting(job: &str, what: &str) -> Failure {
    Failure::conflict(format!(
        "{job} is not waiting for {what}: `adas job get {job}` shows its state"
    ))
}

/// A refused call as a failure with its exit code.
pub(crate) fn status_text(status: tonic::Status) -> Failure {
    Failure::from_status(&status)
}

/// `JOB_STATUS_PAUSED` → `paused`; an unknown wire value shows as a number.
fn enum_name(name: Result<&str, prost::UnknownEnumValue>) -> String {
    match name {
        Ok(name) => name
            .split_once("_TYPE_")
            .or_else(|| name.split_once("_STATUS_"))
            .or_else(|| name.split_once("_CLASS_"))
            .map_or(name, |(_, rest)| rest)
            .to_ascii_lowercase(),
        Err(unknown) => format!("unknown({})", unknown.0),
    }
}

/// A job as `format` says: `text` by `as_text`, a field table, or the
/// proto3 JSON mapping.
fn print_job_as(
    job: &pb::Job,
    format: Format,
    as_text: impl FnOnce(&pb::Job),
) -> Result<(), Failure> {
    match format {
        Format::Text => as_text(job),
        Format::Table => {
            let status = enum_name(pb::JobStatus::try_from(job.status).map(|s| s.as_str_name()));
            let outcome =
                enum_name(pb::OutcomeClass::try_from(job.outcome_class).map(|o| o.as_str_name()));
            let waiting = job.waiting.clone().unwrap_or_default();
            print_fields(&[
                ("name", job.name.clone()),
                ("status", status_colour(&status)),
                ("outcome", status_colour(&outcome)),
                ("goal", job.goal.clone()),
                ("waiting", waiting.reason_code),
                ("prompt", waiting.prompt_message),
                ("reply", job.result.clone().unwrap_or_default().reply),
            ]);
        }
        Format::Json | Format::Yaml => print_value(&to_json(job, "adas.v1.Job")?, format),
    }
    Ok(())
}

/// A job as a table row: name, status, outcome, goal.
fn job_row(job: &pb::Job) -> Vec<String> {
    vec![
        job.name.clone(),
        status_colour(&enum_name(
            pb::JobStatus::try_from(job.status).map(|s| s.as_str_name()),
        )),
        status_colour(&enum_name(
            pb::OutcomeClass::try_from(job.outcome_class).map(|o| o.as_str_name()),
        )),
        job.goal.clone(),
    ]
}

/// A job for people: identity, state, what it waits for, its answer.
fn print_job(job: &pb::Job) {
    out(&format!("name: {}", job.name));
    out(&format!(
        "status: {}",
        enum_name(pb::JobStatus::try_from(job.status).map(|s| s.as_str_name()))
    ));
    if job.outcome_class != 0 {
        out(&format!(
            "outcome: {}",
            enum_name(pb::OutcomeClass::try_from(job.outcome_class).map(|o| o.as_str_name()))
        ));
    }
    out(&format!("goal: {}", job.goal));
    if let Some(intent) = &job.intent {
        out(&format!(
            "intent: {} ({:.2})",
            intent.intent_id, intent.confidence
        ));
    }
    if let Some(waiting) = &job.waiting {
        out(&format!(
            "waiting: {} ({})",
            waiting.reason_code, waiting.correlation_id
        ));
        out(&format!("  prompt: {}", waiting.prompt_message));
        for field in &waiting.fields {
            out(&format!("  field: {} ({})", field.name, field.r#type));
        }
        if let Some(approval) = &waiting.approval {
            // The exact call a decision applies to, and who decides.
            let arguments = approval
                .arguments
                .as_ref()
                .map(adas_runtime::convert::struct_to_json)
                .unwrap_or_default();
            out(&format!(
                "  call: {}({}) — approver: {}, when {}",
                approval.tool,
                arguments
                    .iter()
                    .map(|(key, value)| format!("{key}={value}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                approval.approver,
                approval.condition
            ));
        }
    }
    for decision in &job.decisions {
        let verdict = if decision.decision == pb::ApprovalDecision::Approve as i32 {
            "approved"
        } else {
            "rejected"
        };
        let why = if decision.comment.is_empty() {
            String::new()
        } else {
            format!(": {}", decision.comment)
        };
        out(&format!(
            "decision: {} {verdict} by {} ({}){why}",
            decision.tool, decision.approver, decision.role
        ));
    }
    if let Some(result) = &job.result {
        out(&format!("reply: {}", result.reply));
    }
    if let Some(error) = &job.error {
        out(&format!("error: {}", error.message));
    }
    out(&format!("version: {}", job.version));
}

/// What the job waits for now, if anything.
async fn current_ask(clients: &mut Clients, name: &str) -> Result<Option<pb::Waiting>, Failure> {
    Ok(clients
        .orchestrator
        .get_job(pb::GetJobRequest {
            name: name.to_owned(),
        })
        .await
        .map_err(status_text)?
        .into_inner()
        .waiting)
}

/// `adas whoami`: the principal the suite takes the key for (GetCaller).
pub fn whoami(client: &Client, output: Format) -> ExitCode {
    finish(runtime().block_on(async move {
        let caller = connect(client)
            .await?
            .orchestrator
            .get_caller(pb::GetCallerRequest {})
            .await
            .map_err(status_text)?
            .into_inner();
        if output.is_data() {
            print_value(&to_json(&caller, "adas.v1.Caller")?, output);
        } else {
            let roles = if caller.dev_mode {
                "every role (dev mode)".to_owned()
            } else {
                caller.roles.join(", ")
            };
            out(&format!(
                "{} (tenant {}): {roles}",
                caller.name, caller.tenant
            ));
        }
        Ok(())
    }))
}

/// Runs a job subcommand against the suite at `server`.
pub fn run(command: JobCommand, client: &Client, output: Format) -> ExitCode {
    finish(runtime().block_on(async move {
        match command {
            JobCommand::Start {
                slag,
                goal,
                program,
                resources,
                request_id,
                conversation,
            } => {
                let mut clients = connect(client).await?;
                let job = progress(
                    "starting the job",
                    clients.orchestrator.start_job(pb::StartJobRequest {
                        resources: resources.into_iter().collect(),
                        context: None,
                        request_id: request_id.unwrap_or_default(),
                        program: program.unwrap_or_default(),
                        ..target(&slag, goal, conversation.unwrap_or_default())
                    }),
                )
                .await
                .map_err(status_text)?
                .into_inner();
                print_job_as(&job, output, |job| out(&job.name))?;
            }
            JobCommand::Get { name } => {
                let job = connect(client)
                    .await?
                    .orchestrator
                    .get_job(pb::GetJobRequest { name })
                    .await
                    .map_err(status_text)?
                    .into_inner();
                print_job_as(&job, output, print_job)?;
            }
            JobCommand::List {
                slag,
                status,
                outcome,
                owner,
                since,
                limit,
                oldest_first,
                page_token,
            } => {
                let mut orchestrator = connect(client).await?.orchestrator;
                let mut listed = Vec::new();
                let mut page_token = page_token.unwrap_or_default();
                let limit = if limit == 0 { usize::MAX } else { limit };
                while listed.len() < limit {
                    let page = orchestrator
                        .list_jobs(pb::ListJobsRequest {
                            parent: format!("skills/{}", slag.as_deref().unwrap_or("-")),
                            status: status.map_or(pb::JobStatus::Unspecified, StatusArg::wire)
                                as i32,
                            page_size: (limit - listed.len()).min(1000) as i32,
                            page_token,
                            outcome_class: outcome
                                .map_or(pb::OutcomeClass::Unspecified, OutcomeArg::wire)
                                as i32,
                            owner: owner.clone().unwrap_or_default(),
                            create_time_after: since,
                            order_by: if oldest_first {
                                "create_time"
                            } else {
                                "create_time desc"
                            }
                            .into(),
                        })
                        .await
                        .map_err(status_text)?
                        .into_inner();
                    listed.extend(page.jobs);
                    // Each page asks for no more than is left: the token
                    // goes on right after the last job shown.
                    page_token = page.next_page_token;
                    if page_token.is_empty() {
                        break;
                    }
                }
                listed.truncate(limit);
                print_jobs(&listed, &page_token, output)?;
            }
            JobCommand::Watch { name } => act::watch(client, name, output).await?,
            JobCommand::Answer { name, fields } => {
                act::answer(client, name, fields, output).await?
            }
            JobCommand::Approve {
                name,
                reject,
                comment,
            } => act::approve(client, name, (reject, comment), output).await?,
            JobCommand::Cancel { names, reason } => {
                act::cancel(client, names, &reason, output).await?
            }
            JobCommand::Retry { name } => {
                let job = connect(client)
                    .await?
                    .orchestrator
                    .retry_job(pb::RetryJobRequest { name })
                    .await
                    .map_err(status_text)?
                    .into_inner();
                print_job_as(&job, output, |job| out(&job.name))?;
            }
            JobCommand::Waiting { slag } => list::waiting(client, &slag, output).await?,
            JobCommand::Takeover { name, reply } => {
                act::takeover(client, name, reply, output).await?
            }
        }
        Ok(())
    }))
}
