//! adas-dil: the `.dil` spec format and its deterministic verifier (spec 001).
//! The `dil` CLI (cli/dil) runs agents gate by gate and asks this crate whether
//! each gate holds; GateService can reuse the verifier.
//!
//! # The `.dil` format
//!
//! Line-oriented, `#` starts a comment. A validation is a header line
//! `ID: goal` at column 1 followed by indented predicate lines; the lines directly
//! under a header must all hold (AND). Gates are validations whose id starts with
//! `V_GATE_NN_` (two digits); they run in numeric order. Other validations are
//! listed in `verification.json` as not gated.
//!
//! ```text
//! V_GATE_01_README: Write a README.md that mentions the project name
//!   file_exists README.md
//!   file_contains README.md "adas"
//! V_GATE_02_BUILD: Make the build pass
//!   command_ok 60 cargo build
//!   any
//!     file_matches src/main.rs /fn main\(/
//!     json_equals package.json main "index.js"
//!   not file_exists build.log
//! ```
//!
//! Predicates (a fixed, deterministic vocabulary; paths are relative to the
//! working directory; arguments may be double-quoted):
//!
//! | predicate | holds when |
//! |---|---|
//! | `file_exists PATH` / `file_absent PATH` | the file exists / does not |
//! | `file_contains PATH TEXT` | the file contains the literal TEXT |
//! | `file_matches PATH /REGEX/` | the file matches the regular expression |
//! | `json_equals PATH KEY.PATH VALUE` | the JSON value at the dotted path equals VALUE (JSON literal, or a bare string) |
//! | `command_ok SECONDS COMMAND…` | `sh -c COMMAND` exits 0 within SECONDS (output saved as evidence) |
//! | `not` / `all` / `any` | the one indented predicate under it fails / all / any of those under it hold |
//!
//! Anything else is not a spec error: the gate ends UNKNOWN (verifier_limit) with
//! "predicate contains unsupported tokens: …". A malformed gate number or a
//! duplicate gate is a spec error with its line and column.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value as Json, json};

/// A spec error with its position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct SpecError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// A predicate of the vocabulary, or the tokens it could not understand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Predicate {
    /// `file_exists PATH`.
    FileExists {
        /// Path.
        path: String,
    },
    /// `file_absent PATH`.
    FileAbsent {
        /// Path.
        path: String,
    },
    /// `file_contains PATH TEXT`.
    FileContains {
        /// Path.
        path: String,
        /// Literal.
        text: String,
    },
    /// `file_matches PATH /REGEX/`.
    FileMatches {
        /// Path.
        path: String,
        /// Pattern.
        pattern: String,
    },
    /// `json_equals PATH KEY.PATH VALUE`.
    JsonEquals {
        /// File.
        path: String,
        /// Dotted path in the JSON.
        pointer: String,
        /// Expected value.
        value: Json,
    },
    /// `command_ok SECONDS COMMAND…`.
    CommandOk {
        /// Timeout.
        timeout_secs: u64,
        /// Shell command.
        command: String,
    },
    /// `not` block.
    Not {
        /// The negated predicate.
        inner: Box<Predicate>,
    },
    /// `all` block (and a validation's top level).
    All {
        /// Predicates.
        items: Vec<Predicate>,
    },
    /// `any` block.
    Any {
        /// Predicates.
        items: Vec<Predicate>,
    },
    /// Outside the vocabulary.
    Unsupported {
        /// The line as written.
        text: String,
    },
}

/// A validation: id, goal, predicate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Validation {
    /// Id, e.g. `V_GATE_01_README`.
    pub id: String,
    /// What the agent should achieve.
    pub goal: String,
    /// What must hold.
    pub predicate: Predicate,
    /// The gate number, for gates.
    pub gate: Option<u32>,
    /// Header line.
    pub line: usize,
}

/// A parsed spec.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Spec {
    /// Every validation in file order.
    pub validations: Vec<Validation>,
}

impl Spec {
    /// Gates in numeric order.
    pub fn gates(&self) -> Vec<&Validation> {
        let mut gates: Vec<&Validation> = self.validations.iter().filter(|validation| validation.gate.is_some()).collect();
        gates.sort_by_key(|validation| validation.gate);
        gates
    }
}

/// Splits a predicate line into words; double quotes group, `/…/` stays one word.
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '"' {
            chars.next();
            let mut closed = false;
            while let Some(c) = chars.next() {
                match c {
                    '\\' => word.extend(chars.next()),
                    '"' => {
                        closed = true;
                        break;
                    }
                    c => word.push(c),
                }
            }
            if !closed {
                return Err("unterminated quote".into());
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        words.push(word);
    }
    Ok(words)
}

