//! The CLI, continued.

use super::*;

#[test]
pub(super) fn shell_completions_for_bash_zsh_and_fish() {
    for (shell, marker) in [
        ("bash", "_adas()"),
        ("zsh", "#compdef adas"),
        ("fish", "complete -c adas"),
    ] {
        let output = adas(&["completions", shell]);
        let (stdout, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(0), "{shell}: {stderr}");
        assert!(stdout.contains(marker), "{shell}: {stdout}");
        // Subcommands and the global -o are completed.
        assert!(
            stdout.contains("completions") && stdout.contains("output"),
            "{shell}"
        );
    }
    assert_eq!(adas(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
pub(super) fn chat_says_why_an_answer_is_refused() {
    let (_suite, server) = suite("cli-chat");
    let dir = scratch_dir("cli-chat-script");
    let script = dir.join("lines.txt");
    std::fs::write(&script, "I want a refund\nORD-1\nlots\n700\ny\n").unwrap();
    let output = adas(&[
        "chat",
        "cs-tier-1",
        "--script",
        script.to_str().unwrap(),
        "--server",
        &server,
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    // Said in the user's terms, with what would do, then asked again.
    let refused = stdout
        .lines()
        .find(|line| line.contains("doesn't look like an amount"))
        .unwrap_or_else(|| panic!("why the answer was refused: {stdout}"));
    assert!(refused.contains("for example 600"), "{refused}");
    assert!(
        !stdout.contains("fields.amount"),
        "no developer words: {stdout}"
    );
    assert!(stdout.contains("is refunded"), "{stdout}");
}

#[test]
pub(super) fn chat_asks_which_intent_was_meant_and_remembers_the_conversation() {
    let (_suite, server) = suite("cli-chat-clarify");
    let dir = scratch_dir("cli-chat-clarify-script");
    let script = dir.join("lines.txt");
    // "Is payments ok?" is no restart: the chat lists the candidates by number.
    // The next line is another turn of the same conversation.
    std::fs::write(
        &script,
        "Is payments ok?\ncheck_health\nWhat was deployed to it recently?\n",
    )
    .unwrap();
    let output = adas(&[
        "chat",
        "devops-tier-1",
        "--script",
        script.to_str().unwrap(),
        "--server",
        &server,
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("Did you mean"), "{stdout}");
    assert!(
        stdout.contains("1) Engineer wants"),
        "numbered options: {stdout}"
    );
    assert!(stdout.contains("status: degraded"), "{stdout}");
    assert!(!stdout.contains("status: restarted"), "{stdout}");
    // The second line's "it" is the service the first one was about.
    assert!(stdout.contains("v1.8.1"), "{stdout}");
}

#[test]
pub(super) fn demo_runs_the_refund_conversation_on_the_embedded_suite() {
    let root = scratch_dir("cli-demo");
    // From an empty directory, no templates dir given: the binary carries
    // its templates (as after `cargo install`).
    let elsewhere = scratch_dir("cli-demo-cwd");
    let output = Command::new(workspace_binary("adas"))
        .args(["demo", "--memory-root", root.to_str().unwrap()])
        .current_dir(&elsewhere)
        .env_remove("ADAS_TEMPLATES_DIR")
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
        "is refunded",
    ] {
        assert!(
            stdout.contains(expected),
            "missing `{expected}` in:\n{stdout}"
        );
    }
    // Sessions close before the demo MCP server stops: no library errors.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("ERROR"), "{stderr}");
    // The finished job is archived under the memory root: one line of its
    // skill's archive of the hour, with its events.
    let files: Vec<_> = std::fs::read_dir(root.join("cs-tier-1/jobs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0].extension().unwrap(), "jsonl");
    let archive = std::fs::read_to_string(&files[0]).unwrap();
    let lines: Vec<serde_json::Value> = archive
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["job"]["status"], "completed");
    assert_eq!(lines[0]["events"][0]["event"]["kind"], "created");
}

#[test]
pub(super) fn connectors_solutions_and_triggers_from_the_cli() {
    let (_suite, server) = suite("cli-clauses");
    let run = |args: &[&str]| at(&server, args);
    // The metadata address is refused by the egress policy's decision alone.
    let (code, _, stderr) = run(&[
        "connector",
        "put",
        "gcal-mcp",
        "--url",
        "http://169.254.169.254/mcp",
    ]);
    assert_eq!(code, Some(4), "denied: {stderr}");
    assert!(stderr.contains("PermissionDenied"), "{stderr}");
    let (code, _, stderr) = run(&["connector", "put", "gcal-mcp", "--url", "mcp://x/y"]);
    assert_eq!(code, Some(2), "an invalid argument: {stderr}");
    assert!(stderr.contains("no transport"), "{stderr}");
    // The demo server's address is one the deployment allows.
    let (code, stdout, stderr) = run(&["-o", "json", "skill", "get", "cs-tier-1"]);
    assert_eq!(code, Some(0), "{stderr}");
    let demo: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let demo = demo["mcpServer"].as_str().unwrap().to_owned();
    let (code, stdout, stderr) = run(&["connector", "put", "gcal-mcp", "--url", &demo]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("connectors/gcal-mcp\t"), "{stdout}");
    let (_, stdout, _) = run(&["connector", "list"]);
    assert!(stdout.contains("connectors/gcal-mcp"), "{stdout}");
    let (code, _, _) = run(&["connector", "delete", "gcal-mcp"]);
    assert_eq!(code, Some(0));
    // An export whose connection no server is mapped to is stored with a
    // warning at that connection's line:col.
    let export = repo("shared/skill/tests/fixtures/scheduling-agent.draft.skill.json");
    let (code, stdout, stderr) = run(&["skill", "put", &export, "--name", "scheduling-agent"]);
    assert_eq!(code, Some(0), "{stderr}");
    // The one warning to act on comes first, not after the kept fields.
    let line = stdout.lines().next().unwrap_or_default();
    assert!(
        line.contains("connection `gcal-mcp` is mapped to no MCP server"),
        "{stdout}"
    );
    assert!(
        line.starts_with(&format!("{export}:")) && line.contains(": warning: "),
        "{line}"
    );
    let (code, _, stderr) = run(&["connector", "get", "gcal-mcp"]);
    assert_eq!(code, Some(3), "not found: {stderr}");

    // A solution: refused with line:col when it names a skill it lacks.
    let dir = scratch_dir("cli-clauses-files");
    let good = repo("shared/skill/tests/fixtures/scheduling-assistant.solution.json");
    let (code, stdout, stderr) = run(&["solution", "put", &good]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stdout.starts_with("solutions/scheduling-assistant\t"),
        "{stdout}"
    );
    let broken = dir.join("broken.solution.json");
    std::fs::write(
        &broken,
        std::fs::read_to_string(&good).unwrap().replace(
            "\"to\": \"scheduling-agent\"",
            "\"to\": \"scheduling-agnet\"",
        ),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&["solution", "put", broken.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("handoffs[0].to"), "{stdout}");
    assert!(stdout.contains("scheduling-agnet"), "{stdout}");
    let (_, stdout, _) = run(&["solution", "list"]);
    assert!(
        stdout.contains("identity-gateway,scheduling-agent"),
        "{stdout}"
    );

    // Triggers, with their next run.
    let skill = dir.join("ledger-watch.yaml");
    std::fs::write(
        &skill,
        "problem: {statement: watch}\nintents: {supported: [{id: check, examples: [check the ledger]}]}\ntools: []\ntriggers:\n  - {id: hourly, type: schedule, every: PT1H, prompt: check the ledger}\n  - {id: off, type: schedule, every: P1D, enabled: false, prompt: never}\n",
    )
    .unwrap();
    let (code, _, stderr) = run(&["skill", "put", skill.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stdout, stderr) = run(&["skill", "triggers", "ledger-watch"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("hourly\tenabled\tevery PT1H\tnext 20"),
        "{stdout}"
    );
    assert!(
        stdout.contains("off\tdisabled\tevery P1D\tnext never"),
        "{stdout}"
    );
}

#[test]
pub(super) fn a_skills_scenarios_are_its_tests_with_its_tools_mocked() {
    let dir = scratch_dir("cli-skill-test");
    let junit = dir.join("report.xml");
    let gateway = repo("shared/skill/tests/fixtures/identity-gateway.draft.skill.json");
    // No server of the skill's exists: its tools answer from their examples.
    let output = adas(&[
        "skill",
        "test",
        &gateway,
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("PASS\tteam-member-login\tTeam member identifies themselves\tcalled: identity.user.lookup"),
        "{stdout}"
    );
    assert!(
        stdout.contains("3 scenario(s): 3 passed, 0 failed"),
        "{stdout}"
    );
    let report = std::fs::read_to_string(&junit).unwrap();
    assert!(
        report.contains("<testsuite name=\"identity-gateway\" tests=\"3\" failures=\"0\""),
        "{report}"
    );

    // The worker's calls need a grant only its gateway issues: every
    // scenario fails, naming it, and the exit code says so.
    let worker = repo("shared/skill/tests/fixtures/scheduling-agent.draft.skill.json");
    let output = adas(&["skill", "test", &worker, "--junit", junit.to_str().unwrap()]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("FAIL\tcheck-availability"), "{stdout}");
    assert!(stdout.contains("needs the grant sched.user_id"), "{stdout}");
    assert!(stderr.contains("4 scenario(s) failed"), "{stderr}");
    let report = std::fs::read_to_string(&junit).unwrap();
    assert!(report.contains("failures=\"4\""), "{report}");
}

/// `adas skill test SLAG FILE.conv`: an author's conversations against a
/// running suite, one line each, JUnit and JSON for CI; a wrong side effect
/// or an unmet expectation fails the run, and a bad file is refused with its
/// line before anything runs.
#[test]
pub(super) fn skill_test_runs_an_authors_conversation_file() {
    let (_suite, server) = suite("cli-conv");
    let dir = scratch_dir("cli-conv-files");
    let conv = dir.join("refunds.conv");
    std::fs::write(
        &conv,
        r#"skill: cs-tier-1
side_effects: process_refund

=== a refund with its amount and order
> I want a refund of $40 for order ORD-12345
! check_order_status {"order_id": "ORD-12345"}
! process_refund {"order_id": "ORD-12345", "amount": 40}
= completed success

=== an amount as people write it, asked after the order
> I want a refund
? ask order_id
< ORD-1
! check_order_status {"order_id": "ORD-1"}
? ask amount
< $1.2k
? approval
approve
! process_refund {"order_id": "ORD-1", "amount": 1200}
= completed success

=== a script that expects the wrong thing fails, named
> Where is my order ORD-1?
= completed out_of_domain
"#,
    )
    .unwrap();
    let junit = dir.join("junit.xml");
    let json = dir.join("measures.json");
    let output = adas(&[
        "skill",
        "test",
        "cs-tier-1",
        conv.to_str().unwrap(),
        "--server",
        &server,
        "--junit",
        junit.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("PASS\ta refund with its amount and order"),
        "{stdout}"
    );
    assert!(
        stdout.contains("PASS\tan amount as people write it"),
        "{stdout}"
    );
    let failed = stdout
        .lines()
        .find(|line| line.starts_with("FAIL\ta script that expects"))
        .unwrap_or_else(|| panic!("the failing conversation, named: {stdout}"));
    assert!(
        failed.contains("line 24: expected outcome out_of_domain, got success"),
        "{failed}"
    );
    assert!(
        stdout.contains("3 conversation(s): 2 correct (67%)"),
        "{stdout}"
    );
    assert!(stderr.contains("below --min-correct"), "{stderr}");
    let report = std::fs::read_to_string(&junit).unwrap();
    assert!(report.contains("tests=\"3\" failures=\"1\""), "{report}");
    let measures: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(measures[1]["turns"], 4, "{measures}");
    assert_eq!(measures[2]["problems"].as_array().unwrap().len(), 1);

    // The same file, but the refund is not expected: doing it is a wrong
    // side-effecting call, whatever the share asked for.
    let unexpected = dir.join("unexpected.conv");
    std::fs::write(
        &unexpected,
        "skill: cs-tier-1\nside_effects: process_refund\n\n=== only the status was expected\n> refund $30 on ORD-777\n! check_order_status {\"order_id\": \"ORD-777\"}\n",
    )
    .unwrap();
    let output = adas(&[
        "skill",
        "test",
        "cs-tier-1",
        unexpected.to_str().unwrap(),
        "--server",
        &server,
        "--min-correct",
        "0",
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("wrong side-effecting call: process_refund"),
        "{stdout}"
    );
    assert!(stderr.contains("1 wrong side-effecting call"), "{stderr}");

    // A bad line is refused with its place, before anything runs.
    let bad = dir.join("bad.conv");
    std::fs::write(&bad, "skill: cs-tier-1\n=== x\n> hi\n? maybe\n").unwrap();
    let output = adas(&[
        "skill",
        "test",
        "cs-tier-1",
        bad.to_str().unwrap(),
        "--server",
        &server,
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("bad.conv:4: `? maybe`"), "{stderr}");
}

/// The Skill Builder's exports run unchanged: each validates with no error
/// and is put as written; `mcp://…` and an unlisted `connection_id` are the
/// tenant's connections, an approval that names nobody holds its tool — and
/// `skill tools` says each tool's standing in the console's words.
#[test]
pub(super) fn every_builder_export_puts_unchanged_and_shows_its_standings() {
    let (_suite, server) = suite("cli-exports");
    let run = |args: &[&str]| at(&server, args);
    let dir = scratch_dir("cli-exports-files");
    let minimal = dir.join("test-skill.minimal-valid.skill.json");
    std::fs::write(
        &minimal,
        r#"{"id": "test-skill", "problem": {"statement": "Look things up"},
 "intents": {"supported": [{"id": "lookup", "examples": ["look up item 7"]}]},
 "tools": [{"name": "item.lookup", "inputs": [{"name": "id", "type": "string", "required": true}],
            "source": {"type": "mcp_bridge", "connection_id": "items-mcp", "mcp_tool": "lookup"}}]}"#,
    )
    .unwrap();
    let exports = [
        (
            repo("shared/skill/tests/fixtures/software-developer.template.skill.yaml"),
            "software-developer",
        ),
        (
            repo("shared/skill/tests/fixtures/identity-gateway.draft.skill.json"),
            "identity-gateway",
        ),
        (
            repo("shared/skill/tests/fixtures/scheduling-agent.draft.skill.json"),
            "scheduling-agent",
        ),
        (
            repo("shared/skill/tests/fixtures/order-support.example.skill.json"),
            "order-support",
        ),
        (minimal.to_str().unwrap().to_owned(), "test-skill"),
    ];
    for (file, name) in &exports {
        let local = adas(&["skill", "validate", file]);
        let (stdout, stderr) = text(&local);
        assert_eq!(local.status.code(), Some(0), "{file}: {stdout}{stderr}");
        assert!(!stdout.contains(": error: "), "{file}: {stdout}");
        let (code, stdout, stderr) = run(&["skill", "put", file, "--name", name]);
        assert_eq!(code, Some(0), "{file}: {stdout}{stderr}");
    }
    let (code, stdout, stderr) = run(&["-o", "table", "skill", "tools", "software-developer"]);
    assert_eq!(code, Some(0), "{stderr}");
    let standing = |tool: &str| {
        stdout
            .lines()
            .find(|line| line.starts_with(&format!("{tool} ")))
            .unwrap_or_else(|| panic!("{tool}: {stdout}"))
            .to_owned()
    };
    assert!(
        standing("git_branch").contains("held: needs an approver"),
        "{stdout}"
    );
    // Its connection is mapped to no server here: nothing of it is callable.
    assert!(standing("read_file").contains("not served"), "{stdout}");
    assert!(
        stdout
            .lines()
            .filter(|line| !line.starts_with("sys."))
            .all(|line| !line.ends_with(" available")),
        "{stdout}"
    );
    // The text form says where the hold comes from and how to lift it.
    let (_, stdout, _) = run(&["skill", "tools", "software-developer"]);
    let held = stdout
        .lines()
        .find(|line| line.starts_with("git_branch\t"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        held.contains("HELD: ") && held.contains("approver: <role>"),
        "{held}"
    );
    let mapped = stdout
        .lines()
        .find(|line| line.starts_with("read_file\t"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        mapped.contains("adas connector put sw-developer-tools"),
        "{mapped}"
    );
    // Its escalation conditions are sentences: a request that says one is
    // handed to its queue before anything is done.
    let (code, job, stderr) = run(&[
        "job",
        "start",
        "software-developer",
        "I found a security vulnerability in the login handler, can you patch it?",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let job = job.trim().to_owned();
    let mut shown = serde_json::Value::Null;
    for _ in 0..500 {
        let (_, stdout, _) = run(&["job", "get", &job, "-o", "json"]);
        shown = serde_json::from_str(&stdout).unwrap_or_default();
        if shown["waiting"].is_object()
            || shown["status"] != "JOB_STATUS_RUNNING" && shown["status"] != "JOB_STATUS_QUEUED"
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(
        shown["waiting"]["reasonCode"], "HUMAN_TAKEOVER_REQUIRED",
        "{shown}"
    );
    let prompt = shown["waiting"]["promptMessage"]
        .as_str()
        .unwrap_or_default();
    assert!(
        prompt.contains("Security vulnerability detected")
            && prompt.contains("senior-developer-queue"),
        "{prompt}"
    );
    assert_eq!(
        shown["toolCalls"],
        serde_json::Value::Null,
        "nothing was called: {shown}"
    );
}

/// What a person reads first is what to fix: the Builder's bookkeeping is one
/// line (each with `--verbose`), a solution given as a skill says what it is,
/// and `adas solution validate` checks a solution and its skills' files
/// offline — the contracts its consumer must keep at their line:col.
#[test]
pub(super) fn diagnostics_read_in_order_and_solutions_validate_offline() {
    let agent = repo("shared/skill/tests/fixtures/scheduling-agent.draft.skill.json");
    let gateway = repo("shared/skill/tests/fixtures/identity-gateway.draft.skill.json");
    let solution = repo("shared/skill/tests/fixtures/scheduling-assistant.solution.json");
    let output = adas(&["skill", "validate", &agent]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines
            .last()
            .is_some_and(|line| line.contains("Builder bookkeeping field(s) kept")
                && line.contains("created_at")),
        "{stdout}"
    );
    assert!(
        !stdout.contains("is the Builder's own bookkeeping"),
        "{stdout}"
    );
    // Clauses kept but not used are each still named.
    assert!(stdout.contains("`engine.hlr` is kept"), "{stdout}");
    let verbose = adas(&["skill", "validate", "--verbose", &agent]);
    let (stdout, _) = text(&verbose);
    assert!(
        stdout.contains("`created_at` is the Builder's own bookkeeping"),
        "{stdout}"
    );

    let output = adas(&["skill", "validate", &solution]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("adas solution validate"), "{stdout}");

    let output = adas(&["solution", "validate", &solution, &gateway, &agent]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("{solution}: 0 error(s)")),
        "{stderr}"
    );

    // The worker without the grant its contract requires: refused offline,
    // at the contract's line:col.
    let dir = scratch_dir("cli-solution-validate");
    let weakened = dir.join("scheduling-agent.json");
    std::fs::write(
        &weakened,
        std::fs::read_to_string(&agent)
            .unwrap()
            .replace("\"requires_grants\"", "\"requires_nothing\""),
    )
    .unwrap();
    let output = adas(&[
        "solution",
        "validate",
        &solution,
        weakened.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    let broken = stdout
        .lines()
        .find(|line| line.contains("without requiring the grant `sched.user_id`"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        broken.starts_with(&format!("{solution}:")) && broken.contains(": error: "),
        "{broken}"
    );
    // A file that is none of the solution's skills is said so.
    let stranger = repo("shared/skill/tests/fixtures/order-support.example.skill.json");
    let output = adas(&["solution", "validate", &solution, &stranger]);
    let (stdout, _) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("is none of the solution's `skills`"),
        "{stdout}"
    );
}

/// `adas skill init` writes a starter that teaches: commented, with mocks and
/// scenarios, valid with no warning, passing its own tests; never over a
/// file. `adas skill schema` is the format's JSON Schema for editors.
#[test]
pub(super) fn a_starter_skill_validates_and_passes_its_own_scenarios() {
    let dir = scratch_dir("cli-init");
    let dir_arg = dir.to_str().unwrap();
    let output = adas(&["skill", "init", "ticket-desk", "--dir", dir_arg]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let file = dir.join("ticket-desk.yaml");
    assert_eq!(stdout.trim(), file.display().to_string());
    let again = adas(&["skill", "init", "ticket-desk", "--dir", dir_arg]);
    assert_eq!(again.status.code(), Some(6), "never over a file");
    let file = file.to_str().unwrap();
    let output = adas(&["skill", "validate", file]);
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("0 error(s), 0 warning(s)"), "{stderr}");
    let output = adas(&["skill", "test", file]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("3 scenario(s): 3 passed"), "{stdout}");
    let output = adas(&["skill", "schema"]);
    let schema: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(schema["$schema"].is_string(), "{schema}");
    assert!(schema["properties"]["tools"].is_object(), "{schema}");
    // An expectation the job does not meet fails the scenario, said; a call
    // no mock example covers is reported.
    let strict = dir.join("strict-desk.yaml");
    std::fs::write(
        &strict,
        std::fs::read_to_string(file)
            .unwrap()
            .replace("reply_contains: [closed]", "reply_contains: [refunded]")
            // No escalation: the threat is just words, and the close goes on.
            .replace("Legal action threatened", "Invoice dispute raised")
            .replace(
                "What's the status of ticket TCK-1001?'",
                "What's the status of ticket TCK-2040?'",
            ),
    )
    .unwrap();
    let output = adas(&["skill", "test", strict.to_str().unwrap()]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("expected: the reply does not say \"refunded\""),
        "{stdout}"
    );
    assert!(stdout.contains("FAIL\tlegal"), "{stdout}");
    assert!(
        stdout.contains(
            "note: no mock example of lookup_ticket matches {\"ticket_id\":\"TCK-2040\"}"
        ),
        "{stdout}"
    );
    // A shipped template carries mocks and scenarios to learn from.
    let template = repo("skill-templates/cs-tier-1.yaml");
    let output = adas(&["skill", "test", &template]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    // An escalation condition on a call's arguments, by words: the refund
    // goes to a person after the order's lookup, and is never made.
    let large = dir.join("large-refunds.yaml");
    let source = std::fs::read_to_string(&template).unwrap();
    let large_refund = "  - id: large-refund
    title: A refund too large for an approver
    steps:
      - User says 'I want a refund of $9000 for order ORD-12345'
      - Agent checks the order with check_order_status
      - Agent hands it to a person
    expect:
      status: escalated
      calls:
        - tool: check_order_status
          arguments: {order_id: ORD-12345}
";
    let source = source
        .replace(
            "      - Chargeback filed with the bank\n",
            "      - Chargeback filed with the bank\n      - amount > 5000\n",
        )
        .replace(
            "      calls: []\n",
            &format!("      calls: []\n{large_refund}"),
        );
    assert!(source.contains("amount > 5000") && source.contains("id: large-refund"));
    std::fs::write(&large, source).unwrap();
    let output = adas(&["skill", "test", large.to_str().unwrap()]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let row = stdout
        .lines()
        .find(|line| line.starts_with("PASS\tlarge-refund"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        row.ends_with("called: check_order_status"),
        "never made: {row}"
    );
    // A name that is no slag is refused before anything is written.
    let output = adas(&["skill", "init", "Bad Name", "--dir", dir_arg]);
    assert_eq!(output.status.code(), Some(2));
}
