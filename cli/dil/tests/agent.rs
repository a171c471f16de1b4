//! `dil agent` end to end: the real binary, small shell agents, a fresh working
//! directory per scenario. Each scenario pins its terminal output against a
//! golden file (durations, pids and paths masked; `UPDATE_GOLDEN=1` rewrites
//! them) and checks that the run left every artifact of the contract.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value as Json;

struct Run {
    dir: PathBuf,
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn receipt(&self) -> Json {
        read_json(&self.run_dir().join("run_receipt.json"))
    }

    fn verification(&self) -> Json {
        read_json(&self.run_dir().join("verification.json"))
    }

    fn run_dir(&self) -> PathBuf {
        self.dir.join(".dil/runs/test")
    }

    fn lines(&self, containing: &str) -> usize {
        self.stdout
            .lines()
            .filter(|line| line.contains(containing))
            .count()
    }
}

fn read_json(path: &Path) -> Json {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dil-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn command(dir: &Path, spec: &str, options: &[&str], agent: &str) -> Command {
    std::fs::write(dir.join("spec.dil"), spec).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_dil"));
    command
        .current_dir(dir)
        .args(["agent", "spec.dil", "--run-id", "test"])
        .args(options)
        .args(["--", "sh", "-c", agent])
        .stdin(Stdio::null());
    command
}

fn finish(dir: PathBuf, output: Output) -> Run {
    Run {
        dir,
        code: output.status.code().expect("dil exits, never killed"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn dil(name: &str, spec: &str, options: &[&str], agent: &str) -> Run {
    let dir = workdir(name);
    let output = command(&dir, spec, options, agent).output().unwrap();
    finish(dir, output)
}

/// Masks what changes from run to run: durations, pids, the working directory.
fn masked(run: &Run) -> String {
    let duration = regex::Regex::new(r"\(\d+\.\ds\)").unwrap();
    let pid = regex::Regex::new(r"pid=\d+").unwrap();
    let text = run
        .stdout
        .replace(&run.dir.display().to_string(), "<WORKDIR>");
    let text = duration.replace_all(&text, "(N.Ns)");
    pid.replace_all(&text, "pid=PID").into_owned()
}

fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error} (UPDATE_GOLDEN=1 writes it)", path.display()));
    assert_eq!(
        actual,
        expected,
        "terminal output of `{name}` differs from {}",
        path.display()
    );
}

/// The contract's artifacts, always: the fixed files, and both logs of every
/// attempt the receipt lists (of the `gate00.pass0` pair when no agent ran).
fn assert_artifacts(run: &Run) {
    let present: BTreeSet<String> = std::fs::read_dir(run.run_dir())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    let mut wanted: BTreeSet<String> = [
        "agent.started",
        "agent.exit_code",
        "agent.finished",
        "run_receipt.json",
        "verification.json",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let receipt = run.receipt();
    let mut attempts = 0;
    for gate in receipt["gates"].as_array().unwrap() {
        for attempt in gate["attempts"].as_array().unwrap() {
            attempts += 1;
            for stream in ["stdout", "stderr"] {
                wanted.insert(format!(
                    "agent.gate{:02}.pass{}.{stream}.log",
                    gate["number"].as_u64().unwrap(),
                    attempt["attempt"]
                ));
            }
        }
    }
    if attempts == 0 {
        wanted.insert("agent.gate00.pass0.stdout.log".into());
        wanted.insert("agent.gate00.pass0.stderr.log".into());
    }
    let missing: Vec<&String> = wanted.difference(&present).collect();
    assert!(
        missing.is_empty(),
        "missing artifacts {missing:?}; present {present:?}"
    );
    assert_eq!(receipt["schema"], "dil.run_receipt/v1");
    assert_eq!(receipt["exit_code"].as_i64(), Some(i64::from(run.code)));
}

const TWO_GATES: &str = "\
# two gates, written out of order: they run by number
V_GATE_02_SECOND: Create gate02 once gate01 exists
  file_exists gate02
  command_ok 5 test -f gate01
NOTE_ONLY: not a gate, never run
  file_exists nothing
V_GATE_01_FIRST: Create gate01
  file_contains gate01 \"made by 01\"
";

#[test]
fn all_gates_pass_exit_0_with_receipts() {
    let run = dil(
        "pass",
        TWO_GATES,
        &[],
        "echo \"made by $DIL_GATE\" > \"gate$DIL_GATE\"",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    golden("all_pass", &masked(&run));
    assert_artifacts(&run);
    let receipt = run.receipt();
    assert_eq!(receipt["final_state"], "COMPLETED");
    let states: Vec<&str> = receipt["gates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|gate| gate["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["PASSED", "PASSED"]);
    assert_eq!(receipt["gates"][0]["id"], "V_GATE_01_FIRST");
    assert_eq!(receipt["spec"]["sha256"].as_str().unwrap().len(), 64);
    // The agent got its gate's goal; the command predicate's output was kept.
    let verification = run.verification();
    let first = verification["validations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "V_GATE_01_FIRST")
        .unwrap();
    assert_eq!(first["checks"][0]["result"], "true");
    let note = verification["validations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "NOTE_ONLY")
        .unwrap();
    assert_eq!(
        (
            note["gate"].clone(),
            note["checks"].as_array().unwrap().len()
        ),
        (Json::Null, 0)
    );
    assert!(
        run.run_dir()
            .join("verify.gate02.pass1.command.stdout.log")
            .exists()
    );
}

#[test]
fn a_false_predicate_fails_at_once_and_later_gates_do_not_run() {
    let run = dil("fail", TWO_GATES, &[], "echo wrong > gate01");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    golden("predicate_false", &masked(&run));
    assert_artifacts(&run);
    let receipt = run.receipt();
    assert_eq!(receipt["final_state"], "FAILED");
    assert_eq!(
        receipt["gates"][0]["attempts"].as_array().unwrap().len(),
        1,
        "FAILED is never retried"
    );
    assert_eq!(receipt["gates"][1]["state"], "NOT_RUN");
    assert!(!run.run_dir().join("agent.gate02.pass1.stdout.log").exists());
    assert_eq!(run.lines("retrying"), 0);
}

const ONE_GATE: &str = "V_GATE_01_OK: Create ok\n  file_exists ok\n";

#[test]
fn an_agent_that_crashes_twice_passes_on_attempt_3() {
    let run = dil(
        "crash-twice",
        ONE_GATE,
        &[],
        "echo \"attempt $DIL_ATTEMPT\"; [ \"$DIL_ATTEMPT\" -ge 3 ] || exit 7; touch ok",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    golden("crash_twice", &masked(&run));
    assert_artifacts(&run);
    assert_eq!(run.lines("retrying gate 01"), 2);
    let attempts = &run.receipt()["gates"][0]["attempts"];
    assert_eq!(attempts.as_array().unwrap().len(), 3);
    assert_eq!(attempts[0]["exit_code"], 7);
    assert_eq!(attempts[0]["class"], "unknown_agent_crash");
    assert_eq!(attempts[2]["outcome"], "passed");
    let log = std::fs::read_to_string(run.run_dir().join("agent.gate01.pass2.stdout.log")).unwrap();
    assert_eq!(log, "attempt 2\n");
    assert_eq!(
        std::fs::read_to_string(run.run_dir().join("agent.exit_code")).unwrap(),
        "0\n"
    );
}

#[test]
fn an_agent_that_always_crashes_ends_unknown_after_max_retries() {
    let run = dil("crash-always", ONE_GATE, &[], "kill -9 $$");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    golden("crash_always", &masked(&run));
    assert_artifacts(&run);
    let receipt = run.receipt();
    assert_eq!(receipt["final_state"], "UNKNOWN");
    assert_eq!(receipt["gates"][0]["class"], "unknown_agent_crash");
    assert_eq!(receipt["gates"][0]["attempts"].as_array().unwrap().len(), 3);
    assert_eq!(receipt["gates"][0]["attempts"][0]["signal"], 9);
    assert_eq!(
        std::fs::read_to_string(run.run_dir().join("agent.exit_code")).unwrap(),
        "signal:9\n"
    );
}

#[test]
fn an_unsupported_predicate_is_unknown_verifier_limit_without_retry() {
    let spec =
        "V_GATE_01_STYLE: Make the code beautiful\n  file_exists ok\n  the code is beautiful\n";
    let run = dil("unsupported", spec, &[], "touch ok");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    golden("unsupported", &masked(&run));
    assert_artifacts(&run);
    assert!(run.stdout.contains("gate 01: UNKNOWN (verifier_limit)\n"));
    assert!(
        run.stdout
            .contains("reason: predicate contains unsupported tokens: the code is beautiful\n")
    );
    let receipt = run.receipt();
    assert_eq!(receipt["gates"][0]["class"], "unknown_verifier_limit");
    assert_eq!(receipt["gates"][0]["attempts"].as_array().unwrap().len(), 1);
}

#[test]
fn a_slow_agent_is_reported_every_two_seconds() {
    let run = dil("slow", ONE_GATE, &[], "sleep 7; touch ok");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.lines("dil agent: running (pid=") >= 3, "{}", run.stdout);
    // The number of progress lines depends on timing: the golden omits them.
    let without_progress: String = masked(&run)
        .lines()
        .filter(|line| !line.contains(": running (pid="))
        .map(|line| format!("{line}\n"))
        .collect();
    golden("slow_agent", &without_progress);
    assert_artifacts(&run);
}

#[test]
fn a_hung_agent_past_the_timeout_is_unknown_transient_and_retried() {
    let run = dil(
        "hung",
        ONE_GATE,
        &[
            "--timeout",
            "1",
            "--max-retries",
            "2",
            "--progress-interval",
            "5",
        ],
        "sleep 60 & wait",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    golden("hung_agent", &masked(&run));
    assert_artifacts(&run);
    let receipt = run.receipt();
    assert_eq!(receipt["gates"][0]["class"], "unknown_transient");
    assert_eq!(receipt["gates"][0]["attempts"].as_array().unwrap().len(), 2);
    assert_eq!(
        std::fs::read_to_string(run.run_dir().join("agent.exit_code")).unwrap(),
        "timeout\n"
    );
}

#[test]
fn a_spec_error_has_its_position_exit_2_and_a_receipt() {
    let spec = "V_GATE_01_A: first\n  file_exists a\nV_GATE_01_B: again\n  file_exists b\n";
    let run = dil("spec-error", spec, &[], "touch a");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    golden("spec_error", &masked(&run));
    assert!(
        run.stdout
            .contains("spec error: spec.dil:3:8: gate 01 is already defined on line 1")
    );
    assert_artifacts(&run);
    let receipt = run.receipt();
    assert_eq!(receipt["error"]["kind"], "spec_error");
    assert_eq!(
        (
            receipt["error"]["line"].clone(),
            receipt["error"]["column"].clone()
        ),
        (Json::from(3), Json::from(8))
    );
    assert!(!run.dir.join("a").exists(), "no agent runs on a spec error");
}

#[test]
fn a_used_run_id_is_refused_and_its_artifacts_kept() {
    let run = dil("reused", ONE_GATE, &[], "touch ok");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let receipt = std::fs::read(run.run_dir().join("run_receipt.json")).unwrap();
    let again = command(&run.dir, ONE_GATE, &[], "touch ok")
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stdout).contains("run id test is already used"));
    assert_eq!(
        std::fs::read(run.run_dir().join("run_receipt.json")).unwrap(),
        receipt
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = workdir("usage");
    let output = Command::new(env!("CARGO_BIN_EXE_dil"))
        .current_dir(&dir)
        .args(["agent", "spec.dil"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(!output.stderr.is_empty());
    for help in [&["--help"][..], &["agent", "--help"][..]] {
        let output = Command::new(env!("CARGO_BIN_EXE_dil"))
            .args(help)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.contains("V_GATE_NN_") && text.contains("run_receipt.json"),
            "the format and the receipt are documented in {help:?}"
        );
    }
}

#[test]
fn ctrl_c_kills_the_agents_process_group_and_ends_unknown() {
    let dir = workdir("interrupt");
    let marker = dir.join("late");
    let agent = format!(
        "(sleep 3; touch {}) & echo $! > background.pid; echo started > started; wait",
        marker.display()
    );
    let child = command(&dir, ONE_GATE, &[], &agent)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..200 {
        if dir.join("started").exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(
        Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    let output = child.wait_with_output().unwrap();
    let run = finish(dir, output);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("gate 01: UNKNOWN (transient)"),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.lines("retrying"),
        0,
        "an interrupted run is not retried"
    );
    assert_artifacts(&run);
    assert_eq!(
        std::fs::read_to_string(run.run_dir().join("agent.exit_code")).unwrap(),
        "interrupted\n"
    );
    // The agent's background child died with its group: wait for it to be gone
    // (at once when killed; after its `sleep 3` and the marker if it was not).
    let pid = std::fs::read_to_string(run.dir.join("background.pid")).unwrap();
    let stat = format!("/proc/{}/stat", pid.trim());
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while std::fs::read_to_string(&stat).is_ok_and(|stat| !stat.contains(") Z ")) {
        assert!(
            std::time::Instant::now() < deadline,
            "the background child lives on"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(!marker.exists(), "the agent's process group was killed");
}
