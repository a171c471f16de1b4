//! The deterministic verifier: evaluates predicates and records their evidence.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::spec::{Predicate, unsupported_tokens};

/// The verifier's answer for one gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Holds.
    Pass,
    /// Does not hold.
    Fail,
    /// Outside the vocabulary (verifier_limit).
    Unsupported(String),
    /// A command predicate timed out or was killed (transient).
    Transient(String),
    /// The verifier itself failed (internal).
    Internal(String),
}

/// One evaluated predicate, for verification.json.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    /// The predicate, as a spec line.
    pub predicate: String,
    /// `true`, `false`, `unsupported`, `transient`, `error`.
    pub result: String,
    /// What was seen.
    pub detail: Json,
}

/// Appends one evaluated predicate to the evidence.
fn record(evidence: &mut Vec<Evidence>, predicate: &Predicate, verdict: &Verdict, detail: Json) {
    let result = match verdict {
        Verdict::Pass => "true",
        Verdict::Fail => "false",
        Verdict::Unsupported(_) => "unsupported",
        Verdict::Transient(_) => "transient",
        Verdict::Internal(_) => "error",
    };
    evidence.push(Evidence {
        predicate: predicate.to_string(),
        result: result.into(),
        detail,
    });
}

/// Evaluates a predicate in `dir`, recording evidence; command outputs are saved
/// under `artifacts` with `label` in their names.
pub fn verify(
    predicate: &Predicate,
    dir: &Path,
    artifacts: &Path,
    label: &str,
    evidence: &mut Vec<Evidence>,
) -> Verdict {
    let path = |relative: &str| -> PathBuf { dir.join(relative) };
    let verdict_of = |holds: bool| if holds { Verdict::Pass } else { Verdict::Fail };
    match predicate {
        Predicate::FileExists { path: file } => {
            let verdict = verdict_of(path(file).exists());
            record(evidence, predicate, &verdict, json!({"path": file}));
            verdict
        }
        Predicate::FileAbsent { path: file } => {
            let verdict = verdict_of(!path(file).exists());
            record(evidence, predicate, &verdict, json!({"path": file}));
            verdict
        }
        Predicate::FileContains { path: file, text } => {
            let verdict = match std::fs::read_to_string(path(file)) {
                Ok(content) => verdict_of(content.contains(text.as_str())),
                Err(_) => Verdict::Fail,
            };
            record(evidence, predicate, &verdict, json!({"path": file}));
            verdict
        }
        Predicate::FileMatches {
            path: file,
            pattern,
        } => {
            let verdict = match (
                std::fs::read_to_string(path(file)),
                regex::Regex::new(pattern),
            ) {
                (Ok(content), Ok(regex)) => verdict_of(regex.is_match(&content)),
                (Err(_), _) => Verdict::Fail,
                (_, Err(error)) => Verdict::Internal(error.to_string()),
            };
            record(
                evidence,
                predicate,
                &verdict,
                json!({"path": file, "pattern": pattern}),
            );
            verdict
        }
        Predicate::JsonEquals {
            path: file,
            pointer,
            value,
        } => {
            let actual = std::fs::read_to_string(path(file))
                .ok()
                .and_then(|text| serde_json::from_str::<Json>(&text).ok())
                .and_then(|json| {
                    pointer
                        .split('.')
                        .filter(|part| !part.is_empty() && *part != "$")
                        .try_fold(json, |current, part| match current {
                            Json::Object(mut map) => map.remove(part),
                            Json::Array(mut items) => part
                                .parse::<usize>()
                                .ok()
                                .filter(|index| *index < items.len())
                                .map(|index| items.swap_remove(index)),
                            _ => None,
                        })
                });
            let verdict = verdict_of(actual.as_ref() == Some(value));
            record(
                evidence,
                predicate,
                &verdict,
                json!({"path": file, "pointer": pointer, "actual": actual, "expected": value}),
            );
            verdict
        }
        Predicate::CommandOk {
            timeout_secs,
            command,
        } => {
            let (verdict, detail) = run_command(command, *timeout_secs, dir, artifacts, label);
            record(evidence, predicate, &verdict, detail);
            verdict
        }
        Predicate::Not { inner } => {
            let verdict = match verify(inner, dir, artifacts, label, evidence) {
                Verdict::Pass => Verdict::Fail,
                Verdict::Fail => Verdict::Pass,
                other => other,
            };
            record(evidence, predicate, &verdict, Json::Null);
            verdict
        }
        Predicate::All { items } => {
            // An unsupported predicate anywhere makes the whole gate unknowable.
            if let Some(text) = unsupported_tokens(predicate) {
                let verdict = Verdict::Unsupported(text);
                record(evidence, predicate, &verdict, Json::Null);
                return verdict;
            }
            for item in items {
                let verdict = verify(item, dir, artifacts, label, evidence);
                if verdict != Verdict::Pass {
                    return verdict;
                }
            }
            Verdict::Pass
        }
        Predicate::Any { items } => {
            let mut last = Verdict::Fail;
            for item in items {
                match verify(item, dir, artifacts, label, evidence) {
                    Verdict::Pass => return Verdict::Pass,
                    other => last = other,
                }
            }
            last
        }
        Predicate::Unsupported { text } => {
            let verdict = Verdict::Unsupported(text.clone());
            record(evidence, predicate, &verdict, Json::Null);
            verdict
        }
    }
}

fn run_command(
    command: &str,
    timeout_secs: u64,
    dir: &Path,
    artifacts: &Path,
    label: &str,
) -> (Verdict, Json) {
    use std::os::unix::process::CommandExt;
    let stdout = artifacts.join(format!("{label}.command.stdout.log"));
    let stderr = artifacts.join(format!("{label}.command.stderr.log"));
    let files = (
        std::fs::File::create(&stdout),
        std::fs::File::create(&stderr),
    );
    let (Ok(out), Ok(err)) = files else {
        return (
            Verdict::Internal("cannot create command logs".into()),
            Json::Null,
        );
    };
    let child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(error) => {
            return (
                Verdict::Internal(format!("cannot run sh: {error}")),
                Json::Null,
            );
        }
    };
    let deadline = Instant::now() + Duration::from_secs(timeout_secs);
    let detail = |code: Option<i32>| json!({"command": command, "exit_code": code, "stdout": stdout.display().to_string(), "stderr": stderr.display().to_string()});
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                return match status.code() {
                    Some(0) => (Verdict::Pass, detail(Some(0))),
                    Some(code) => (Verdict::Fail, detail(Some(code))),
                    None => (
                        Verdict::Transient(format!("command `{command}` was killed by a signal")),
                        detail(None),
                    ),
                };
            }
            Ok(None) if Instant::now() >= deadline => {
                kill_group(child.id());
                let _ = child.wait();
                return (
                    Verdict::Transient(format!(
                        "command `{command}` did not finish within {timeout_secs}s"
                    )),
                    detail(None),
                );
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(error) => return (Verdict::Internal(error.to_string()), detail(None)),
        }
    }
}

/// Kills a whole process group (the agent and everything it started).
pub fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}
