//! The chat: a conversation with a skill at the terminal, or scripted from
//! stdin, one turn a job, asks answered in place.

use super::*;
use crate::fail::Failure;

/// `adas chat`.
pub fn chat_main(args: ChatArgs, client: &Client) -> ExitCode {
    let script = match &args.script {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => Some(
                text.lines()
                    .map(str::to_owned)
                    .filter(|line| !line.trim().is_empty())
                    .collect(),
            ),
            Err(error) => {
                eprintln!("error: cannot read {}: {error}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let approver = match &args.approver_key {
        Some(key) => match Client::new(&client.server, Some(key)) {
            Ok(approver) => approver,
            Err(error) => {
                eprintln!("error: {error}");
                return ExitCode::from(2);
            }
        },
        None => client.clone(),
    };
    finish(runtime().block_on(chat(client, &args.slag, &approver, script)))
}

/// Lines from the script (echoed, as if typed) or the terminal; `None` at the end.
pub(super) struct Input {
    script: Option<std::collections::VecDeque<String>>,
}

impl Input {
    fn line(&mut self, prompt: &str) -> Option<String> {
        write_out(prompt);
        match &mut self.script {
            Some(lines) => {
                let line = lines.pop_front()?;
                out(&line);
                Some(line)
            }
            None => {
                let mut line = String::new();
                match std::io::stdin().lock().read_line(&mut line) {
                    Ok(0) | Err(_) => None,
                    Ok(_) => Some(line.trim_end().to_owned()),
                }
            }
        }
    }
}

pub(crate) async fn settle(
    clients: &mut Clients,
    name: &str,
    after_version: i64,
) -> Result<pb::Job, Failure> {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let job = clients
            .orchestrator
            .get_job(pb::GetJobRequest {
                name: name.to_owned(),
            })
            .await
            .map_err(status_text)?
            .into_inner();
        let settled = matches!(
            pb::JobStatus::try_from(job.status).unwrap_or_default(),
            pb::JobStatus::Paused
                | pb::JobStatus::Completed
                | pb::JobStatus::Failed
                | pb::JobStatus::Cancelled
        );
        if settled && job.version > after_version {
            return Ok(job);
        }
        if std::time::Instant::now() > deadline {
            return Err(format!("{name} did not settle within a minute").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A StartJob on `slag`, or on a solution when it is `solutions/{id}`
/// (whose routing and handoffs then pick the skill of each turn).
pub(super) fn target(slag: &str, goal: String, conversation: String) -> pb::StartJobRequest {
    match slag.strip_prefix("solutions/") {
        Some(_) => pb::StartJobRequest {
            solution: slag.to_owned(),
            goal,
            conversation,
            ..Default::default()
        },
        None => pb::StartJobRequest {
            skill: format!("skills/{slag}"),
            goal,
            conversation,
            ..Default::default()
        },
    }
}

/// A conversation: each goal starts a job; the job's asks and approvals are
/// prompted for until it ends. With a script, it ends with the script and fails
/// if the last job did not complete.
pub async fn chat(
    client: &Client,
    slag: &str,
    approver: &Client,
    script: Option<Vec<String>>,
) -> Result<(), Failure> {
    let scripted = script.is_some();
    let mut input = Input {
        script: script.map(Into::into),
    };
    let mut clients = connect(client).await?;
    let mut last_completed = true;
    // One conversation: every line after the first continues it.
    let mut conversation = String::new();
    out(&format!(
        "Chatting with {slag} on {}. An empty line ends the conversation.",
        client.server
    ));
    while let Some(goal) = input.line("you> ") {
        if goal.trim().is_empty() {
            break;
        }
        let started = clients
            .orchestrator
            .start_job(target(slag, goal, conversation.clone()))
            .await
            .map_err(status_text)?
            .into_inner();
        conversation = started.conversation.clone();
        let mut job = settle(&mut clients, &started.name, 0).await?;
        loop {
            let status = pb::JobStatus::try_from(job.status).unwrap_or_default();
            let outcome = pb::OutcomeClass::try_from(job.outcome_class).unwrap_or_default();
            let Some(waiting) = job.waiting.clone().filter(|waiting| {
                status == pb::JobStatus::Paused && !waiting.reason_code.is_empty()
            }) else {
                last_completed = status == pb::JobStatus::Completed;
                say_end(slag, &job, (status, outcome));
                break;
            };
            let version = job.version;
            if outcome == pb::OutcomeClass::Escalated {
                // A human takes it from here; the next line starts afresh.
                out(&format!(
                    "{slag}> {} An operator will reply (adas job takeover {}).",
                    waiting.prompt_message, job.name
                ));
                conversation.clear();
                last_completed = false;
                break;
            }
            if outcome == pb::OutcomeClass::UserActionRequired {
                // The widget: one prompt per requested field, with its type.
                out(&format!("{slag}> {}", waiting.prompt_message));
                let mut fields = std::collections::HashMap::new();
                for field in &waiting.fields {
                    // Labelled options (a clarification) are listed by number.
                    for (index, label) in field.option_labels.iter().enumerate() {
                        out(&format!("  {}) {label}", index + 1));
                    }
                    let options = if field.options.is_empty() || !field.option_labels.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", field.options.join("/"))
                    };
                    let Some(value) =
                        input.line(&format!("  {} ({}){options}: ", field.name, field.r#type))
                    else {
                        return finish_early(scripted);
                    };
                    fields.insert(
                        field.name.clone(),
                        prost_types::Value {
                            kind: Some(prost_types::value::Kind::StringValue(value)),
                        },
                    );
                }
                let submitted = clients
                    .dal
                    .submit_input(pb::SubmitInputRequest {
                        job: job.name.clone(),
                        correlation_id: waiting.correlation_id.clone(),
                        fields,
                        request_id: String::new(),
                    })
                    .await;
                match submitted {
                    Ok(resumed) => {
                        job = settle(&mut clients, &job.name, resumed.into_inner().version).await?
                    }
                    Err(status) => job = refused(&mut clients, slag, &job.name, &status).await?,
                }
            } else if outcome == pb::OutcomeClass::ApprovalRequired {
                let approval = waiting.approval.clone().unwrap_or_default();
                out(&format!("{slag}> {}", waiting.prompt_message));
                let Some(answer) = input.line(&format!(
                    "  approve (role needed: {})? [y/n]: ",
                    approval.approver
                )) else {
                    return finish_early(scripted);
                };
                let decision = if answer.trim().eq_ignore_ascii_case("y") {
                    pb::ApprovalDecision::Approve
                } else {
                    pb::ApprovalDecision::Reject
                } as i32;
                GateServiceClient::new(approver.channel().await?)
                    .accept_compressed(tonic::codec::CompressionEncoding::Gzip)
                    .decide_approval(pb::DecideApprovalRequest {
                        job: job.name.clone(),
                        correlation_id: waiting.correlation_id.clone(),
                        decision,
                        comment: "from adas chat".into(),
                        request_id: String::new(),
                    })
                    .await
                    .map_err(status_text)?;
                job = settle(&mut clients, &job.name, version).await?;
            } else {
                return Err(format!("unexpected waiting state {outcome:?}").into());
            }
        }
    }
    if scripted && !last_completed {
        return Err("the scripted conversation did not complete".into());
    }
    Ok(())
}

/// The job's end as the user reads it: its reply, else its status and error.
fn say_end(slag: &str, job: &pb::Job, (status, outcome): (pb::JobStatus, pb::OutcomeClass)) {
    match job.result.as_ref() {
        Some(result) if !result.reply.is_empty() => out(&format!(
            "{slag}> {}",
            result.reply.replace('\n', &format!("\n{slag}> "))
        )),
        _ => out(&format!(
            "{slag}> ({status:?}, {outcome:?}) {}",
            job.error
                .as_ref()
                .map(|error| error.message.as_str())
                .unwrap_or_default()
        )),
    }
}

/// An answer refused: the job as it stands now, and why, in the server's
/// plain words (the ask's prompt carries them; a refusal it does not is said
/// here).
async fn refused(
    clients: &mut Clients,
    slag: &str,
    name: &str,
    status: &tonic::Status,
) -> Result<pb::Job, Failure> {
    let job = clients
        .orchestrator
        .get_job(pb::GetJobRequest {
            name: name.to_owned(),
        })
        .await
        .map_err(status_text)?
        .into_inner();
    let prompt = job
        .waiting
        .as_ref()
        .map(|waiting| waiting.prompt_message.clone())
        .unwrap_or_default();
    let violations = status
        .get_details_bad_request()
        .map(|bad| bad.field_violations)
        .unwrap_or_default();
    if violations.is_empty() {
        out(&format!("{slag}> {}", status.message()));
    }
    for violation in violations {
        if !prompt.contains(&violation.description) {
            out(&format!("{slag}> {}", violation.description));
        }
    }
    Ok(job)
}

pub(super) fn finish_early(scripted: bool) -> Result<(), Failure> {
    if scripted {
        Err("the script ended while the job was still waiting".into())
    } else {
        Ok(())
    }
}
