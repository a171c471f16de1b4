//! Performing a step's effects: what the worker's interpreter (the
//! orchestrator's `Worker`) asks for between two decisions of
//! `adas_step::work::apply` — the planner, the gates and the polisher
//! through an [`Engine`] (in this process or behind the services), and the
//! tool call's own I/O: vetting the tool against its accepted definition,
//! rechecking its server before a side effect, running the call (a core tool
//! in process, any other on its MCP server, outside the worker's budget),
//! keeping a large output in the focus cache and reading it back. The call's
//! start and every other write stay with the interpreter, which owns the
//! job's version.

use std::sync::Arc;

use adas_jobs::focus::{FocusCache, FocusError};
use adas_jobs::{JobError, JobRecord};
use adas_skill::OperationalSkill;
use adas_step::work::{Effect, INLINE_OUTPUT_MAX_BYTES, Input};
use adas_tools::{McpConnector, McpError, ToolResolver, ToolSpec};
use serde_json::{Map, Value as Json, json};
use tracing::warn;

use crate::engines::Engine;
use crate::error::WorkError;
use crate::room::{step_in, step_out};

/// How many characters of a referenced output the reference shows.
const FOCUS_PREVIEW_CHARS: usize = 200;

/// What performs a step's effects.
#[derive(Clone)]
pub struct Performer {
    /// Planning, the next step, the gates and the polisher (in this process
    /// or behind the services).
    pub engine: Arc<dyn Engine>,
    /// MCP tool calls.
    pub mcp: Arc<dyn McpConnector>,
    /// Tool sets with their accepted definitions.
    pub tools: Arc<ToolResolver>,
    /// Large tool outputs, kept once per slag and referenced from the job.
    pub focus: Arc<FocusCache>,
}

impl std::fmt::Debug for Performer {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Performer")
            .field("engine", &self.engine)
            .finish_non_exhaustive()
    }
}

impl Performer {
    /// Performs one effect (the call itself aside: `run`); what it answered.
    pub async fn perform(
        &self,
        skill: &Arc<OperationalSkill>,
        record: &mut JobRecord,
        spec: &mut Option<ToolSpec>,
        effect: Effect,
    ) -> Result<Input, WorkError> {
        Ok(match effect {
            Effect::Plan(ask) => {
                let planned = self.engine.plan(skill, record, ask.clone()).await?;
                Input::Planned(Box::new(planned), ask)
            }
            Effect::Replan(ask, verdict) => {
                let planned = self.engine.plan(skill, record, ask.clone()).await?;
                Input::Replanned(Box::new(planned), ask, verdict)
            }
            Effect::Vet(call) => {
                let (refused, found, stale) = self.unaccepted(skill, record, &call.tool).await;
                if record
                    .started_call
                    .as_ref()
                    .is_some_and(|started| started.key == call.key)
                {
                    tracing::info!(job_id = %record.job_id, tool = %call.tool, key = %call.key, "an idempotent call whose end is unknown runs again");
                }
                let hint = found.as_ref().and_then(|found| found.read_only_hint);
                let server = found.as_ref().and_then(server_of);
                *spec = found;
                Input::Vetted {
                    call,
                    refused,
                    hint,
                    server,
                    stale,
                }
            }
            Effect::Gate(call) => {
                let word = self
                    .engine
                    .check_tool_call(skill, record, (&call.tool, &call.args), false)
                    .await?;
                Input::GateSaid(call, word)
            }
            Effect::Recheck(mut call) => {
                let (refused, now) = self.recheck(skill, record, &call.tool, spec.take()).await;
                // The call goes where the definition as it stands now says.
                call.server = now.as_ref().and_then(server_of);
                *spec = now;
                Input::Rechecked(call, refused)
            }
            Effect::Keep(call, value) => {
                Input::Kept(call, self.keep_large(&record.slag, &value).await)
            }
            Effect::ReadOutputs => {
                let mut outputs = Vec::new();
                for call in record.calls.iter().filter(|call| !call.is_error) {
                    let output = self.full_output(&record.slag, &call.output).await?;
                    outputs.push((call.tool.clone(), output));
                }
                Input::OutputsRead(outputs)
            }
            Effect::Judge(drafted) => {
                let judged = self
                    .engine
                    .finalize(skill, record, drafted.ask.clone())
                    .await?;
                Input::Judged(drafted, judged)
            }
            Effect::Polish(verdict) => {
                let polished = self
                    .engine
                    .polish_reply(skill, record, verdict.1.clone())
                    .await?;
                Input::Polished(verdict, polished)
            }
            // The interpreter's own (they write the job): never sent here.
            Effect::ResolveNext | Effect::Run(_) => {
                return Err(WorkError::Plan(
                    "a call or a resolution performed out of the interpreter".into(),
                ));
            }
        })
    }

