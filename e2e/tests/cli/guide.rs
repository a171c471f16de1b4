//! The CLI guides: one exit code per kind of failure under every command, a
//! fix in the message, a scheme added to a bare address, suggestions on a
//! typo, keys listed, rotated and revoked, enum values completed, jobs listed
//! across skills with filters, and `-o json` as the proto3 JSON mapping.

use super::*;

fn adas_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(workspace_binary("adas"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run adas")
}

/// A loopback port nothing listens on (bound, then released).
fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn failures_exit_by_kind_with_the_fix() {
    // Unreachable: exit 5 under `job` and `skill` alike, and the fix.
    let server = format!("127.0.0.1:{}", closed_port());
    for args in [
        vec!["job", "get", "skills/a/jobs/b"],
        vec!["skill", "get", "a"],
        vec!["job", "list"],
        vec!["health"],
    ] {
        let mut args = args.clone();
        args.extend(["--server", &server]);
        let output = adas(&args);
        let (_, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(5), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(
            stderr.contains(&format!("cannot reach http://{server}"))
                && stderr.contains("is `adas up` running there? Set --server"),
            "{stderr}"
        );
        assert!(!stderr.contains("transport error"), "{stderr}");
    }

    // A typo: clap's suggestion, usage exit 2.
    let output = adas(&["jobb", "list"]);
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("similar subcommand") && stderr.contains("job"),
        "{stderr}"
    );
    let output = adas(&["job", "list", "--statsu", "paused"]);
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("--status"), "{stderr}");
    // An enum value is checked (and offered) by the command line itself.
    let output = adas(&["job", "list", "--status", "bogus"]);
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("paused") && stderr.contains("completed"),
        "{stderr}"
    );

    // Completion scripts offer the enum values.
    let output = adas(&["completions", "bash"]);
    let (stdout, _) = text(&output);
    assert!(
        stdout.contains("queued running paused completed failed cancelled"),
        "--status values completed"
    );
    assert!(
        stdout.contains("approval-required"),
        "--outcome values completed"
    );
}

