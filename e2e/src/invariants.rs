//! What ADAS promises, proved after a test from every job's event log (read
//! from the store) and the demo MCP server's own record of what it executed —
//! the Rust twin of `invariant_violations` in `python/adas_client.py`
//! (e2e/CHAOS.md). The rules are stated here independently of the gate:
//! 1. every executed call has a `tool_started` event with its idempotency key,
//!    tool and exact arguments, carrying a gate ALLOW whose digest is that of
//!    those arguments;
//! 2. a call the shipped templates' policies put behind approval was allowed by
//!    an approval of that exact call, decided by someone holding the role;
//! 3. no side-effecting call is executed twice (one key, one execution);
//! 4. no job is both paused and running: between `paused` and `resumed` no
//!    worker step is recorded;
//! 5. no call of a tool the scheduling export guards runs without the grants
//!    its access rules require, each one issued (`grant_issued`) by the job
//!    the call names, with the value digest it names;
//! 6. no injected argument differs from its grant: `organizer_id` of a
//!    calendar write is the value of the `sched.user_id` grant relied on.
//!
//! [`CheckedStore`] runs the check when a test's suite goes away.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use adas_proto::storage::{EventKind, JobEvent};
use adas_testkit::RedisServer;
use prost::Message;
use serde_json::{Map, Value as Json};

/// Demo tools with side effects: executed at most once per idempotency key.
pub const SIDE_EFFECTING_DEMO_TOOLS: [&str; 3] = [
    "process_refund",
    "delete_customer_record",
    "restart_service",
];

/// The grants the scheduling export's access rules require of `tool`, and
/// the argument one of them injects (stated here, not read from the skill).
fn required_grants(tool: &str) -> Option<(&'static [&'static str], Option<&'static str>)> {
    match tool {
        "calendar.availability.check" | "calendar.event.list" => Some((&["sched.user_id"], None)),
        "calendar.event.create" | "calendar.event.update" | "calendar.event.delete" => {
            Some((&["sched.user_id"], Some("organizer_id")))
        }
        _ => None,
    }
}

/// The audit secret every suite the checker watches is started with
/// (`--audit-secret`): grant digests are HMAC-SHA256 under it.
pub const AUDIT_SECRET: &str = "e2e-audit-secret-not-for-production";

fn digest_of(value: &Json) -> String {
    use hmac::{KeyInit, Mac};
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(AUDIT_SECRET.as_bytes())
        .expect("any key length");
    mac.update(value.to_string().as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// Whether the shipped templates demand an approval of `tool` with `arguments`,
/// and by which role.
fn required_approval(tool: &str, arguments: &Map<String, Json>) -> Option<&'static str> {
    match tool {
        "process_refund"
            if arguments
                .get("amount")
                .and_then(|amount| amount.as_f64().or_else(|| amount.as_str()?.parse().ok()))
                .is_some_and(|amount| amount > 500.0) =>
        {
            Some("supervisor")
        }
        "restart_service"
            if arguments.get("environment").and_then(Json::as_str) == Some("production") =>
        {
            Some("on-call")
        }
        _ => None,
    }
}

pub use adas_dia::call_digest;

/// One job's events, in order.
pub type EventLogs = BTreeMap<String, Vec<JobEvent>>;

/// Every job's events in the Redis at `url` (every tenant), by log key: a
/// parked job's from its key (its log list is gone while it waits).
pub fn event_logs(url: &str) -> EventLogs {
    let mut connection = redis::Client::open(url)
        .and_then(|client| client.get_connection())
        .expect("connect to the test's redis");
    let decode = |entries: Vec<Vec<u8>>| -> Vec<JobEvent> {
        entries
            .iter()
            .map(|data| JobEvent::decode(data.as_slice()).expect("a stored JobEvent"))
            .collect()
    };
    let mut logs = EventLogs::new();
    for key in scan(&mut connection, "adas:*:log:*") {
        let entries: Vec<Vec<u8>> = redis::cmd("LRANGE")
            .arg(&key)
            .arg(0)
            .arg(-1)
            .query(&mut connection)
            .expect("LRANGE");
        logs.insert(key, decode(entries));
    }
    for key in scan(&mut connection, "adas:*:job:*") {
        // A job still stored as a hash is never parked.
        let Ok(Some(value)) = redis::cmd("GET")
            .arg(&key)
            .query::<Option<Vec<u8>>>(&mut connection)
        else {
            continue;
        };
        if let Some(events) = adas_state::parked_events(value).expect("a readable job key") {
            logs.insert(key.replacen(":job:", ":log:", 1), decode(events));
        }
    }
    logs
}

/// The keys matching `pattern`.
fn scan(connection: &mut redis::Connection, pattern: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut cursor = 0u64;
    loop {
        let (next, batch): (u64, Vec<String>) = redis::cmd("SCAN")
            .arg(cursor)
            .arg("MATCH")
            .arg(pattern)
            .arg("COUNT")
            .arg(1000)
            .query(connection)
            .expect("SCAN");
        keys.extend(batch);
        if next == 0 {
            return keys;
        }
        cursor = next;
    }
}

/// The demo server's executions log: `{"key", "tool", "arguments"}` per line.
pub fn executions(log: &Path) -> Vec<Json> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("an executions log line"))
        .collect()
}

