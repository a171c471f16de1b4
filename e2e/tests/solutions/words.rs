//! The scheduling solution driven by words alone, as its users type them: no
//! DIA program, no intent picked by id — the gateway looks the user up from
//! what she says, grants and hands off, and the scheduling agent books in her
//! name from a sentence, asking her first as its workflow says
//! (`sys.askUser`).

use super::*;

/// A turn of the conversation in the user's words.
async fn say(scheduling: &Scheduling, who: &str, conversation: &str, words: &str) -> pb::Job {
    scheduling.turn(who, conversation, words, "").await
}

/// The user's answer, in words, to what the job waits for.
async fn answer(scheduling: &Scheduling, who: &str, job: &pb::Job, words: &str) -> pb::Job {
    let waiting = job
        .waiting
        .clone()
        .unwrap_or_else(|| panic!("nothing asked: {job:?}"));
    let mut dal = scheduling.suite.dal(who).await;
    dal.submit_input(pb::SubmitInputRequest {
        job: job.name.clone(),
        correlation_id: waiting.correlation_id.clone(),
        fields: HashMap::from([(
            waiting.fields[0].name.clone(),
            prost_types::Value {
                kind: Some(prost_types::value::Kind::StringValue(words.into())),
            },
        )]),
        ..Default::default()
    })
    .await
    .unwrap_or_else(|status| panic!("{words}: {status:?}"));
    scheduling.suite.settle(who, &job.name).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_who_says_who_she_is_books_in_her_own_name_by_words() {
    let scheduling = Scheduling::start("solution-words", |_| {}).await;
    // The export's own scenario sentence.
    let gateway = say(
        &scheduling,
        "alice",
        "",
        "Hi, I'm alice@company.com and I need to book a meeting",
    )
    .await;
    assert_eq!(gateway.slag, "identity-gateway", "{gateway:?}");
    assert_eq!(
        status(&gateway),
        pb::JobStatus::Completed,
        "{:?} {:?}",
        gateway.waiting,
        gateway.error
    );
    assert!(
        gateway
            .grants
            .iter()
            .any(|grant| grant.key == "sched.user_id"),
        "{gateway:?}"
    );

    let asked = say(
        &scheduling,
        "alice",
        &gateway.conversation,
        "Put a budget sync in for 2027-07-02, 10:00 to 10:45",
    )
    .await;
    assert_eq!(asked.slag, "scheduling-agent", "{asked:?}");
    // Words the skill's examples never use ("put … in", "sync") may be asked
    // about: she answers the menu as a person does, by the option's number.
    let asked = match asked.waiting.clone() {
        Some(waiting) if waiting.reason_code == "INTENT_CLARIFICATION_REQUIRED" => {
            let field = &waiting.fields[0];
            let at = field
                .option_labels
                .iter()
                .position(|label| label.to_lowercase().contains("book"))
                .unwrap_or_else(|| panic!("no booking offered: {waiting:?}"));
            answer(&scheduling, "alice", &asked, &(at + 1).to_string()).await
        }
        _ => asked,
    };
    // A free title is hers to give: asked once, answered in words.
    let asked = match asked.waiting.clone() {
        Some(waiting) if waiting.reason_code == "MISSING_REQUIRED_INPUT" => {
            assert_eq!(waiting.requested_fields, ["title"], "{waiting:?}");
            answer(&scheduling, "alice", &asked, "Budget sync").await
        }
        _ => asked,
    };
    // The workflow asks her first (`sys.askUser`): the exact call, before it runs.
    let waiting = asked
        .waiting
        .clone()
        .unwrap_or_else(|| panic!("not asked: {asked:?}"));
    assert_eq!(
        waiting.reason_code, "ACTION_CONFIRMATION_REQUIRED",
        "{waiting:?}"
    );
    assert!(
        waiting.prompt_message.contains("2027-07-02T10:00"),
        "{waiting:?}"
    );
    assert!(executed(&scheduling.log, "event.create").is_empty());
    let booked = answer(&scheduling, "alice", &asked, "yes").await;
    assert_eq!(
        status(&booked),
        pb::JobStatus::Completed,
        "{:?} {:?} {:?}",
        booked.waiting,
        booked.error,
        booked.result
    );
    let created = executed(&scheduling.log, "event.create");
    assert_eq!(created.len(), 1, "{created:?}");
    let arguments = &created[0]["arguments"];
    assert_eq!(arguments["start_time"], "2027-07-02T10:00", "{arguments}");
    assert_eq!(arguments["end_time"], "2027-07-02T10:45", "{arguments}");
    assert_eq!(arguments["organizer_id"], "u-alice", "{arguments}");
    // The reply says what was booked, not what a core tool returned.
    let reply = booked
        .result
        .as_ref()
        .map(|result| result.reply.clone())
        .unwrap_or_default();
    assert!(!reply.to_lowercase().contains("delivered"), "{reply}");
}

/// Answers the menu (if any) with the option whose label names `wanted`.
async fn past_the_menu(scheduling: &Scheduling, job: pb::Job, wanted: &str) -> pb::Job {
    match job.waiting.clone() {
        Some(waiting) if waiting.reason_code == "INTENT_CLARIFICATION_REQUIRED" => {
            let at = waiting.fields[0]
                .option_labels
                .iter()
                .position(|label| label.to_lowercase().contains(wanted))
                .unwrap_or_else(|| panic!("no {wanted} offered: {waiting:?}"));
            answer(scheduling, "alice", &job, &(at + 1).to_string()).await
        }
        _ => job,
    }
}

/// The gateway's turn: alice says who she is and is handed on.
async fn signed_in(scheduling: &Scheduling) -> String {
    let gateway = say(
        scheduling,
        "alice",
        "",
        "Hi, I'm alice@company.com and I need to change a meeting",
    )
    .await;
    assert_eq!(
        status(&gateway),
        pb::JobStatus::Completed,
        "{:?} {:?}",
        gateway.waiting,
        gateway.error
    );
    gateway.conversation
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meeting_named_by_its_words_is_cancelled_after_she_says_yes() {
    let scheduling = Scheduling::start("solution-cancel-words", |_| {}).await;
    let conversation = signed_in(&scheduling).await;
    // The export's own scenario: the agent finds the meeting by what she
    // says of it (a 1:1 with Dave among two), and asks before it cancels.
    let asked = say(
        &scheduling,
        "alice",
        &conversation,
        "Cancel my meeting with Dave tomorrow",
    )
    .await;
    assert_eq!(asked.slag, "scheduling-agent", "{asked:?}");
    let asked = past_the_menu(&scheduling, asked, "cancel").await;
    let waiting = asked
        .waiting
        .clone()
        .unwrap_or_else(|| panic!("not asked: {asked:?}"));
    assert_eq!(
        waiting.reason_code, "ACTION_CONFIRMATION_REQUIRED",
        "{waiting:?}"
    );
    // The exact call, the meeting's id masked as the skill classifies the
    // calendar's results (`pii_read`).
    assert!(waiting.prompt_message.contains("Delete"), "{waiting:?}");
    assert_eq!(executed(&scheduling.log, "event.list").len(), 1);
    assert!(executed(&scheduling.log, "event.delete").is_empty());
    let cancelled = answer(&scheduling, "alice", &asked, "yes").await;
    assert_eq!(
        status(&cancelled),
        pb::JobStatus::Completed,
        "{:?} {:?}",
        cancelled.waiting,
        cancelled.error
    );
    let deleted = executed(&scheduling.log, "event.delete");
    assert_eq!(deleted.len(), 1, "{deleted:?}");
    assert_eq!(deleted[0]["arguments"]["event_id"], "EV-21");
    assert_eq!(deleted[0]["arguments"]["organizer_id"], "u-alice");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meeting_she_cannot_tell_apart_is_offered_as_a_choice() {
    let scheduling = Scheduling::start("solution-cancel-choice", |_| {}).await;
    let conversation = signed_in(&scheduling).await;
    let asked = say(
        &scheduling,
        "alice",
        &conversation,
        "Cancel my meeting tomorrow",
    )
    .await;
    let asked = past_the_menu(&scheduling, asked, "cancel").await;
    let waiting = asked
        .waiting
        .clone()
        .unwrap_or_else(|| panic!("not asked: {asked:?}"));
    // Two meetings that day: offered as a choice (their words masked on the
    // wire, as the skill classifies the calendar's results), she picks one by
    // its words, never an id.
    assert_eq!(waiting.requested_fields, ["event_id"], "{waiting:?}");
    assert_eq!(waiting.fields[0].options.len(), 2, "{waiting:?}");
    assert!(
        waiting.prompt_message.contains("1)") && waiting.prompt_message.contains("2)"),
        "{waiting:?}"
    );
    let asked = answer(&scheduling, "alice", &asked, "the design review").await;
    let waiting = asked
        .waiting
        .clone()
        .unwrap_or_else(|| panic!("not asked: {asked:?}"));
    assert_eq!(
        waiting.reason_code, "ACTION_CONFIRMATION_REQUIRED",
        "{waiting:?}"
    );
    let cancelled = answer(&scheduling, "alice", &asked, "yes").await;
    assert_eq!(
        status(&cancelled),
        pb::JobStatus::Completed,
        "{cancelled:?}"
    );
    let deleted = executed(&scheduling.log, "event.delete");
    assert_eq!(deleted.len(), 1, "{deleted:?}");
    assert_eq!(deleted[0]["arguments"]["event_id"], "EV-22");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meeting_is_moved_by_words_and_keeps_its_length() {
    let scheduling = Scheduling::start("solution-move-words", |_| {}).await;
    let conversation = signed_in(&scheduling).await;
    // The export's scenario ("Reschedule my 2pm meeting to 4pm"), with the
    // day: "my 2pm" finds the meeting, "to 4pm" is where it goes.
    let asked = say(
        &scheduling,
        "alice",
        &conversation,
        "Reschedule my 2pm meeting tomorrow to 4pm",
    )
    .await;
    assert_eq!(asked.slag, "scheduling-agent", "{asked:?}");
    let asked = past_the_menu(&scheduling, asked, "move").await;
    let waiting = asked
        .waiting
        .clone()
        .unwrap_or_else(|| panic!("not asked: {asked:?}"));
    assert_eq!(
        waiting.reason_code, "ACTION_CONFIRMATION_REQUIRED",
        "{waiting:?}"
    );
    assert!(executed(&scheduling.log, "event.update").is_empty());
    let moved = answer(&scheduling, "alice", &asked, "yes").await;
    assert_eq!(
        status(&moved),
        pb::JobStatus::Completed,
        "{:?} {:?}",
        moved.waiting,
        moved.error
    );
    let day = executed(&scheduling.log, "event.list")[0]["arguments"]["date_start"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let updated = executed(&scheduling.log, "event.update");
    assert_eq!(updated.len(), 1, "{updated:?}");
    let arguments = &updated[0]["arguments"];
    assert_eq!(arguments["event_id"], "EV-21", "{arguments}");
    assert_eq!(
        arguments["start_time"],
        format!("{day}T16:00"),
        "{arguments}"
    );
    assert_eq!(arguments["end_time"], format!("{day}T16:30"), "{arguments}");
    assert_eq!(arguments["organizer_id"], "u-alice", "{arguments}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_that_are_no_date_are_asked_again_and_a_day_in_words_is_taken() {
    let scheduling = Scheduling::start("solution-date-words", |_| {}).await;
    let conversation = signed_in(&scheduling).await;
    let asked = say(
        &scheduling,
        "alice",
        &conversation,
        "What times are available?",
    )
    .await;
    let asked = past_the_menu(&scheduling, asked, "avail").await;
    let waiting = asked
        .waiting
        .clone()
        .unwrap_or_else(|| panic!("not asked: {asked:?}"));
    assert_eq!(waiting.requested_fields, ["date_start"], "{waiting:?}");
    // "Whenever suits" is no date: refused, asked again, nothing stored.
    let mut dal = scheduling.suite.dal("alice").await;
    let refused = dal
        .submit_input(pb::SubmitInputRequest {
            job: asked.name.clone(),
            correlation_id: waiting.correlation_id.clone(),
            fields: HashMap::from([(
                "date_start".to_owned(),
                prost_types::Value {
                    kind: Some(prost_types::value::Kind::StringValue(
                        "whenever suits".into(),
                    )),
                },
            )]),
            ..Default::default()
        })
        .await
        .expect_err("no date");
    assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{refused:?}");
    let still = scheduling.suite.settle("alice", &asked.name).await;
    let waiting = still.waiting.clone().expect("asked again");
    assert!(
        waiting.prompt_message.contains("doesn't look like a date"),
        "{waiting:?}"
    );
    assert!(executed(&scheduling.log, "availability.check").is_empty());
    // A day in words is the date it means.
    let answered = answer(&scheduling, "alice", &still, "next Tuesday").await;
    assert_eq!(
        status(&answered),
        pb::JobStatus::Completed,
        "{:?} {:?}",
        answered.waiting,
        answered.error
    );
    let checked = executed(&scheduling.log, "availability.check");
    assert_eq!(checked.len(), 1, "{checked:?}");
    let day = checked[0]["arguments"]["date_start"]
        .as_str()
        .unwrap_or_default();
    // A date as the tool takes it (YYYY-MM-DD), not the words.
    let parts: Vec<&str> = day.split('-').collect();
    assert!(
        parts.len() == 3 && parts.iter().all(|part| part.parse::<u32>().is_ok()),
        "{day}"
    );
}
