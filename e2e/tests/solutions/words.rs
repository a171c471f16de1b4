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