fn is_worker_step(kind: EventKind) -> bool {
    matches!(
        kind,
        EventKind::Running
            | EventKind::Reclaimed
            | EventKind::Planned
            | EventKind::Resolved
            | EventKind::ToolStarted
            | EventKind::ToolFinished
            | EventKind::ToolDenied
            | EventKind::Finalized
    )
}

fn text<'a>(data: &'a Json, field: &str) -> &'a str {
    data.get(field).and_then(Json::as_str).unwrap_or_default()
}

/// Every grant issued in `logs`, by (issuing job id, key): its value digest.
fn grants_issued(logs: &EventLogs) -> HashMap<(String, String), String> {
    let mut issued: HashMap<(String, String), String> = HashMap::new();
    for (job, events) in logs {
        let job_id = job.rsplit(':').next().unwrap_or_default();
        for event in events
            .iter()
            .filter(|event| event.kind() == EventKind::GrantIssued)
        {
            let data: Json = serde_json::from_slice(&event.data_json).unwrap_or(Json::Null);
            issued.insert(
                (job_id.to_owned(), text(&data, "key").to_owned()),
                text(&data, "value_sha256").to_owned(),
            );
        }
    }
    issued
}

/// A started call that needs grants: each must be one issued to it (traced
/// to its issuing job by the value's digest), and an injected argument must
/// be the grant's value.
fn grant_problems(
    problems: &mut Vec<String>,
    (job, tool): (&str, &str),
    (data, arguments): (&Json, &Map<String, Json>),
    issued: &HashMap<(String, String), String>,
) {
    let Some((keys, injected)) = required_grants(tool) else {
        return;
    };
    let relied = data.get("grants").cloned().unwrap_or(Json::Null);
    for key in keys {
        let grant = relied.get(*key).cloned().unwrap_or(Json::Null);
        let digest = text(&grant, "value_sha256");
        let traced = issued
            .get(&(text(&grant, "issuer_job").to_owned(), (*key).to_owned()))
            .is_some_and(|issued| !digest.is_empty() && issued == digest);
        if !traced {
            problems.push(format!(
                "{job}: {tool} started without the grant {key} issued to it"
            ));
        }
        if let Some(argument) = injected
            && arguments
                .get(argument)
                .is_none_or(|value| digest_of(value) != digest)
        {
            problems.push(format!(
                "{job}: {tool}'s {argument} is not the value of its grant {key}"
            ));
        }
    }
}