fn leaf(text: &str) -> Predicate {
    let unsupported = || Predicate::Unsupported { text: text.to_owned() };
    let Ok(words) = words(text) else { return unsupported() };
    let (name, args) = match words.split_first() {
        Some((name, args)) => (name.as_str(), args),
        None => return unsupported(),
    };
    match (name, args) {
        ("file_exists", [path]) => Predicate::FileExists { path: path.clone() },
        ("file_absent", [path]) => Predicate::FileAbsent { path: path.clone() },
        ("file_contains", [path, literal]) => Predicate::FileContains { path: path.clone(), text: literal.clone() },
        ("file_matches", [path, pattern]) if pattern.len() >= 2 && pattern.starts_with('/') && pattern.ends_with('/') => {
            let pattern = pattern[1..pattern.len() - 1].to_owned();
            if regex_lite::Regex::new(&pattern).is_err() {
                return unsupported();
            }
            Predicate::FileMatches { path: path.clone(), pattern }
        }
        ("json_equals", [path, pointer, value]) => {
            let value = serde_json::from_str(value).unwrap_or_else(|_| Json::String(value.clone()));
            Predicate::JsonEquals { path: path.clone(), pointer: pointer.clone(), value }
        }
        ("command_ok", [seconds, command @ ..]) if !command.is_empty() => match seconds.parse::<u64>() {
            Ok(timeout_secs) if timeout_secs > 0 => {
                // The command is the rest of the line as written (quotes included).
                let rest = text.trim_start().trim_start_matches("command_ok").trim_start();
                let command = rest.trim_start_matches(seconds.as_str()).trim_start().to_owned();
                Predicate::CommandOk { timeout_secs, command }
            }
            _ => unsupported(),
        },
        _ => unsupported(),
    }
}

/// Parses a gate id: `V_GATE_NN_NAME` → Ok(Some(NN)); other ids → Ok(None).
fn gate_number(id: &str) -> Result<Option<u32>, String> {
    let Some(rest) = id.strip_prefix("V_GATE_") else { return Ok(None) };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = &rest[digits.len()..];
    if digits.len() != 2 || !after.starts_with('_') || after.len() < 2 {
        return Err(format!("gate id `{id}` must be V_GATE_NN_NAME with a two-digit number"));
    }
    Ok(Some(digits.parse().expect("two digits")))
}

/// Parses a spec.
pub fn parse(source: &str) -> Result<Spec, SpecError> {
    let mut validations: Vec<Validation> = Vec::new();
    // (indent, line, text) of the current validation's body.
    let mut body: Vec<(usize, usize, String)> = Vec::new();
    let mut header: Option<(String, String, Option<u32>, usize)> = None;
    let finish = |header: Option<(String, String, Option<u32>, usize)>, body: &mut Vec<(usize, usize, String)>, validations: &mut Vec<Validation>| -> Result<(), SpecError> {
        if let Some((id, goal, gate, line)) = header {
            let mut at = 0;
            let items = block(body, &mut at, None)?;
            body.clear();
            validations.push(Validation { id, goal, predicate: Predicate::All { items }, gate, line });
        }
        Ok(())
    };
    for (index, raw) in source.lines().enumerate() {
        let line = index + 1;
        let content = raw.split_once(" #").map_or(raw, |(before, _)| before).trim_end();
        if content.trim().is_empty() || content.trim_start().starts_with('#') {
            continue;
        }
        let indent = content.len() - content.trim_start().len();
        if indent == 0 {
            finish(header.take(), &mut body, &mut validations)?;
            let Some((id, goal)) = content.split_once(':') else {
                return Err(SpecError { line, column: 1, message: "a validation header is `ID: goal`".into() });
            };
            let id = id.trim().to_owned();
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(SpecError { line, column: 1, message: format!("`{id}` is not an id (letters, digits, `_`)") });
            }
            let gate = gate_number(&id).map_err(|message| SpecError { line, column: 1, message })?;
            if let Some(number) = gate
                && let Some(other) = validations.iter().find(|validation| validation.gate == Some(number))
            {
                return Err(SpecError { line, column: 8, message: format!("gate {number:02} is already defined on line {}", other.line) });
            }
            header = Some((id, goal.trim().to_owned(), gate, line));
        } else {
            if header.is_none() {
                return Err(SpecError { line, column: indent + 1, message: "a predicate must follow a validation header".into() });
            }
            body.push((indent, line, content.trim().to_owned()));
        }
    }
    finish(header.take(), &mut body, &mut validations)?;
    Ok(Spec { validations })
}