#[test]
fn against_a_suite_a_bare_address_works_and_not_found_is_3() {
    let (_suite, server) = suite("cli-guide");
    let bare = server.trim_start_matches("http://").to_owned();
    let output = adas(&[
        "job",
        "start",
        "cs-tier-1",
        "I want a refund",
        "--server",
        &bare,
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "a scheme is added: {stderr}");
    let first = stdout.trim().to_owned();
    let output = adas(&[
        "job",
        "start",
        "devops-tier-1",
        "restart the api service",
        "--server",
        &bare,
    ]);
    assert_eq!(output.status.code(), Some(0));
    let second = text(&output).0.trim().to_owned();

    // Health, for a container's healthcheck: 0 when serving.
    let output = adas(&["health", "--server", &bare]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output).1);
    assert!(text(&output).0.contains("SERVING"));
    let output = adas(&[
        "health",
        "--service",
        "adas.v1.OrchestratorService",
        "--server",
        &bare,
    ]);
    assert_eq!(output.status.code(), Some(0));
    let output = adas(&[
        "health",
        "--service",
        "adas.v1.NoSuchService",
        "--server",
        &bare,
    ]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output).1);

    // Not found is 3 under `job` and `skill` alike.
    let output = adas(&[
        "job",
        "get",
        "skills/cs-tier-1/jobs/j-nope",
        "--server",
        &bare,
    ]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output).1);
    let output = adas(&["skill", "get", "no-such-skill", "--server", &bare]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output).1);
    // A bad argument is 2.
    let output = adas(&["job", "get", "not-a-name", "--server", &bare]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output).1);

    // Across skills, newest first; --limit; --since; --outcome.
    let output = adas(&["job", "list", "--server", &bare]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let names: Vec<&str> = stdout
        .lines()
        .map(|line| line.split('\t').next().unwrap())
        .collect();
    assert_eq!(names, [second.as_str(), first.as_str()], "{stdout}");
    let output = adas(&["job", "list", "--limit", "1", "--server", &bare]);
    let (stdout, stderr) = text(&output);
    assert_eq!(stdout.lines().count(), 1);
    // It says when there is more, and how to go on from there.
    let token = stderr
        .split("--page-token ")
        .nth(1)
        .unwrap_or_else(|| panic!("{stderr}"))
        .trim()
        .to_owned();
    let output = adas(&[
        "job",
        "list",
        "--limit",
        "1",
        "--page-token",
        &token,
        "--server",
        &bare,
    ]);
    let (stdout, stderr) = text(&output);
    assert!(stdout.starts_with(first.as_str()), "{stdout}");
    assert!(!stderr.contains("--page-token"), "the last page: {stderr}");
    let output = adas(&[
        "job", "list", "--limit", "1", "-o", "json", "--server", &bare,
    ]);
    let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(listed["jobs"].as_array().map(Vec::len), Some(1), "{listed}");
    assert!(listed["nextPageToken"].is_string(), "{listed}");
    // An unknown skill is not found, not an empty list.
    let output = adas(&["job", "list", "no-such-skill", "--server", &bare]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output).1);
    let output = adas(&["job", "list", "--since", "1h", "--server", &bare]);
    assert_eq!(text(&output).0.lines().count(), 2);
    let output = adas(&[
        "job",
        "list",
        "--since",
        "2000-01-01T00:00:00Z",
        "--server",
        &bare,
    ]);
    assert_eq!(text(&output).0.lines().count(), 2);
    let output = adas(&[
        "job",
        "list",
        "cs-tier-1",
        "--oldest-first",
        "--server",
        &bare,
    ]);
    assert_eq!(text(&output).0.lines().count(), 1);
    // The first job pauses for its order number: an outcome filter finds it.
    let mut found = String::new();
    for _ in 0..500 {
        let output = adas(&[
            "job",
            "list",
            "--outcome",
            "user-action-required",
            "--server",
            &bare,
        ]);
        found = text(&output).0;
        if found.contains(&first) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(found.contains(&first), "{found}");
    let output = adas(&[
        "job",
        "list",
        "--outcome",
        "policy-denied",
        "--server",
        &bare,
    ]);
    assert!(!text(&output).0.contains(&first));

    // -o json: the proto3 JSON mapping, int64 as strings (as `buf curl` prints).
    let output = adas(&["job", "get", &first, "-o", "json", "--server", &bare]);
    let job: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(job["version"].is_string(), "int64 is a string: {job}");
    assert!(
        job["iterationBudget"].is_number(),
        "int32 stays a number: {job}"
    );

    // `job get` shows the exact call an approval is for, and who decides.
    let output = adas(&[
        "job",
        "start",
        "cs-tier-1",
        "refund $700 for order ORD-1",
        "--server",
        &bare,
    ]);
    let refund = text(&output).0.trim().to_owned();
    let mut shown = String::new();
    for _ in 0..500 {
        shown = text(&adas(&["job", "get", &refund, "--server", &bare])).0;
        if shown.contains("call: ") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        shown.contains("call: process_refund(") && shown.contains("approver: supervisor"),
        "{shown}"
    );
    // Who the suite takes the caller for.
    let who = text(&adas(&["whoami", "--server", &bare])).0;
    assert!(who.starts_with("dev (tenant "), "{who}");
    assert!(who.contains("every role (dev mode)"), "{who}");
    let who: serde_json::Value =
        serde_json::from_str(&text(&adas(&["whoami", "-o", "json", "--server", &bare])).0).unwrap();
    assert_eq!(
        (who["name"].as_str(), who["devMode"].as_bool()),
        (Some("dev"), Some(true))
    );
    // The decision carries its reason: in the job, and in its events as
    // `job watch -o json` prints them.
    let output = adas(&[
        "job",
        "approve",
        &refund,
        "--comment",
        "called the customer",
        "--server",
        &bare,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output).1);
    let shown = text(&adas(&["job", "get", &refund, "--server", &bare])).0;
    assert!(
        shown
            .contains("decision: process_refund approved by dev (supervisor): called the customer"),
        "{shown}"
    );
    let watched = text(&adas(&[
        "job", "watch", &refund, "-o", "json", "--server", &bare,
    ]))
    .0;
    let resumed: Vec<serde_json::Value> = watched
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .filter(|event: &serde_json::Value| event["type"] == "JOB_EVENT_TYPE_RESUMED")
        .collect();
    assert_eq!(resumed.len(), 1, "{watched}");
    assert_eq!(
        resumed[0]["data"]["comment"], "called the customer",
        "{watched}"
    );
    assert_eq!(
        resumed[0]["message"],
        "approved by dev: called the customer"
    );

    // Not in a state for this is 6, whether the server or the CLI sees it:
    // a job that waits for input is approved; an ended job is answered or
    // approved (a second cancel is the first's retry: done).
    let output = adas(&["job", "approve", &first, "--server", &bare]);
    assert_eq!(output.status.code(), Some(6), "{}", text(&output).1);
    let output = adas(&["job", "cancel", &first, "--server", &bare]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output).1);
    for args in [
        vec!["job", "answer", first.as_str(), "order_id=ORD-1"],
        vec!["job", "approve", first.as_str()],
    ] {
        let mut args = args.clone();
        args.extend(["--server", &bare]);
        let output = adas(&args);
        let (_, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(6), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    }
    let output = adas(&["job", "answer", &first, "order_id=ORD-1", "--server", &bare]);
    assert!(
        text(&output).1.contains("`adas job get"),
        "the fix: {}",
        text(&output).1
    );
}