/// The broken promises in `logs` and `executions` (empty: none). Jobs whose
/// log key ends with one of `own_policy` ran under a policy the test wrote
/// itself: the shipped templates' approval rules are not theirs.
pub fn violations(logs: &EventLogs, executions: &[Json], own_policy: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut started: HashMap<String, (String, Map<String, Json>)> = HashMap::new();
    let issued = grants_issued(logs);
    for (job, events) in logs {
        let shipped_policy = !own_policy
            .iter()
            .any(|id| job.ends_with(&format!(":log:{id}")));
        let mut paused = false;
        let mut approvals: HashMap<String, (String, String)> = HashMap::new();
        for event in events {
            let kind = event.kind();
            let data: Json = if event.data_json.is_empty() {
                Json::Null
            } else {
                serde_json::from_slice(&event.data_json).unwrap_or(Json::Null)
            };
            match kind {
                EventKind::Paused => paused = true,
                EventKind::Resumed => {
                    paused = false;
                    let digest = text(&data, "call_digest");
                    if !digest.is_empty() {
                        approvals.insert(
                            digest.to_owned(),
                            (text(&data, "approver").into(), text(&data, "role").into()),
                        );
                    }
                }
                kind if paused && is_worker_step(kind) => {
                    problems.push(format!("{job}: {} while paused", kind.as_str_name()));
                }
                _ => {}
            }
            if kind != EventKind::ToolStarted {
                continue;
            }
            let tool = text(&data, "tool").to_owned();
            let arguments = data
                .get("arguments")
                .and_then(Json::as_object)
                .cloned()
                .unwrap_or_default();
            let key = text(&data, "idempotency_key").to_owned();
            let gate = data.get("gate").cloned().unwrap_or(Json::Null);
            let digest = call_digest(&tool, &arguments);
            if text(&gate, "verdict") != "allow" {
                problems.push(format!("{job}: {tool} started without a gate ALLOW"));
            } else if text(&gate, "call_digest") != digest {
                problems.push(format!(
                    "{job}: {tool} started with arguments other than the gate allowed"
                ));
            }
            grant_problems(&mut problems, (job, &tool), (&data, &arguments), &issued);
            if let Some(role) = required_approval(&tool, &arguments).filter(|_| shipped_policy) {
                let granted = approvals.get(&digest);
                let approved = text(&gate, "rule_kind") == "GATE_RULE_KIND_APPROVAL_GRANTED"
                    && granted
                        .is_some_and(|(who, granted_role)| !who.is_empty() && granted_role == role);
                if !approved {
                    problems.push(format!(
                        "{job}: {tool} {} ran without the approval of a {role}",
                        Json::Object(arguments.clone())
                    ));
                }
            }
            if started
                .get(&key)
                .is_some_and(|call| call != &(tool.clone(), arguments.clone()))
            {
                problems.push(format!(
                    "{job}: idempotency key {key} names two different calls"
                ));
            }
            started.insert(key, (tool, arguments));
        }
    }
    let mut seen = std::collections::HashSet::new();
    for execution in executions {
        let (tool, key) = (text(execution, "tool"), text(execution, "key"));
        let arguments = execution
            .get("arguments")
            .and_then(Json::as_object)
            .cloned()
            .unwrap_or_default();
        if SIDE_EFFECTING_DEMO_TOOLS.contains(&tool) {
            if key.is_empty() {
                problems.push(format!("{tool} executed without an idempotency key"));
            } else if seen.contains(key) {
                problems.push(format!("{tool} executed twice under key {key}"));
            }
        }
        seen.insert(key.to_owned());
        if !key.is_empty() && started.get(key) != Some(&(tool.to_owned(), arguments.clone())) {
            problems.push(format!(
                "{tool} {} executed under key {key} without a matching tool_started",
                Json::Object(arguments)
            ));
        }
    }
    problems
}

/// A private Redis for a suite and a log of the demo server's executions;
/// when dropped (and the test has not already failed) it proves the
/// invariants over everything the suite did, and fails the test otherwise.
#[derive(Debug)]
pub struct CheckedStore {
    redis: RedisServer,
    executions_log: PathBuf,
    audit_secret: PathBuf,
    own_policy: std::sync::Mutex<Vec<String>>,
}

impl CheckedStore {
    /// A fresh store; `dir` holds the executions log.
    pub fn start(dir: &Path) -> Self {
        std::fs::create_dir_all(dir).expect("the suite's scratch dir");
        let audit_secret = dir.join("audit-secret");
        std::fs::write(&audit_secret, AUDIT_SECRET).expect("the audit secret");
        Self {
            redis: RedisServer::start(),
            executions_log: dir.join("executions.jsonl"),
            audit_secret,
            own_policy: std::sync::Mutex::default(),
        }
    }

