//! `adas skill …`: `validate` checks files offline (the same expansion and
//! rules as the server); the others are clients of a running suite's
//! SkillRegistryService. Diagnostics print as `file:line:col: severity: message`.
//! Exit codes: the one table of `fail.rs` (1 a document with errors, 2 usage,
//! 3 not found, 5 an unreachable server, …).

mod author;
mod check;
mod stored;
mod wiring;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::fail::Failure;

use adas_catalog::Catalog;
use adas_proto::pb;
use adas_proto::pb::skill_registry_service_client::SkillRegistryServiceClient;
use adas_runtime::auth::AuthChannel as Channel;
use adas_runtime::{DEFAULT_DEMO_MCP_URL, DEFAULT_MEMORY_ROOT};
use adas_skill::Format as DocumentFormat;
use clap::Subcommand;

use crate::client::Client;
use tonic_types::StatusExt;

use crate::output::{Format, out, print_fields, print_table, print_value, to_json};
pub(crate) use wiring::*;

/// `adas skill` subcommands.
#[derive(Debug, Subcommand)]
pub enum SkillCommand {
    /// `adas connector …` (a top-level command; run here for the shared client).
    #[command(skip)]
    Connector(ConnectorCommand),
    /// `adas solution …` (a top-level command).
    #[command(skip)]
    Solution(SolutionCommand),
    /// Validate skill files (YAML or JSON); exits 1 if any has errors.
    Validate {
        /// Skill files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print errors only.
        #[arg(long)]
        quiet: bool,
        /// List each of the Builder's bookkeeping fields (`created_at`, …)
        /// instead of one line for all.
        #[arg(long)]
        verbose: bool,
        /// Value of `${ADAS_DEMO_MCP_URL}` (the variables a server expands).
        #[arg(long, env = "ADAS_DEMO_MCP_URL", default_value = DEFAULT_DEMO_MCP_URL)]
        demo_mcp_url: String,
    },
    /// Write a commented starter skill, `NAME.yaml` (tools with mocks,
    /// scenarios): it validates and passes `adas skill test` as written.
    Init {
        /// The skill's name (its slag).
        name: String,
        /// Where to write it.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Print the JSON Schema of a skill document (for editor completion).
    Schema,
    /// Validate and store a skill on the server (PutSkill).
    Put {
        /// The skill document (YAML or JSON).
        file: PathBuf,
        /// The slag to store it under; default: the file name without its extension.
        #[arg(long)]
        name: Option<String>,
        /// Refuse the write unless the stored skill still has this etag.
        #[arg(long)]
        etag: Option<String>,
        /// List each of the Builder's bookkeeping fields the server keeps.
        #[arg(long)]
        verbose: bool,
    },
    /// Delete a skill from the server (DeleteSkill); its archived jobs stay.
    Delete {
        /// The slag.
        slag: String,
        /// Refuse unless the stored skill still has this etag.
        #[arg(long)]
        etag: Option<String>,
    },
    /// The skill's resolved tools (ResolveTools): name, source, inputs. A server
    /// tool that is new or changed since it was accepted shows UNAVAILABLE.
    Tools {
        /// The slag.
        slag: String,
        /// Accept the server's current definitions (AcceptTools, admin): all of
        /// them, or those named with --tool.
        #[arg(long)]
        accept: bool,
        /// With --accept: a tool to accept (repeat for several).
        #[arg(long = "tool", requires = "accept")]
        tools: Vec<String>,
    },
    /// List the server's operational skills.
    List,
    /// Run the skill's `scenarios` as its author's tests on the embedded
    /// suite, its tools answered from `tools[].mock.examples` (no MCP server
    /// needed): each must make the calls its steps name. Exits 1 on a failure.
    ///
    /// With a conversation file (`adas skill test SLAG FILE.conv`): its
    /// scripted conversations run against the suite at `--server`, where the
    /// skill and its tools are, and each is reported (format: e2e/EVAL.md).
    /// Exits 1 when fewer than `--min-correct` end as scripted or any makes
    /// a wrong side-effecting call.
    Test {
        /// A skill file, or the slag of a skill on the server (`--server`).
        skill: String,
        /// A conversation file (`.conv`) to run against the server's skill.
        conversations: Option<PathBuf>,
        /// Also write a JUnit XML report here (for CI).
        #[arg(long)]
        junit: Option<PathBuf>,
        /// Also write each conversation's measures here, as JSON.
        #[arg(long, requires = "conversations")]
        json: Option<PathBuf>,
        /// The share of conversations that must end as scripted (0 to 1).
        #[arg(long, default_value_t = 1.0, requires = "conversations")]
        min_correct: f64,
    },
    /// The skill's schedule triggers with their next run (every replica
    /// runs them; the store gives each period to one).
    Triggers {
        /// The slag.
        slag: String,
    },
    /// Show an operational skill (bootstrapped from its template on first use).
    Get {
        /// The slag, e.g. `cs-tier-1`.
        slag: String,
    },
}

const EXIT_ERRORS: u8 = 1;
const EXIT_USAGE: u8 = 2;

/// Runs a skill subcommand; `server` is the suite's address.
pub fn run(command: SkillCommand, client: &Client, output: Format) -> ExitCode {
    let command = match command {
        SkillCommand::Validate {
            files,
            quiet,
            verbose,
            demo_mcp_url,
        } => return check::validate(&files, (quiet, verbose), &demo_mcp_url),
        SkillCommand::Init { name, dir } => return author::init(&name, &dir),
        SkillCommand::Schema => return author::schema(),
        SkillCommand::Solution(SolutionCommand::Validate {
            file,
            skills,
            verbose,
            demo_mcp_url,
        }) => return check::validate_solution(&file, &skills, verbose, &demo_mcp_url),
        remote => remote,
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match runtime.block_on(remote(command, client, output)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

async fn registry(client: &Client) -> Result<SkillRegistryServiceClient<Channel>, Failure> {
    Ok(SkillRegistryServiceClient::new(client.channel().await?)
        .accept_compressed(tonic::codec::CompressionEncoding::Gzip))
}

async fn remote(command: SkillCommand, client: &Client, output: Format) -> Result<(), Failure> {
    let mut registry = registry(client).await?;
    match command {
        SkillCommand::Validate { .. }
        | SkillCommand::Test { .. }
        | SkillCommand::Init { .. }
        | SkillCommand::Schema => {
            unreachable!("runs on its own")
        }
        SkillCommand::Connector(command) => connector(command, &mut registry, output).await,
        SkillCommand::Solution(command) => solution(command, &mut registry, output).await,
        SkillCommand::Put {
            file,
            name,
            etag,
            verbose,
        } => stored::put(&mut registry, (&file, name, etag), verbose, output).await,
        SkillCommand::Delete { slag, etag } => {
            let deleted = registry
                .delete_skill(pb::DeleteSkillRequest {
                    name: format!("skills/{slag}"),
                    etag: etag.unwrap_or_default(),
                })
                .await
                .map_err(|status| Failure::from_status(&status))?
                .into_inner();
            if output.is_data() {
                print_value(&json(&deleted, "adas.v1.DeleteSkillResponse")?, output);
            } else {
                out(&format!("{} deleted", deleted.name));
            }
            Ok(())
        }
        SkillCommand::Tools {
            slag,
            accept,
            tools,
        } => stored::tools(&mut registry, &slag, (accept, tools), output).await,
        SkillCommand::List => stored::list(&mut registry, output).await,
        SkillCommand::Triggers { slag } => stored::triggers(&mut registry, &slag, output).await,
        SkillCommand::Get { slag } => {
            let skill = registry
                .get_skill(pb::GetSkillRequest {
                    name: format!("skills/{slag}"),
                })
                .await
                .map_err(|status| Failure::from_status(&status))?
                .into_inner();
            match output {
                Format::Text => print_skill(&skill),
                Format::Table => print_fields(&[
                    ("name", skill.name.clone()),
                    ("display_name", skill.display_name.clone()),
                    ("template", skill.template.clone()),
                    ("etag", skill.etag.clone()),
                    ("mcp_server", skill.mcp_server.clone()),
                    ("diagnostics", skill.diagnostics.len().to_string()),
                ]),
                _ => print_value(&json(&skill, "adas.v1.Skill")?, output),
            }
            Ok(())
        }
    }
}

fn json(message: &impl prost::Message, full_name: &str) -> Result<serde_json::Value, Failure> {
    to_json(message, full_name).map_err(Failure::usage)
}

/// `refunds-eu.yaml` → `refunds-eu`.
fn slag_of_file(file: &Path) -> Result<String, Failure> {
    file.file_stem()
        .and_then(|stem| stem.to_str())
        .map(|stem| stem.split('.').next().unwrap_or(stem).to_owned())
        .filter(|slag| !slag.is_empty())
        .ok_or_else(|| {
            Failure::usage(format!(
                "{}: cannot name a slag after this file; pass --name",
                file.display()
            ))
        })
}

/// `process_refund  mcp http://…/mcp  order_id: string*, amount: number*`.
/// A tool as a table row: name, source, inputs, state.
fn tool_row(tool: &pb::ToolSpec) -> Vec<String> {
    let source = match tool.source.as_ref() {
        Some(source) if source.kind == pb::ToolSourceKind::Mcp as i32 => source.uri.clone(),
        Some(source) if source.kind == pb::ToolSourceKind::Core as i32 => "core".to_owned(),
        _ => "unknown".to_owned(),
    };
    let inputs: Vec<String> = tool
        .inputs
        .iter()
        .map(|input| format!("{}{}", input.name, if input.required { "*" } else { "" }))
        .collect();
    vec![
        tool.name.clone(),
        source,
        inputs.join(", "),
        crate::output::status_colour(standing(tool)),
    ]
}

fn tool_line(tool: &pb::ToolSpec) -> String {
    let source = match tool.source.as_ref() {
        Some(source) if source.kind == pb::ToolSourceKind::Mcp as i32 => {
            format!("mcp {}", source.uri)
        }
        Some(source) if source.kind == pb::ToolSourceKind::Core as i32 => "core".to_owned(),
        _ => "unknown".to_owned(),
    };
    let inputs: Vec<String> = tool
        .inputs
        .iter()
        .map(|input| {
            format!(
                "{}: {}{}",
                input.name,
                input.r#type,
                if input.required { "*" } else { "" }
            )
        })
        .collect();
    let unavailable = match adas_proto::pb::ToolAvailability::try_from(tool.availability) {
        Ok(adas_proto::pb::ToolAvailability::NeedsApproval) => "\tNEEDS APPROVAL".to_owned(),
        _ if tool.available => String::new(),
        Ok(adas_proto::pb::ToolAvailability::Undeclared) => {
            format!("\tUNDECLARED: {}", tool.unavailable_reason)
        }
        Ok(adas_proto::pb::ToolAvailability::NeverAllowed) => {
            format!("\tNEVER ALLOWED: {}", tool.unavailable_reason)
        }
        Ok(adas_proto::pb::ToolAvailability::Held) => {
            format!("\tHELD: {}", tool.unavailable_reason)
        }
        _ => format!("\tUNAVAILABLE: {}", tool.unavailable_reason),
    };
    format!(
        "{}\t{source}\t({}){unavailable}",
        tool.name,
        inputs.join(", ")
    )
}

/// What a job may do with the tool, in the console's words: a tool that
/// needs approval, is never allowed, undeclared or held is said so, never
/// flattened to available or unavailable.
fn standing(tool: &pb::ToolSpec) -> &'static str {
    use pb::ToolAvailability as A;
    match A::try_from(tool.availability) {
        Ok(A::NeedsApproval) => "needs approval",
        Ok(A::NeverAllowed) => "never allowed",
        Ok(A::Undeclared) => "undeclared",
        Ok(A::Held) => "held: needs an approver",
        Ok(A::Unaccepted) => "not accepted",
        Ok(A::NotServed) => "not served",
        _ if tool.available => "available",
        _ => "unavailable",
    }
}

fn print_skill(skill: &pb::Skill) {
    out(&format!("name: {}", skill.name));
    out(&format!("display_name: {}", skill.display_name));
    out(&format!(
        "template: {}",
        if skill.template.is_empty() {
            "(minimal default)"
        } else {
            &skill.template
        }
    ));
    out(&format!("etag: {}", skill.etag));
    if !skill.mcp_server.is_empty() {
        out(&format!("mcp_server: {}", skill.mcp_server));
    }
    if let Some(policy) = &skill.compiled_policy {
        for rule in &policy.approvals {
            out(&format!(
                "approval: {} when {} by {}",
                rule.tool, rule.when, rule.approver
            ));
        }
    }
    let file = format!("skills/{}/skill.yaml", skill.slag);
    check::print_diagnostics(
        &file,
        skill.diagnostics.iter().map(check::Shown::from),
        false,
    );
}
