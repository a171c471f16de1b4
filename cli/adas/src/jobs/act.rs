//! `adas job` subcommands that act on jobs: watch one, answer its ask,
//! decide its approval, take it over, cancel one or many.

use super::*;

/// `adas job watch`: its events as they come (one value per event in JSON
/// or YAML, else one line each).
pub(super) async fn watch(client: &Client, name: String, output: Format) -> Result<(), Failure> {
    let mut stream = connect(client)
        .await?
        .orchestrator
        .watch_job(pb::WatchJobRequest {
            name,
            after_event_id: String::new(),
        })
        .await
        .map_err(status_text)?
        .into_inner();
    while let Some(event) = stream.message().await.map_err(status_text)? {
        if output.is_data() {
            // One value per event, as it comes (JSON lines, YAML documents).
            let value = to_json(&event, "adas.v1.JobEvent")?;
            if output == Format::Json {
                out(&value.to_string());
            } else {
                out("---");
                print_value(&value, output);
            }
            continue;
        }
        out(&format!(
            "{}\t{}\t{}",
            event.event_id,
            enum_name(pb::JobEventType::try_from(event.r#type).map(|t| t.as_str_name())),
            event.message
        ));
    }
    Ok(())
}

/// `adas job answer`: the fields, to the job's current ask.
pub(super) async fn answer(
    client: &Client,
    name: String,
    fields: Vec<(String, String)>,
    output: Format,
) -> Result<(), Failure> {
    let mut clients = connect(client).await?;
    let correlation_id = current_ask(&mut clients, &name)
        .await?
        .map(|waiting| waiting.correlation_id)
        .ok_or_else(|| not_waiting(&name, "input"))?;
    let fields = fields
        .into_iter()
        .map(|(key, value)| {
            (
                key,
                prost_types::Value {
                    kind: Some(prost_types::value::Kind::StringValue(value)),
                },
            )
        })
        .collect();
    let job = progress(
        "answering",
        clients.dal.submit_input(pb::SubmitInputRequest {
            job: name,
            correlation_id,
            fields,
            request_id: String::new(),
        }),
    )
    .await
    .map_err(status_text)?
    .into_inner();
    print_job_as(&job, output, |_| out("answered"))?;
    Ok(())
}

/// `adas job approve`: approves (or with `reject`, rejects) the job's
/// pending approval, with the approver's comment.
pub(super) async fn approve(
    client: &Client,
    name: String,
    (reject, comment): (bool, String),
    output: Format,
) -> Result<(), Failure> {
    let mut clients = connect(client).await?;
    let correlation_id = current_ask(&mut clients, &name)
        .await?
        .filter(|waiting| waiting.approval.is_some())
        .map(|waiting| waiting.correlation_id)
        .ok_or_else(|| not_waiting(&name, "an approval"))?;
    let decision = if reject {
        pb::ApprovalDecision::Reject
    } else {
        pb::ApprovalDecision::Approve
    } as i32;
    let approval = progress(
        "deciding",
        clients.gate.decide_approval(pb::DecideApprovalRequest {
            job: name,
            correlation_id,
            decision,
            comment,
            request_id: String::new(),
        }),
    )
    .await
    .map_err(status_text)?
    .into_inner();
    if output.is_data() {
        print_value(&to_json(&approval, "adas.v1.Approval")?, output);
    } else {
        out(if reject { "rejected" } else { "approved" });
    }
    Ok(())
}

/// `adas job takeover`: an operator's reply to an escalated job.
pub(super) async fn takeover(
    client: &Client,
    name: String,
    reply: String,
    output: Format,
) -> Result<(), Failure> {
    let mut clients = connect(client).await?;
    let waiting = current_ask(&mut clients, &name)
        .await?
        .filter(|waiting| waiting.reason_code == "HUMAN_TAKEOVER_REQUIRED")
        .ok_or("the job is not escalated to a human")?;
    let job = clients
        .dal
        .submit_input(pb::SubmitInputRequest {
            job: name,
            correlation_id: waiting.correlation_id,
            fields: [(
                "reply".to_owned(),
                prost_types::Value {
                    kind: Some(prost_types::value::Kind::StringValue(reply)),
                },
            )]
            .into(),
            request_id: String::new(),
        })
        .await
        .map_err(status_text)?
        .into_inner();
    print_job_as(&job, output, |_| out("replied"))?;
    Ok(())
}

/// `adas job cancel`: each job named (`-`: the names on standard input, a
/// line's first word, so `adas job list` pipes in), one CancelJob each —
/// each checked and audited as the principal's own. One job prints as
/// `job get` would; several print a line each, and any refusal fails the
/// command after the rest were tried.
pub(super) async fn cancel(
    client: &Client,
    names: Vec<String>,
    reason: &str,
    output: Format,
) -> Result<(), Failure> {
    let mut all = Vec::new();
    for name in names {
        if name == "-" {
            for line in std::io::stdin().lock().lines() {
                let line = line.map_err(|error| Failure::failed(error.to_string()))?;
                if let Some(word) = line
                    .split_whitespace()
                    .next()
                    .filter(|word| word.starts_with("skills/"))
                {
                    all.push(word.to_owned());
                }
            }
        } else {
            all.push(name);
        }
    }
    let mut orchestrator = connect(client).await?.orchestrator;
    let single = all.len() == 1;
    let mut first_failure = None;
    for name in all {
        let cancelled = orchestrator
            .cancel_job(pb::CancelJobRequest {
                name: name.clone(),
                reason: reason.to_owned(),
                request_id: String::new(),
            })
            .await;
        match cancelled {
            Ok(job) if single => print_job_as(&job.into_inner(), output, |_| out("cancelled"))?,
            Ok(_) => out(&format!("{name}\tcancelled")),
            Err(status) if single => return Err(status_text(status)),
            Err(status) => {
                out(&format!("{name}\t{}", status.message()));
                first_failure.get_or_insert(status);
            }
        }
    }
    match first_failure {
        Some(status) => Err(status_text(status)),
        None => Ok(()),
    }
}
