//! `adas skill …` as a user runs it: offline, with the documented exit codes and
//! `file:line:col: severity: message` diagnostics.

use std::path::PathBuf;
use std::process::{Command, Output};

use adas_testkit::{scratch_dir, workspace_binary};

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

#[test]
fn get_bootstraps_and_list_shows_the_slag() {
    let root = scratch_dir("cli-get");
    let memory = root.join("memory");
    let templates = repo("skill-templates");
    let output = adas(&[
        "skill",
        "get",
        "cs-tier-1",
        "--memory-root",
        memory.to_str().unwrap(),
        "--templates-dir",
        &templates,
    ]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("name: skills/cs-tier-1")
            && stdout.contains("approval: process_refund when amount > 500 by supervisor"),
        "{stdout}"
    );
    assert!(memory.join("cs-tier-1/skill.yaml").exists());

    let output = adas(&[
        "skill",
        "list",
        "--memory-root",
        memory.to_str().unwrap(),
        "--templates-dir",
        &templates,
    ]);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        "cs-tier-1\tCS: Tier 1"
    );

    let output = adas(&[
        "skill",
        "get",
        "../etc",
        "--memory-root",
        memory.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!root.join("etc").exists());
}

#[test]
fn demo_runs_the_refund_conversation_on_the_embedded_suite() {
    let root = scratch_dir("cli-demo");
    let output = Command::new(workspace_binary("adas"))
        .args(["demo", "--memory-root", root.to_str().unwrap()])
        .env("ADAS_TEMPLATES_DIR", repo("skill-templates"))
        .output()
        .expect("run adas demo");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for expected in [
        "order_id (string): ORD-1",
        "amount (number): 700",
        "Approval required from supervisor",
        "- Status: refunded",
    ] {
        assert!(
            stdout.contains(expected),
            "missing `{expected}` in:\n{stdout}"
        );
    }
    // The finished job is archived under the memory root.
    let jobs = std::fs::read_dir(root.join("cs-tier-1/jobs"))
        .unwrap()
        .count();
    assert_eq!(jobs, 1);
}