    /// The arguments that put `adas up` on this store, with the demo server
    /// logging its executions (the private Redis keeps nothing on disk: the
    /// durability check is relaxed for it).
    pub fn up_args(&self) -> Vec<String> {
        vec![
            "--redis-url".into(),
            self.redis.url(),
            "--durability".into(),
            "relaxed".into(),
            "--demo-mcp-executions-log".into(),
            self.executions_log.display().to_string(),
            "--audit-secret".into(),
            format!("file:{}", self.audit_secret.display()),
        ]
    }

    /// `adas up` on this store, with its memory root under `root`, the
    /// repository's templates, the demo MCP server on a free port, then
    /// `extra` flags and `env`.
    pub fn spawn_up(
        &self,
        root: &Path,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> adas_testkit::SpawnedService {
        self.spawn_up_logged(root, extra, env, None)
    }

    /// [`Self::spawn_up`] with the process' log written to `log`.
    pub fn spawn_up_logged(
        &self,
        root: &Path,
        extra: &[&str],
        env: &[(&str, &str)],
        log: Option<&Path>,
    ) -> adas_testkit::SpawnedService {
        let memory = root.join("memory");
        let templates = adas_testkit::templates_arg();
        let mut args = vec![
            "up",
            "--memory-root",
            memory.to_str().expect("utf-8 path"),
            "--templates-dir",
            &templates,
            "--demo-mcp-listen",
            "127.0.0.1:0",
        ];
        args.extend_from_slice(extra);
        let store_args = self.up_args();
        args.extend(store_args.iter().map(String::as_str));
        adas_testkit::SpawnedService::spawn_logged(
            &adas_testkit::workspace_binary("adas"),
            &args,
            env,
            log,
        )
    }

    /// The private Redis' URL.
    pub fn redis_url(&self) -> String {
        self.redis.url()
    }

    /// Where the demo server (`--executions-log`) logs what it executes.
    pub fn executions_log(&self) -> &Path {
        &self.executions_log
    }

    /// Says that job `name` (`skills/<slag>/jobs/<id>`) runs under an approval
    /// policy the test wrote, not the shipped templates' one.
    pub fn runs_under_its_own_policy(&self, name: &str) {
        let id = name.rsplit('/').next().unwrap_or(name).to_owned();
        self.own_policy
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(id);
    }

    /// The broken promises so far.
    pub fn violations(&self) -> Vec<String> {
        let own_policy = self
            .own_policy
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        violations(
            &event_logs(&self.redis.url()),
            &executions(&self.executions_log),
            &own_policy,
        )
    }
}

impl Drop for CheckedStore {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let problems = self.violations();
        assert!(
            problems.is_empty(),
            "invariants broken:\n{}",
            problems.join("\n")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(kind: EventKind, data: Json) -> JobEvent {
        JobEvent {
            kind: kind as i32,
            data_json: serde_json::to_vec(&data).unwrap(),
            ..JobEvent::default()
        }
    }

    fn started(tool: &str, arguments: Json, key: &str, gate: Json) -> JobEvent {
        event(
            EventKind::ToolStarted,
            json!({"tool": tool, "arguments": arguments, "idempotency_key": key, "gate": gate}),
        )
    }

    fn allow(tool: &str, arguments: &Json) -> Json {
        json!({"verdict": "allow", "rule_kind": "GATE_RULE_KIND_ALLOWED",
               "call_digest": call_digest(tool, arguments.as_object().unwrap())})
    }

    #[test]
    fn a_clean_run_has_no_violations_and_each_broken_promise_is_named() {
        let small = json!({"order_id": "ORD-1", "amount": 40});
        let logs: EventLogs = [(
            "job-1".to_owned(),
            vec![started(
                "process_refund",
                small.clone(),
                "k1",
                allow("process_refund", &small),
            )],
        )]
        .into();
        let executions = vec![json!({"tool": "process_refund", "key": "k1", "arguments": small})];
        assert_eq!(violations(&logs, &executions, &[]), Vec::<String>::new());

        // Executed twice under one key.
        let twice = [executions.clone(), executions.clone()].concat();
        assert!(violations(&logs, &twice, &[])[0].contains("executed twice"));
        // Executed with other arguments than the gate saw.
        let other = vec![json!({"tool": "process_refund", "key": "k1",
                                "arguments": {"order_id": "ORD-1", "amount": 4000}})];
        assert!(violations(&logs, &other, &[])[0].contains("without a matching tool_started"));
        // Started with arguments the gate did not allow.
        let big = json!({"order_id": "ORD-1", "amount": 900});
        let forged: EventLogs = [(
            "job-2".to_owned(),
            vec![started(
                "process_refund",
                big.clone(),
                "k2",
                allow("process_refund", &small),
            )],
        )]
        .into();
        let found = violations(&forged, &[], &[]);
        assert!(
            found[0].contains("other than the gate allowed"),
            "{found:?}"
        );
        // Over the threshold without a supervisor's approval.
        let unapproved: EventLogs = [(
            "adas:{t:q00}:cs:log:job-3".to_owned(),
            vec![started(
                "process_refund",
                big.clone(),
                "k3",
                allow("process_refund", &big),
            )],
        )]
        .into();
        assert!(violations(&unapproved, &[], &[])[0].contains("approval of a supervisor"));
        // …unless the test wrote that job's policy itself.
        assert!(violations(&unapproved, &[], &["job-3".to_owned()]).is_empty());
        // A worker step while paused.
        let overlapping: EventLogs = [(
            "job-4".to_owned(),
            vec![
                event(EventKind::Paused, Json::Null),
                event(EventKind::Running, Json::Null),
            ],
        )]
        .into();
        assert!(violations(&overlapping, &[], &[])[0].contains("while paused"));
    }

    #[test]
    fn a_guarded_call_needs_its_issued_grant_and_the_grants_own_value() {
        let booked = |organizer: &str, relied: Json| {
            let arguments = json!({"title": "Sync", "organizer_id": organizer});
            let mut started = started(
                "calendar.event.create",
                arguments.clone(),
                "k9",
                allow("calendar.event.create", &arguments),
            );
            let mut data: Json = serde_json::from_slice(&started.data_json).unwrap();
            data["grants"] = relied;
            started.data_json = serde_json::to_vec(&data).unwrap();
            started
        };
        let alice = digest_of(&json!("u-alice"));
        let gateway = (
            "adas:{t:q00}:identity-gateway:log:j-gate".to_owned(),
            vec![event(
                EventKind::GrantIssued,
                json!({"key": "sched.user_id", "value_sha256": alice}),
            )],
        );
        let relied = json!({"sched.user_id": {"issuer_job": "j-gate", "value_sha256": alice}});
        let logs = |start: JobEvent| -> EventLogs {
            [
                gateway.clone(),
                (
                    "adas:{t:q00}:scheduling-agent:log:j-book".to_owned(),
                    vec![start],
                ),
            ]
            .into()
        };
        assert_eq!(
            violations(&logs(booked("u-alice", relied.clone())), &[], &[]),
            Vec::<String>::new()
        );
        // Another organizer than the grant's.
        let found = violations(&logs(booked("u-bob", relied)), &[], &[]);
        assert!(
            found[0].contains("is not the value of its grant"),
            "{found:?}"
        );
        // No grant relied on, or one nobody issued.
        let found = violations(&logs(booked("u-alice", json!({}))), &[], &[]);
        assert!(
            found[0].contains("without the grant sched.user_id"),
            "{found:?}"
        );
        let forged = json!({"sched.user_id": {"issuer_job": "j-none", "value_sha256": alice}});
        let found = violations(&logs(booked("u-alice", forged)), &[], &[]);
        assert!(
            found[0].contains("without the grant sched.user_id"),
            "{found:?}"
        );
    }

    #[test]
    fn the_digest_is_the_gates() {
        // Key order does not matter; values do.
        let a = json!({"b": 1, "a": {"y": 2, "x": [3]}});
        let b = json!({"a": {"x": [3], "y": 2}, "b": 1});
        assert_eq!(
            call_digest("t", a.as_object().unwrap()),
            call_digest("t", b.as_object().unwrap())
        );
        assert_ne!(
            call_digest("t", a.as_object().unwrap()),
            call_digest("u", a.as_object().unwrap())
        );
    }
}
