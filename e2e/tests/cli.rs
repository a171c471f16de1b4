//! `adas skill …` as a user runs it: offline, with the documented exit codes and
//! `file:line:col: severity: message` diagnostics.

#![allow(
    clippy::too_many_lines,
    reason = "a test reads as one story; the length cap is for the product's code"
)]

use std::path::PathBuf;
use std::process::{Command, Output};

use adas_e2e::invariants::CheckedStore;
use adas_testkit::{SpawnedService, scratch_dir, workspace_binary};

fn adas(args: &[&str]) -> Output {
    Command::new(workspace_binary("adas"))
        .args(args)
        .output()
        .expect("run adas")
}

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .display()
        .to_string()
}

#[test]
fn validate_reports_positions_and_exit_codes() {
    let dir = scratch_dir("cli-validate");
    let broken = dir.join("broken.yaml");
    std::fs::write(
        &broken,
        "name: x\nproblem: {statement: s}\nintents: {supported: [{id: a}]}\ntools:\n  - name: t\n    inputs:\n      - name: a\n        type: strng\n",
    )
    .unwrap();
    let output = adas(&["skill", "validate", broken.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with(&format!(
            "{}:8:15: error: type `strng` is not one of",
            broken.display()
        )),
        "{stdout}"
    );

    // A fragment is not a skill; an unknown variable is an error at its position.
    let fragment = dir.join("fragment.yaml");
    std::fs::write(&fragment, "name: presets\nmcp_server: \"${NO_SUCH_URL}\"\n").unwrap();
    let output = adas(&["skill", "validate", fragment.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.lines().next().unwrap(),
        format!(
            "{}:2:14: error: unknown variable `${{NO_SUCH_URL}}`; known: ADAS_DEMO_MCP_URL",
            fragment.display()
        ),
        "{stdout}"
    );
    std::fs::write(
        &fragment,
        "name: presets\npolicy: {guardrails: {never: [x]}}\n",
    )
    .unwrap();
    let stdout =
        String::from_utf8_lossy(&adas(&["skill", "validate", fragment.to_str().unwrap()]).stdout)
            .into_owned();
    for required in ["problem.statement", "intents.supported", "tools"] {
        assert!(
            stdout.contains(&format!("`{required}` is required")),
            "{stdout}"
        );
    }

    let output = adas(&["skill", "validate", &repo("skill-templates/cs-tier-1.yaml")]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );

    let output = adas(&[
        "skill",
        "validate",
        dir.join("missing.yaml").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let output = adas(&["skill", "validate"]);
    assert_eq!(output.status.code(), Some(2), "usage errors exit 2");
}

/// `adas up` on free ports, private memory root, the shipped templates, a
/// private Redis whose jobs are checked against the invariants when the
/// suite (the service, then the store) is dropped.
fn suite(label: &str) -> ((SpawnedService, CheckedStore), String) {
    let root = scratch_dir(label);
    let store = CheckedStore::start(&root);
    let service = store.spawn_up(&root, &[], &[]);
    let server = service.endpoint();
    ((service, store), server)
}

/// `adas --server SERVER ARGS…`: its exit code, stdout and stderr.
fn at(server: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["--server", server];
    all.extend_from_slice(args);
    let output = adas(&all);
    let (stdout, stderr) = text(&output);
    (output.status.code(), stdout, stderr)
}

/// A key of tenant `default` created in the auth file `file` for `name`
/// with `role`.
fn key_in(file: &str, name: &str, role: &str) -> String {
    let output = adas(&[
        "auth",
        "key",
        "create",
        "--auth-file",
        file,
        "--name",
        name,
        "--tenant",
        "default",
        "--role",
        role,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output).1);
    text(&output).0.trim().to_owned()
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn skills_are_authored_from_the_cli() {
    let (_suite, server) = suite("cli-author");
    let dir = scratch_dir("cli-author-files");

    // A template copy, put under a new slag: `${ADAS_DEMO_MCP_URL}` is expanded
    // as at bootstrap, so its tools resolve. `--server` after the subcommand.
    let copy = dir.join("refunds-eu.yaml");
    std::fs::copy(repo("skill-templates/cs-tier-1.yaml"), &copy).unwrap();
    let output = adas(&["skill", "put", copy.to_str().unwrap(), "--server", &server]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("skills/refunds-eu stored (etag "),
        "{stdout}"
    );

    // `--server` before the subcommand.
    let output = adas(&["--server", &server, "skill", "tools", "refunds-eu"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let refund = stdout
        .lines()
        .find(|line| line.starts_with("process_refund\t"))
        .unwrap_or_else(|| panic!("process_refund is resolved: {stdout}"));
    assert!(
        refund.contains("\tmcp http://127.0.0.1:") && refund.contains("amount: number*"),
        "{refund}"
    );
    assert!(
        stdout
            .lines()
            .any(|line| line.starts_with("sys.") && line.contains("\tcore\t"))
    );

    // A document with errors: refused, each diagnostic as file:line:col, nothing stored.
    let broken = dir.join("broken.yaml");
    std::fs::write(
        &broken,
        "name: b\nproblem: {statement: s}\nintents: {supported: [{id: a}]}\nmcp_server: \"${NO_SUCH_VAR}\"\ntools:\n  - name: t\n    inputs:\n      - {name: a, type: strng}\n",
    )
    .unwrap();
    let output = adas(&[
        "skill",
        "put",
        broken.to_str().unwrap(),
        "--name",
        "broken-one",
        "--server",
        &server,
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    let shown = broken.display();
    assert!(
        stdout.contains(&format!(
            "{shown}:4:14: error: unknown variable `${{NO_SUCH_VAR}}`"
        )),
        "{stdout}"
    );
    let output = adas(&["skill", "get", "broken-one", "--server", &server]);
    assert_eq!(output.status.code(), Some(3), "never stored: not found");
    let (_, stderr) = text(&output);
    assert!(
        stderr.contains("NotFound")
            && stderr.contains("refunds-eu")
            && stderr.contains("SKILL_NOT_FOUND"),
        "the error names the known skills: {stderr}"
    );

    // -o json / yaml are the proto3 JSON mapping.
    let output = adas(&[
        "skill",
        "get",
        "refunds-eu",
        "-o",
        "json",
        "--server",
        &server,
    ]);
    let skill: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(skill["name"], "skills/refunds-eu");
    assert_eq!(
        skill["compiledPolicy"]["approvals"][0]["approver"],
        "supervisor"
    );
    let output = adas(&[
        "skill",
        "get",
        "refunds-eu",
        "-o",
        "yaml",
        "--server",
        &server,
    ]);
    let (stdout, _) = text(&output);
    assert!(stdout.contains("name: skills/refunds-eu"), "{stdout}");
    let output = adas(&["skill", "list", "--server", &server]);
    assert!(text(&output).0.contains("refunds-eu\tCS: Tier 1"));

    // Delete: gone, and a second delete says so.
    let output = adas(&["skill", "delete", "refunds-eu", "--server", &server]);
    assert_eq!(text(&output).0.trim(), "skills/refunds-eu deleted");
    let output = adas(&["skill", "delete", "refunds-eu", "--server", &server]);
    assert_eq!(output.status.code(), Some(3));

    // An unreachable server is exit 5 (unavailable), not a refusal.
    let output = adas(&[
        "skill",
        "get",
        "cs-tier-1",
        "--server",
        "http://127.0.0.1:1",
    ]);
    assert_eq!(output.status.code(), Some(5));
}

#[test]
fn jobs_print_as_json_yaml_and_text_and_pipes_close_quietly() {
    let (_suite, server) = suite("cli-jobs");
    let output = adas(&[
        "job",
        "start",
        "cs-tier-1",
        "I want a refund",
        "--server",
        &server,
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let name = stdout.trim().to_owned();
    assert!(name.starts_with("skills/cs-tier-1/jobs/"), "{name}");
    // The worker pauses it for the order number: wait for that, not for a time.
    let mut status = String::new();
    for _ in 0..1000 {
        let output = adas(&["job", "get", &name, "-o", "json", "--server", &server]);
        let job: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        status = job["status"].as_str().unwrap_or_default().to_owned();
        if status == "JOB_STATUS_PAUSED" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(status, "JOB_STATUS_PAUSED");

    let output = adas(&["job", "--server", &server, "get", &name, "-o", "json"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let job: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(job["name"], name.as_str());
    assert!(job["status"].as_str().unwrap().starts_with("JOB_STATUS_"));

    let output = adas(&["job", "get", &name, "--server", &server]);
    let (stdout, _) = text(&output);
    assert!(
        stdout.starts_with(&format!("name: {name}\nstatus: ")) && !stdout.contains("Job {"),
        "a summary, not a Debug dump: {stdout}"
    );

    let output = adas(&[
        "job",
        "list",
        "cs-tier-1",
        "-o",
        "yaml",
        "--server",
        &server,
    ]);
    let (stdout, _) = text(&output);
    assert!(stdout.contains(&format!("name: {name}")), "{stdout}");
    let output = adas(&[
        "job",
        "list",
        "cs-tier-1",
        "--status",
        "bogus",
        "--server",
        &server,
    ]);
    assert_ne!(output.status.code(), Some(0));

    // -o table: aligned columns under a header; colour only on a terminal.
    let output = adas(&[
        "job",
        "list",
        "cs-tier-1",
        "-o",
        "table",
        "--server",
        &server,
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let header: Vec<&str> = stdout.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header, ["JOB", "STATUS", "OUTCOME", "GOAL"], "{stdout}");
    let row = stdout.lines().find(|line| line.starts_with(&name)).unwrap();
    assert_eq!(
        row.find("paused"),
        stdout.lines().next().unwrap().find("STATUS"),
        "columns align: {stdout}"
    );
    assert!(
        !stdout.contains('\x1b') && !stderr.contains('\x1b'),
        "no colour into a pipe"
    );
    let output = adas(&["job", "get", &name, "-o", "table", "--server", &server]);
    let (stdout, _) = text(&output);
    assert!(stdout.starts_with("FIELD"), "{stdout}");
    assert!(stdout.contains("MISSING_REQUIRED_INPUT"), "{stdout}");
    // On a terminal (a pty from `script`), the header is bold and statuses coloured.
    let on_tty = |extra_env: &[(&str, &str)]| {
        let command = format!(
            "{} job list cs-tier-1 -o table --server {server}",
            workspace_binary("adas").display()
        );
        let mut script = Command::new("script");
        script
            .args(["-qec", &command, "/dev/null"])
            .env_remove("NO_COLOR");
        for (key, value) in extra_env {
            script.env(key, value);
        }
        String::from_utf8_lossy(&script.output().unwrap().stdout).into_owned()
    };
    let coloured = on_tty(&[("TERM", "xterm")]);
    assert!(coloured.contains("\x1b[1mJOB"), "{coloured:?}");
    assert!(coloured.contains("\x1b[33mpaused"), "{coloured:?}");
    assert!(!on_tty(&[("TERM", "xterm"), ("NO_COLOR", "1")]).contains('\x1b'));

    // Every command answers in the contract's JSON on request.
    let output = adas(&[
        "job",
        "start",
        "cs-tier-1",
        "where is ORD-1",
        "-o",
        "json",
        "--server",
        &server,
    ]);
    let started: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        started["name"]
            .as_str()
            .unwrap()
            .starts_with("skills/cs-tier-1/jobs/")
    );
    let output = adas(&[
        "job",
        "waiting",
        "cs-tier-1",
        "-o",
        "json",
        "--server",
        &server,
    ]);
    let waiting: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        waiting
            .as_array()
            .unwrap()
            .iter()
            .any(|job| job["name"] == name.as_str())
    );
    let output = adas(&[
        "job",
        "answer",
        &name,
        "order_id=ORD-1",
        "-o",
        "yaml",
        "--server",
        &server,
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains(&format!("name: {name}")), "{stdout}");

    // The reader goes away before anything is written: no panic, exit 0.
    let mut child = Command::new(workspace_binary("adas"))
        .args([
            "job",
            "list",
            "cs-tier-1",
            "-o",
            "json",
            "--server",
            &server,
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[path = "cli/more.rs"]
mod more;

#[path = "cli/guide.rs"]
mod guide;

#[path = "cli/exits.rs"]
mod exits;

#[path = "cli/anywhere.rs"]
mod anywhere;