/// Parses the predicates of one block (lines at the same indentation).
fn block(lines: &[(usize, usize, String)], at: &mut usize, parent: Option<usize>) -> Result<Vec<Predicate>, SpecError> {
    let mut items = Vec::new();
    let Some(&(indent, ..)) = lines.get(*at) else { return Ok(items) };
    if parent.is_some_and(|parent| indent <= parent) {
        return Ok(items);
    }
    while let Some((line_indent, line, text)) = lines.get(*at).cloned() {
        if line_indent < indent {
            break;
        }
        if line_indent > indent {
            return Err(SpecError { line, column: line_indent + 1, message: "unexpected indentation".into() });
        }
        *at += 1;
        let predicate = match text.as_str() {
            "all" | "any" | "not" => {
                let children = block(lines, at, Some(indent))?;
                match text.as_str() {
                    "all" => Predicate::All { items: children },
                    "any" => Predicate::Any { items: children },
                    _ if children.len() == 1 => Predicate::Not { inner: Box::new(children.into_iter().next().expect("one child")) },
                    _ => Predicate::Unsupported { text: format!("not with {} predicates", children.len()) },
                }
            }
            other if other.starts_with("not ") => Predicate::Not { inner: Box::new(leaf(other.trim_start_matches("not ").trim())) },
            other => leaf(other),
        };
        items.push(predicate);
    }
    Ok(items)
}

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
    /// The predicate.
    pub predicate: String,
    /// `true`, `false`, `unsupported`, `transient`, `error`.
    pub result: String,
    /// What was seen.
    pub detail: Json,
}

/// Evaluates a predicate in `dir`, recording evidence; command outputs are saved
/// under `artifacts` with `label` in their names.
pub fn verify(predicate: &Predicate, dir: &Path, artifacts: &Path, label: &str, evidence: &mut Vec<Evidence>) -> Verdict {
    let mut record = |predicate: &Predicate, verdict: &Verdict, detail: Json| {
        let result = match verdict {
            Verdict::Pass => "true",
            Verdict::Fail => "false",
            Verdict::Unsupported(_) => "unsupported",
            Verdict::Transient(_) => "transient",
            Verdict::Internal(_) => "error",
        };
        evidence.push(Evidence { predicate: serde_json::to_string(predicate).unwrap_or_default(), result: result.into(), detail });
    };
    let path = |relative: &str| -> PathBuf { dir.join(relative) };
    let verdict_of = |holds: bool| if holds { Verdict::Pass } else { Verdict::Fail };
    match predicate {
        Predicate::FileExists { path: file } => {
            let verdict = verdict_of(path(file).exists());
            record(predicate, &verdict, json!({"path": file}));
            verdict
        }
        Predicate::FileAbsent { path: file } => {
            let verdict = verdict_of(!path(file).exists());
            record(predicate, &verdict, json!({"path": file}));
            verdict
        }
        Predicate::FileContains { path: file, text } => {
            let verdict = match std::fs::read_to_string(path(file)) {
                Ok(content) => verdict_of(content.contains(text.as_str())),
                Err(_) => Verdict::Fail,
            };
            record(predicate, &verdict, json!({"path": file}));
            verdict
        }
        Predicate::FileMatches { path: file, pattern } => {
            let verdict = match (std::fs::read_to_string(path(file)), regex_lite::Regex::new(pattern)) {
                (Ok(content), Ok(regex)) => verdict_of(regex.is_match(&content)),
                (Err(_), _) => Verdict::Fail,
                (_, Err(error)) => Verdict::Internal(error.to_string()),
            };
            record(predicate, &verdict, json!({"path": file, "pattern": pattern}));
            verdict
        }
        Predicate::JsonEquals { path: file, pointer, value } => {
            let actual = std::fs::read_to_string(path(file)).ok().and_then(|text| serde_json::from_str::<Json>(&text).ok()).and_then(|json| {
                pointer.split('.').filter(|part| !part.is_empty() && *part != "$").try_fold(json, |current, part| match current {
                    Json::Object(mut map) => map.remove(part),
                    Json::Array(mut items) => part.parse::<usize>().ok().filter(|index| *index < items.len()).map(|index| items.swap_remove(index)),
                    _ => None,
                })
            });
            let verdict = verdict_of(actual.as_ref() == Some(value));
            record(predicate, &verdict, json!({"path": file, "pointer": pointer, "actual": actual, "expected": value}));
            verdict
        }
        Predicate::CommandOk { timeout_secs, command } => {
            let (verdict, detail) = run_command(command, *timeout_secs, dir, artifacts, label);
            record(predicate, &verdict, detail);
            verdict
        }
        Predicate::Not { inner } => {
            let verdict = match verify(inner, dir, artifacts, label, evidence) {
                Verdict::Pass => Verdict::Fail,
                Verdict::Fail => Verdict::Pass,
                other => other,
            };
            record(predicate, &verdict, Json::Null);
            verdict
        }
        Predicate::All { items } => {
            // An unsupported predicate anywhere makes the whole gate unknowable.
            if let Some(text) = unsupported_tokens(predicate) {
                let verdict = Verdict::Unsupported(text);
                record(predicate, &verdict, Json::Null);
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
            record(predicate, &verdict, Json::Null);
            verdict
        }
    }
}

/// The first unsupported line under a predicate, if any.
pub fn unsupported_tokens(predicate: &Predicate) -> Option<String> {
    match predicate {
        Predicate::Unsupported { text } => Some(text.clone()),
        Predicate::Not { inner } => unsupported_tokens(inner),
        Predicate::All { items } | Predicate::Any { items } => items.iter().find_map(unsupported_tokens),
        _ => None,
    }
}

fn run_command(command: &str, timeout_secs: u64, dir: &Path, artifacts: &Path, label: &str) -> (Verdict, Json) {
    use std::os::unix::process::CommandExt;
    let stdout = artifacts.join(format!("{label}.command.stdout.log"));
    let stderr = artifacts.join(format!("{label}.command.stderr.log"));
    let files = (std::fs::File::create(&stdout), std::fs::File::create(&stderr));
    let (Ok(out), Ok(err)) = files else { return (Verdict::Internal("cannot create command logs".into()), Json::Null) };
    let child = Command::new("sh").arg("-c").arg(command).current_dir(dir).stdin(std::process::Stdio::null()).stdout(out).stderr(err).process_group(0).spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(error) => return (Verdict::Internal(format!("cannot run sh: {error}")), Json::Null),
    };
    let deadline = Instant::now() + Duration::from_secs(timeout_secs);
    let detail = |code: Option<i32>| json!({"command": command, "exit_code": code, "stdout": stdout.display().to_string(), "stderr": stderr.display().to_string()});
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                return match status.code() {
                    Some(0) => (Verdict::Pass, detail(Some(0))),
                    Some(code) => (Verdict::Fail, detail(Some(code))),
                    None => (Verdict::Transient(format!("command `{command}` was killed by a signal")), detail(None)),
                };
            }
            Ok(None) if Instant::now() >= deadline => {
                kill_group(child.id());
                let _ = child.wait();
                return (Verdict::Transient(format!("command `{command}` did not finish within {timeout_secs}s")), detail(None));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(error) => return (Verdict::Internal(error.to_string()), detail(None)),
        }
    }
}

