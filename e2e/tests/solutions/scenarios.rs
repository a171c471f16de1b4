//! The exports' own scenarios, unchanged, as their author tests them:
//! `adas solution test` plays each one's words on the embedded suite against
//! the solution's real MCP servers — the worker's after the gateway's words
//! that hand the user over — and never answers for the user. What the
//! servers executed is read from their own log.

use std::process::Command;

use super::*;

fn adas(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(adas_testkit::workspace_binary("adas"))
        .args(args)
        .output()
        .expect("run adas");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn fixture_file(name: &str) -> String {
    fixture_path(name).display().to_string()
}

#[test]
fn the_exports_scenarios_pass_by_words_against_their_servers() {
    let scratch = adas_testkit::scratch_dir("solution-scenarios");
    let log = scratch.join("calendar-executions.jsonl");
    let (identity, calendar) = servers(&log);
    let junit = scratch.join("junit.xml");
    let (code, stdout, stderr) = adas(&[
        "solution",
        "test",
        &fixture_file("scheduling-assistant.solution.json"),
        &fixture_file("identity-gateway.draft.skill.json"),
        &fixture_file("scheduling-agent.draft.skill.json"),
        "--connector",
        &format!("identity-mcp=http://{}/mcp", identity.addr()),
        "--connector",
        &format!("gcal-mcp=http://{}/mcp", calendar.addr()),
        "--mcp-allow",
        "127.0.0.1",
        "--today",
        "2026-12-01",
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "scheduling-agent: reached after \"Hi, I'm alice@company.com and I need to book a meeting\""
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("7 scenario(s): 7 passed, 0 failed"),
        "{stdout}"
    );
    // The unknown address ends in a question, as its scenario says.
    assert!(
        stdout.contains("PASS\tunknown-user") && stdout.contains("it ends asking"),
        "{stdout}"
    );
    // Each yes the runner gave was to a question its scenario says is asked.
    assert!(stdout.contains("said for the user: yes to"), "{stdout}");
    let report = std::fs::read_to_string(&junit).unwrap();
    assert!(report.contains("tests=\"7\" failures=\"0\""), "{report}");

    // What the calendar did, from its own log: the calls the words meant.
    // "Book a meeting tomorrow at 2pm with Dave": an hour, as alice.
    let created = executed(&log, "event.create");
    assert_eq!(created.len(), 1, "{created:?}");
    assert_eq!(
        created[0]["arguments"],
        serde_json::json!({"title": "Meeting with Dave", "start_time": "2026-12-02T14:00",
            "end_time": "2026-12-02T15:00", "organizer_id": "u-alice"})
    );
    // "Reschedule my 2pm meeting to 4pm": today's 2pm, moved, its length kept.
    let updated = executed(&log, "event.update");
    assert_eq!(updated.len(), 1, "{updated:?}");
    assert_eq!(
        updated[0]["arguments"],
        serde_json::json!({"event_id": "EV-21", "organizer_id": "u-alice",
            "start_time": "2026-12-01T16:00", "end_time": "2026-12-01T16:30"})
    );
    // "Cancel my meeting with Dave tomorrow": Dave's, not the other one.
    let deleted = executed(&log, "event.delete");
    assert_eq!(deleted.len(), 1, "{deleted:?}");
    assert_eq!(deleted[0]["arguments"]["event_id"], "EV-21");
}

#[test]
fn mocks_that_hold_no_such_meeting_end_in_a_question_never_in_a_yes() {
    // The exports' mock examples hold one meeting (a standup on another
    // day): "cancel my meeting with Dave" finds no such meeting, the job
    // asks which one, and the runner — which never answers for the user —
    // fails the scenario with that question instead of cancelling the
    // standup.
    let (code, stdout, stderr) = adas(&[
        "solution",
        "test",
        &fixture_file("scheduling-assistant.solution.json"),
        &fixture_file("identity-gateway.draft.skill.json"),
        &fixture_file("scheduling-agent.draft.skill.json"),
    ]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let cancel = stdout
        .lines()
        .find(|line| line.contains("\tcancel-meeting\t"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(cancel.starts_with("FAIL"), "{stdout}");
    assert!(
        cancel.contains("the job asks, and the scenario's words do not answer"),
        "{cancel}"
    );
    assert!(!cancel.contains("calendar.event.delete"), "{cancel}");
    assert!(stdout.contains("PASS\tteam-member-login"), "{stdout}");
}
