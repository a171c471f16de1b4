//! README's exit table, walked row by row against a real suite.

use super::*;

/// The exit codes README's table names (`| 3 | not found | NOT_FOUND |`).
fn table_codes() -> Vec<i32> {
    std::fs::read_to_string(repo("README.md"))
        .expect("README")
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            match cells.as_slice() {
                ["", code, _, _, ""] => code.parse().ok(),
                _ => None,
            }
        })
        .collect()
}

/// Each row of the exit table is what a command gets in the situation the
/// row names, locally and from the server. The table is read from README: a
/// row added there without a case here fails.
#[test]
pub(super) fn every_row_of_the_exit_table_is_what_a_command_gets() {
    let root = scratch_dir("cli-exits");
    let auth = root.join("auth.json");
    let auth = auth.to_str().unwrap();
    let key = |name: &str, role: &str| key_in(auth, name, role);
    let ann = key("ann", "user");
    let ops = key("ops", "admin");
    let (ann, ops) = (ann.as_str(), ops.as_str());
    let store = CheckedStore::start(&root);
    // One active job per principal: a second is over the quota.
    let service = store.spawn_up(
        &root,
        &["--auth-file", auth, "--max-active-jobs-per-principal", "1"],
        &[],
    );
    let server = service.endpoint();
    let as_key = |key: &str, args: &[&str]| run_as(&server, Some(key), args);
    let broken = root.join("broken.yaml");
    std::fs::write(&broken, "id: broken\nproblem: {statement: x}\ntools: []\n").unwrap();
    let broken = broken.to_str().unwrap();
    let unreachable = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };

    // A job waiting for its order number: answered nothing, approved nothing.
    let (code, waiting, stderr) = as_key(ann, &["job", "start", "cs-tier-1", "I want a refund"]);
    assert_eq!(code, Some(0), "{stderr}");
    let waiting = waiting.trim().to_owned();
    assert!(
        (0..500).any(|_| {
            let (_, shown, _) = as_key(ann, &["job", "get", &waiting, "-o", "json"]);
            let paused = shown.contains("JOB_STATUS_PAUSED");
            if !paused {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            paused
        }),
        "the job waits for its order number"
    );

    let rows: Vec<(i32, &str, Vec<&str>, Option<&str>)> = vec![
        (0, "done", vec!["skill", "list"], Some(ann)),
        (
            1,
            "a document with errors, refused by the server",
            vec!["skill", "put", broken],
            Some(ops),
        ),
        (
            1,
            "a document with errors, checked locally",
            vec!["skill", "validate", broken],
            None,
        ),
        (
            2,
            "a wrong argument",
            vec!["job", "list", "--status", "bogus"],
            Some(ann),
        ),
        (2, "a wrong command", vec!["job", "frobnicate"], Some(ann)),
        (
            3,
            "not found",
            vec!["job", "get", "skills/cs-tier-1/jobs/no-such-job"],
            Some(ann),
        ),
        (
            3,
            "an unknown skill's jobs",
            vec!["job", "list", "no-such-skill"],
            Some(ann),
        ),
        (4, "no key", vec!["skill", "list"], None),
        (4, "a missing role", vec!["skill", "put", broken], Some(ann)),
        (5, "unreachable", vec!["skill", "list"], Some(ann)),
        (
            6,
            "not waiting for an approval",
            vec!["job", "approve", &waiting],
            Some(ops),
        ),
        (
            7,
            "over the active-jobs quota",
            vec!["job", "start", "cs-tier-1", "Where is ORD-12345?"],
            Some(ann),
        ),
    ];
    for (expected, why, args, principal) in &rows {
        let at = if *expected == 5 {
            &unreachable
        } else {
            &server
        };
        let (code, stdout, stderr) = run_as(at, *principal, args);
        assert_eq!(
            code,
            Some(*expected),
            "{why}: adas {args:?}: {stdout}{stderr}"
        );
        if *expected != 0 {
            assert!(!stderr.trim().is_empty(), "{why}: a failure says why");
        }
    }
    let mut walked: Vec<i32> = rows.iter().map(|(code, ..)| *code).collect();
    walked.dedup();
    assert_eq!(
        walked,
        table_codes(),
        "every row of README's exit table has a case"
    );
}

/// `adas --server SERVER ARGS…` with `key`, or none, in the environment.
fn run_as(server: &str, key: Option<&str>, args: &[&str]) -> (Option<i32>, String, String) {
    let mut command = Command::new(workspace_binary("adas"));
    command.args(["--server", server]).args(args);
    match key {
        Some(key) => command.env("ADAS_API_KEY", key),
        None => command.env_remove("ADAS_API_KEY"),
    };
    let output = command.output().expect("run adas");
    let (stdout, stderr) = text(&output);
    (output.status.code(), stdout, stderr)
}