#[test]
fn keys_are_listed_rotated_and_revoked() {
    let root = scratch_dir("cli-keys");
    let auth_file = root.join("auth.json");
    let file = auth_file.to_str().unwrap();
    let create = |name: &str, role: &str| key_in(file, name, role);
    let ann = create("ann", "user");
    let ops = create("ops", "admin");

    let output = adas(&["auth", "key", "list", "--auth-file", file, "-o", "json"]);
    let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ann", "ops"]);
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(
        !printed.contains(&ann) && !printed.contains(&ops),
        "never a key"
    );
    let output = adas(&["auth", "key", "list", "--auth-file", file]);
    assert!(text(&output).0.contains("ann") && text(&output).0.contains("user"));

    let store = CheckedStore::start(&root);
    let service = store.spawn_up(&root, &["--auth-file", file], &[]);
    let server = service.endpoint();
    let as_key = |key: &str| {
        adas_env(
            &["skill", "list", "--server", &server],
            &[("ADAS_API_KEY", key)],
        )
    };
    assert_eq!(as_key(&ann).status.code(), Some(0));
    // No key, or a wrong one: denied, 4, with the fix.
    let output = adas(&["skill", "list", "--server", &server]);
    assert_eq!(output.status.code(), Some(4), "{}", text(&output).1);
    assert!(text(&output).1.contains("--api-key"), "{}", text(&output).1);

    // Rotate: the old key stops, the new one works (the server rereads the file).
    let output = adas(&["auth", "key", "rotate", "ann", "--auth-file", file]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output).1);
    let rotated = text(&output).0.trim().to_owned();
    assert_ne!(rotated, ann);
    // The server rereads the file when it changes: wait for that, not a time.
    let refused = |key: &str| {
        (0..500).any(|_| {
            let denied = as_key(key).status.code() == Some(4);
            if !denied {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            denied
        })
    };
    assert!(refused(&ann), "the old key stops working");
    assert_eq!(as_key(&rotated).status.code(), Some(0));

    // Revoke: the principal goes, its key stops working.
    let output = adas(&["auth", "key", "revoke", "ops", "--auth-file", file]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output).1);
    assert!(refused(&ops), "a revoked key stops working");
    let output = adas(&["auth", "key", "revoke", "ops", "--auth-file", file]);
    assert_eq!(output.status.code(), Some(3), "gone: not found");
    let output = adas(&["auth", "key", "rotate", "nobody", "--auth-file", file]);
    assert_eq!(output.status.code(), Some(3));

    // A rewrite that keeps the old mtime (a restore, a copy with `cp -p`) is
    // still read: the server compares contents, not times.
    let kim = create("kim", "user");
    assert!(
        (0..500).any(|_| {
            let served = as_key(&kim).status.code() == Some(0);
            if !served {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            served
        }),
        "a new key is taken up"
    );
    // A rotation keeps the file's size too: only its content tells.
    let before = std::fs::metadata(&auth_file).unwrap();
    let output = adas(&["auth", "key", "rotate", "kim", "--auth-file", file]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output).1);
    assert_eq!(std::fs::metadata(&auth_file).unwrap().len(), before.len());
    let before = before.modified().unwrap();
    std::fs::File::options()
        .write(true)
        .open(&auth_file)
        .unwrap()
        .set_modified(before)
        .unwrap();
    assert_eq!(
        std::fs::metadata(&auth_file).unwrap().modified().unwrap(),
        before
    );
    assert!(
        refused(&kim),
        "a revoked key stops working whatever the mtime"
    );
    drop(service);
}
