//! A call's effects: running one gated call (a core tool in process, any
//! other on its MCP server, outside the worker's budget), keeping a large
//! output in the focus cache, reading it back, and checking the tool's
//! current definition against the one an admin accepted.

use std::sync::Arc;

use adas_jobs::focus::FocusError;
use adas_jobs::{JobError, JobRecord, Transition};
use adas_skill::OperationalSkill;
use adas_step::work::{Call, INLINE_OUTPUT_MAX_BYTES, Input};
use adas_tools::McpError;
use serde_json::{Map, Value as Json, json};
use tracing::warn;

use crate::claim::{step_in, step_out};
use crate::error::WorkError;
use crate::worker::Worker;

/// How many characters of a referenced output the reference shows.
const FOCUS_PREVIEW_CHARS: usize = 200;

impl Worker {
    /// Runs one gated call — a core tool in-process, any other on the skill's
    /// MCP server — and records its duration.
    pub(crate) async fn run_call(
        &self,
        skill: &OperationalSkill,
        (tool, spec): (&str, Option<&adas_tools::ToolSpec>),
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
        metrics::histogram!("adas_tool_call_seconds", "tool" => adas_jobs::metric_tool_label(tool), "result" => result)
            .record(started.elapsed());
        outcome
    }

    /// `output` as the job keeps it: itself when small, else a reference to
    /// its copy in the slag's focus cache (`focus_ref`, `bytes`, `preview`).
    /// A cache that cannot take it leaves the output inline: never lost.
    pub(crate) async fn keep_large(&self, slag: &str, output: &Json) -> Json {
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
    pub(crate) async fn full_output(&self, slag: &str, output: &Json) -> Result<Json, WorkError> {
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
    pub(crate) async fn unaccepted(
        &self,
        skill: &OperationalSkill,
        record: &JobRecord,
        tool: &str,
    ) -> (Option<String>, Option<adas_tools::ToolSpec>, bool) {
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
}

impl Worker {
    /// For a call with side effects: lists the tool's server now and checks
    /// the call against that list (a tool hidden or changed since the cached
    /// list is refused; a server that cannot list is no check). Returns the
    /// refusal, and the definition as it stands now.
    pub(crate) async fn recheck(
        &self,
        skill: &OperationalSkill,
        record: &JobRecord,
        tool: &str,
        spec: Option<adas_tools::ToolSpec>,
    ) -> (Option<String>, Option<adas_tools::ToolSpec>) {
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

    /// Makes one call the checks allowed. Its start (`start`, the step's
    /// write) is a compare-and-set: a call starts only if nobody wrote the
    /// job since this worker read it (a cancel stops it) and the skill's
    /// policy is still the version the gate spoke on. A read-only call on a
    /// policy the gate read for it changes nothing, so it need not wait for
    /// its start to be written: the write is sent first and runs beside the
    /// call (one round trip less a call); if the write fails — a cancel came
    /// first — the call's output is dropped with the step.
    pub(crate) async fn call_tool(
        &self,
        skill: &Arc<OperationalSkill>,
        (record, version): (&mut JobRecord, &mut u64),
        start: Transition,
        call: Box<Call>,
        spec: Option<adas_tools::ToolSpec>,
    ) -> Result<Input, WorkError> {
        let (tenant, job_id) = (record.tenant.clone(), record.job_id.clone());
        // The start holds only on the policy the gate's word stands on.
        let policy = call.word.as_ref().and_then(|word| word.policy.clone());
        let written = self.repo.save_on(*version, record, start, policy.as_ref());
        let running = self.run_call(
            skill,
            (&call.tool, spec.as_ref()),
            &call.args,
            (&call.key, &tenant, &job_id),
        );
        // A read beside its start only on a policy read for it: on a version
        // held here, the start checks first that it is still current (a
        // read a tightened policy denies never reaches its server).
        let beside = !call.side_effecting && policy.as_ref().is_none_or(|policy| policy.read);
        let outcome = if !beside {
            *version = written.await?;
            running.await
        } else {
            let (written, outcome) = tokio::join!(written, running);
            *version = written?;
            outcome
        };
        if outcome.is_err() {
            metrics::counter!("adas_tool_call_errors_total", "tool" => adas_jobs::metric_tool_label(&call.tool))
                .increment(1);
        }
        Ok(Input::Ended(call, outcome))
    }
}

fn record_uri(skill: &OperationalSkill) -> Option<String> {
    skill
        .skill
        .mcp_server
        .clone()
        .filter(|uri| !uri.trim().is_empty())
}