    /// Runs one gated call — a core tool in-process, any other on the skill's
    /// MCP server — and records its duration.
    pub async fn run_call(
        &self,
        skill: &OperationalSkill,
        (tool, spec): (&str, Option<&ToolSpec>),
        args: &Map<String, Json>,
        (key, tenant, job_id): (&str, &str, &str),
    ) -> Result<Json, adas_dia::ToolError> {
        let started = std::time::Instant::now();
        // OpenTelemetry's MCP and GenAI conventions: `tools/call {tool}`.
        let call_span = tracing::info_span!(
            "tool.call",
            %tool,
            otel.name = %format!("tools/call {tool}"),
            otel.kind = "client",
            mcp.method.name = "tools/call",
            gen_ai.operation.name = "execute_tool",
            gen_ai.tool.name = %tool,
            adas.job.id = %job_id,
            adas.skill = %skill.slag,
            adas.tenant = %tenant,
        );
        let outcome = if tool.starts_with("sys.") {
            adas_tools::run_core(tool, args)
                .map_err(|error| adas_dia::ToolError::Recoverable(error.to_string()))
        } else {
            // Where the resolution placed it: its connection's server under
            // the server's own name, or the skill's server.
            let route = match spec.map(|spec| (&spec.source, spec.remote_name.as_deref())) {
                Some((adas_tools::ToolSource::Mcp { uri }, remote)) => {
                    Some((uri.clone(), remote.unwrap_or(tool)))
                }
                _ => record_uri(skill).map(|uri| (uri, tool)),
            };
            match route {
                Some((uri, remote)) => {
                    // The tool server is a third party: it gets the suite's
                    // own trace id, never the one a caller chose.
                    let traceparent = adas_runtime::telemetry::egress_traceparent(
                        &call_span.in_scope(adas_runtime::telemetry::current_traceparent),
                        job_id,
                    );
                    let meta = adas_tools::CallMeta {
                        idempotency_key: Some(key),
                        traceparent: Some(&traceparent),
                    };
                    let share = step_out(tenant).await;
                    let calling = tracing::Instrument::instrument(
                        self.mcp.call_tool(&uri, remote, args, meta),
                        call_span,
                    );
                    // The skill's own limit on one call (engine.rv2.iteration_timeout_ms),
                    // within the deployment's.
                    let called = match skill.engine.call_timeout_ms {
                        Some(limit) => {
                            tokio::time::timeout(std::time::Duration::from_millis(limit), calling)
                                .await
                                .unwrap_or(Err(McpError::Timeout {
                                    uri: uri.clone(),
                                    after_ms: limit,
                                }))
                        }
                        None => calling.await,
                    };
                    if share.is_some() {
                        drop(share);
                        step_in().await;
                    }
                    called
                }
                .map_err(|error| match error {
                    McpError::ToolFailed { message, .. } => {
                        adas_dia::ToolError::Recoverable(message)
                    }
                    other => adas_dia::ToolError::Unrecoverable(other.to_string()),
                }),
                None => Err(adas_dia::ToolError::Unrecoverable(format!(
                    "`{tool}` has no MCP server to run on"
                ))),
            }
        };
        let result = if outcome.is_ok() { "ok" } else { "error" };
        let (tenant, skill_label) = adas_jobs::job_labels(tenant, &skill.slag);
        metrics::histogram!(
            "adas_tool_call_seconds",
            "tenant" => tenant,
            "skill" => skill_label,
            "tool" => adas_jobs::metric_label(adas_jobs::Labelled::Tool, tool),
            "result" => result
        )
        .record(started.elapsed());
        outcome
    }

    /// `output` as the job keeps it: itself when small, else a reference to
    /// its copy in the slag's focus cache (`focus_ref`, `bytes`, `preview`).
    /// A cache that cannot take it leaves the output inline: never lost.
    pub async fn keep_large(&self, slag: &str, output: &Json) -> Json {
        let text = output.to_string();
        if text.len() <= INLINE_OUTPUT_MAX_BYTES {
            return output.clone();
        }
        match self.focus.put(slag, text.as_bytes()).await {
            Ok(id) => json!({
                "focus_ref": id,
                "bytes": text.len(),
                "preview": text.chars().take(FOCUS_PREVIEW_CHARS).collect::<String>(),
            }),
            Err(error) => {
                warn!(%error, slag, "focus cache refused a tool output; kept inline");
                output.clone()
            }
        }
    }