/// Kills a whole process group (the agent and everything it started).
pub fn kill_group(pgid: u32) {
    let _ = Command::new("kill").args(["-KILL", "--", &format!("-{pgid}")]).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).status();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gates_in_numeric_order_with_nesting() {
        let spec = parse(
            "# demo\nV_GATE_02_B: second\n  file_exists b\nNOTE: not a gate\n  file_exists n\nV_GATE_01_A: first\n  any\n    file_exists x\n    not file_exists y\n  command_ok 5 echo \"hi there\"\n",
        )
        .unwrap();
        let gates: Vec<&str> = spec.gates().iter().map(|gate| gate.id.as_str()).collect();
        assert_eq!(gates, vec!["V_GATE_01_A", "V_GATE_02_B"]);
        let first = spec.gates()[0];
        let Predicate::All { items } = &first.predicate else { panic!() };
        assert!(matches!(&items[0], Predicate::Any { items } if items.len() == 2));
        assert_eq!(items[1], Predicate::CommandOk { timeout_secs: 5, command: "echo \"hi there\"".into() });
    }

    #[test]
    fn spec_errors_have_positions() {
        assert_eq!(parse("V_GATE_1_A: x\n").unwrap_err().line, 1);
        let duplicate = parse("V_GATE_01_A: x\n  file_exists a\nV_GATE_01_B: y\n").unwrap_err();
        assert_eq!((duplicate.line, duplicate.column), (3, 8));
        assert_eq!(parse("  file_exists a\n").unwrap_err().line, 1);
        assert_eq!(parse("V_GATE_01_A: x\n  file_exists a\n    file_exists b\n").unwrap_err().line, 3);
    }

    #[test]
    fn unsupported_tokens_are_not_spec_errors() {
        let spec = parse("V_GATE_01_A: x\n  the code is beautiful\n").unwrap();
        assert_eq!(unsupported_tokens(&spec.gates()[0].predicate).as_deref(), Some("the code is beautiful"));
    }
}