    /// A call's output as the tool returned it: a focus reference is read back
    /// from the cache (an evicted one stays the reference). A store that cannot
    /// be read fails the step, to be retried: finalization never judges a
    /// preview it mistook for the output.
    pub async fn full_output(&self, slag: &str, output: &Json) -> Result<Json, WorkError> {
        let Some(id) = output.get("focus_ref").and_then(Json::as_str) else {
            return Ok(output.clone());
        };
        match self.focus.get(slag, id).await {
            Ok(Some(bytes)) => {
                Ok(serde_json::from_slice(&bytes).unwrap_or_else(|_| output.clone()))
            }
            Ok(None) | Err(FocusError::InvalidKey(_) | FocusError::TooLarge { .. }) => {
                Ok(output.clone())
            }
            Err(FocusError::Store(error)) => Err(JobError::Store(error).into()),
        }
    }

    /// Why `tool` may not run now: its server's current definition is not the
    /// one an admin accepted (a rug pull, or a tool the server added), the
    /// server no longer lists it (a hidden tool is never called, reads
    /// included), or it cannot be checked. `None`: it may run.
    pub async fn unaccepted(
        &self,
        skill: &OperationalSkill,
        record: &JobRecord,
        tool: &str,
    ) -> (Option<String>, Option<ToolSpec>, bool) {
        if tool.starts_with("sys.") {
            return (None, None, false);
        }
        match self
            .tools
            .resolve(&adas_jobs::tool_request(skill, &record.tenant))
            .await
        {
            Ok(resolved) => {
                let spec = resolved
                    .tools
                    .iter()
                    .find(|spec| spec.name == tool)
                    .cloned();
                let refused = match &spec {
                    // Hidden from the server's current list: whatever it
                    // would run now was never checked against the pin.
                    None => Some(format!(
                        "`{tool}` is not in its server's current tool list: it is called only \
                         on a definition the server serves and an admin accepted"
                    )),
                    Some(spec) if spec.availability == adas_tools::Availability::NotServed => {
                        Some(format!(
                            "`{tool}` is not in its server's current tool list ({}): it is \
                                 called only on a definition the server serves and an admin \
                                 accepted",
                            spec.unavailable_reason.as_deref().unwrap_or("not served")
                        ))
                    }
                    Some(spec)
                        if resolved.unaccepted.iter().any(|name| name == tool)
                            || spec.availability == adas_tools::Availability::Undeclared =>
                    {
                        Some(spec.unavailable_reason.clone().unwrap_or_else(|| {
                            format!("`{tool}` is not accepted on its server now")
                        }))
                    }
                    Some(_) => None,
                };
                (refused, spec, !resolved.stale_sources.is_empty())
            }
            // Fail closed: a server that will not list its tools does not get calls.
            Err(error) => (
                Some(format!(
                    "`{tool}` cannot be checked against its accepted definition: {error}"
                )),
                None,
                false,
            ),
        }
    }

    /// For a call with side effects: lists the tool's server now and checks
    /// the call against that list (a tool hidden or changed since the cached
    /// list is refused; a server that cannot list is no check). Returns the
    /// refusal, and the definition as it stands now.
    pub async fn recheck(
        &self,
        skill: &OperationalSkill,
        record: &JobRecord,
        tool: &str,
        spec: Option<ToolSpec>,
    ) -> (Option<String>, Option<ToolSpec>) {
        let Some(current) = spec.as_ref() else {
            return (None, spec);
        };
        let adas_tools::ToolSource::Mcp { uri } = &current.source else {
            return (None, spec);
        };
        match self.tools.recheck(uri, current).await {
            Ok(false) => (None, spec),
            Ok(true) => {
                let (refused, spec, _) = self.unaccepted(skill, record, tool).await;
                (refused, spec)
            }
            Err(error) => (
                Some(format!(
                    "`{tool}` cannot be checked against its server's current tool list ({error}): \
                     a call with side effects is made only on a fresh check"
                )),
                spec,
            ),
        }
    }
}

fn record_uri(skill: &OperationalSkill) -> Option<String> {
    skill
        .skill
        .mcp_server
        .clone()
        .filter(|uri| !uri.trim().is_empty())
}

/// The server a tool's definition places it on (`None`: a core tool).
fn server_of(spec: &adas_tools::ToolSpec) -> Option<String> {
    match &spec.source {
        adas_tools::ToolSource::Mcp { uri } => Some(uri.clone()),
        adas_tools::ToolSource::Core => None,
    }
}
