//! `adas skill test`: a skill's `scenarios` are its author's tests. Each runs
//! as a job on the embedded suite, its tools answered by a mock MCP server
//! from `tools[].mock.examples` (no server of the skill's is needed or
//! contacted); the calls its steps name must be made. The user's words are
//! the first step's quoted text (`User says '…'`); a tool a step names is an
//! expected call. The runner never answers for the user: which intent was
//! meant, or a value asked for, only by the scenario's own later words (a
//! second `User says '…'`); a confirmation with yes only when a step says
//! the agent confirms — what was confirmed is printed — else the scenario
//! fails with the question. The skill's policy holds as written: a call
//! that needs a grant another skill issues fails here, named — `adas
//! solution test` runs such a skill's scenarios in its solution, after the
//! words of the entry skill's scenario that hand the user over.

use std::time::Duration;

use adas_proto::pb;
use serde_json::{Map, Value as Json};

use crate::client::Client;
use crate::jobs;

/// One scenario as read from the document.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// What the user says.
    pub goal: String,
    /// What the user says after (later quoted steps), in order.
    pub replies: Vec<String>,
    /// Tools its steps name, in order.
    pub expected: Vec<String>,
    /// Whether a step says the agent confirms with the user (then a
    /// confirmation is answered yes).
    pub confirms: bool,
    /// Whether its last step has the agent ask the user (then a question
    /// the scenario's words do not answer is where it ends).
    pub ends_asking: bool,
}

/// What a scenario did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The scenario.
    pub scenario: Scenario,
    /// The tools called.
    pub called: Vec<String>,
    /// Each call made, as `tool {arguments}`.
    pub calls: Vec<String>,
    /// What the runner said for the user: a yes, and to what.
    pub said: Vec<String>,
    /// Why it failed (None: passed).
    pub failure: Option<String>,
}

/// The quoted text of the first step that quotes the user.
fn user_words(steps: &[String]) -> Option<String> {
    all_user_words(steps).into_iter().next()
}

/// The quoted text of every step that quotes the user, in order.
fn all_user_words(steps: &[String]) -> Vec<String> {
    steps
        .iter()
        .filter_map(|step| {
            let lower = step.to_ascii_lowercase();
            if !lower.starts_with("user") {
                return None;
            }
            let open = step.find(['\'', '"'])?;
            let quote = step[open..].chars().next()?;
            let close = step.rfind(quote).filter(|close| *close > open)?;
            Some(step[open + 1..close].trim().to_owned()).filter(|words| !words.is_empty())
        })
        .collect()
}

/// The scenarios of `document` (the skill as JSON), with the tools each names.
pub fn scenarios(document: &Json) -> Vec<Result<Scenario, String>> {
    let tools: Vec<&str> = document["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    document["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(index, scenario)| {
            let id = scenario["id"]
                .as_str()
                .map_or_else(|| format!("scenario-{}", index + 1), str::to_owned);
            let steps: Vec<String> = scenario["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|step| step.as_str().map(str::to_owned))
                .collect();
            let goal = user_words(&steps)
                .ok_or_else(|| format!("{id}: no step quotes the user (`User says '…'`)"))?;
            let mut expected: Vec<String> = Vec::new();
            for step in &steps {
                let mut named: Vec<(usize, &str)> = tools
                    .iter()
                    .filter_map(|tool| step.find(tool).map(|at| (at, *tool)))
                    .collect();
                named.sort();
                for (_, tool) in named {
                    if !expected.iter().any(|known| known == tool) {
                        expected.push(tool.to_owned());
                    }
                }
            }
            Ok(Scenario {
                id,
                title: scenario["title"].as_str().unwrap_or_default().to_owned(),
                goal,
                replies: all_user_words(&steps).into_iter().skip(1).collect(),
                expected,
                confirms: steps.iter().any(|step| {
                    let step = step.to_ascii_lowercase();
                    !step.starts_with("user") && step.contains("confirm")
                }),
                ends_asking: steps.last().is_some_and(|step| {
                    let step = step.to_ascii_lowercase();
                    !step.starts_with("user") && step.contains(" ask")
                }),
            })
        })
        .collect()
}

/// The skill's tools as a mock server serves them.
pub fn mocks(document: &Json) -> Vec<adas_demo_mcp::MockTool> {
    document["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|tool| {
            let name = tool["name"].as_str()?.to_owned();
            let mut properties = Map::new();
            let mut required = Vec::new();
            for input in tool["inputs"].as_array().into_iter().flatten() {
                let Some(input_name) = input["name"].as_str() else {
                    continue;
                };
                let kind = match input["type"].as_str().unwrap_or("string") {
                    kind @ ("number" | "integer" | "boolean" | "object" | "array") => kind,
                    _ => "string",
                };
                properties.insert(input_name.to_owned(), serde_json::json!({"type": kind}));
                if input["required"].as_bool() == Some(true) {
                    required.push(Json::String(input_name.to_owned()));
                }
            }
            let mut schema = Map::new();
            schema.insert("type".into(), "object".into());
            schema.insert("properties".into(), Json::Object(properties));
            schema.insert("required".into(), Json::Array(required));
            let examples = tool["mock"]["examples"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|example| (example["input"].clone(), example["output"].clone()))
                .collect();
            Some(adas_demo_mcp::MockTool {
                name,
                description: tool["description"].as_str().unwrap_or_default().to_owned(),
                input_schema: schema,
                examples,
            })
        })
        .collect()
}

/// The document as the embedded suite runs it: its tools on the mock server.
pub fn on_mock_server(document: &Json, mock_url: &str) -> Json {
    let mut document = document.clone();
    if let Some(map) = document.as_object_mut() {
        map.remove("connectors");
        map.insert("mcp_server".into(), Json::String(mock_url.to_owned()));
    }
    for tool in document["tools"].as_array_mut().into_iter().flatten() {
        if let Some(tool) = tool.as_object_mut() {
            tool.remove("source");
        }
    }
    document
}

/// Where a scenario's conversation runs.
#[derive(Debug, Clone, Copy)]
pub enum Within<'a> {
    /// A job of this skill (its slag).
    Skill(&'a str),
    /// A conversation of a solution (its id) that should reach `slag`: its
    /// first turns are `prelude`'s words — the scenario of the solution's
    /// entry skill that hands the user over — so a skill that consumes grants
    /// is reached as its users reach it, by what they say.
    Solution {
        /// The solution's id.
        id: &'a str,
        /// The skill the scenario belongs to.
        slag: &'a str,
        /// The entry scenario played first, if the skill is not the entry.
        prelude: Option<&'a Scenario>,
    },
}

/// A conversation as [`converse`] left it.
#[derive(Debug, Default)]
struct Conversed {
    /// The job as it ended (None: it did not start).
    job: Option<pb::Job>,
    /// Why it could not go on.
    failure: Option<String>,
    /// What was said for the user (a yes, and to what).
    said: Vec<String>,
}

/// Starts a job for the scenario's words and plays its user until it
/// settles, never answering for them: which intent was meant and a missing
/// value are answered only by the scenario's later words, a confirmation
/// with yes only when its steps say the agent confirms (and what was
/// confirmed is reported); any other question ends it.
async fn converse(
    clients: &mut jobs::Clients,
    request: pb::StartJobRequest,
    scenario: &Scenario,
) -> Conversed {
    let mut done = Conversed::default();
    let mut job = match clients.orchestrator.start_job(request).await {
        Ok(job) => job.into_inner(),
        Err(status) => {
            done.failure = Some(jobs::status_text(status).message);
            return done;
        }
    };
    let mut replies = scenario.replies.iter();
    for _ in 0..12 {
        job = match jobs::settle(clients, &job.name, job.version).await {
            Ok(job) => job,
            Err(error) => {
                done.failure = Some(error.message);
                break;
            }
        };
        let Some(waiting) = job.waiting.clone() else {
            break;
        };
        let answer: Option<(String, String)> = match waiting.reason_code.as_str() {
            // Which intent was meant, or a value, is the user's to say: the
            // scenario's next words, or it fails with the question.
            "INTENT_CLARIFICATION_REQUIRED" | "MISSING_REQUIRED_INPUT" => {
                waiting.fields.first().and_then(|field| {
                    replies
                        .next()
                        .map(|words| (field.name.clone(), words.clone()))
                })
            }
            "ACTION_CONFIRMATION_REQUIRED" if scenario.confirms => {
                done.said
                    .push(format!("yes to \"{}\"", waiting.prompt_message));
                waiting
                    .fields
                    .first()
                    .map(|field| (field.name.clone(), "yes".to_owned()))
            }
            _ => None,
        };
        let Some((field, words)) = answer else {
            if scenario.ends_asking && replies.next().is_none() {
                done.said.push(format!(
                    "nothing: it ends asking \"{}\"",
                    waiting.prompt_message
                ));
                break;
            }
            done.failure = Some(format!(
                "the job asks, and the scenario's words do not answer: {}",
                waiting.prompt_message
            ));
            break;
        };
        let value = Json::String(words);
        if let Err(status) = clients
            .dal
            .submit_input(pb::SubmitInputRequest {
                job: job.name.clone(),
                correlation_id: waiting.correlation_id.clone(),
                fields: [(field, adas_runtime::convert::json_to_value(&value))].into(),
                ..Default::default()
            })
            .await
        {
            done.failure = Some(jobs::status_text(status).message);
            break;
        }
    }
    done.job = Some(job);
    done
}

/// Whether `scenario`, played as the first turns of a conversation of the
/// solution `id`, ends holding grants — the user handed over, by words.
pub async fn hands_over(client: &Client, id: &str, scenario: &Scenario) -> bool {
    let Ok(mut clients) = jobs::connect(client).await else {
        return false;
    };
    let request = pb::StartJobRequest {
        solution: format!("solutions/{id}"),
        goal: scenario.goal.clone(),
        ..Default::default()
    };
    let done = converse(&mut clients, request, scenario).await;
    done.failure.is_none() && done.job.is_some_and(|job| !job.grants.is_empty())
}

/// Runs one scenario on the suite at `client`, as `within` says.
pub async fn run(client: &Client, within: Within<'_>, scenario: Scenario) -> Outcome {
    let outcome = |failure: Option<String>| Outcome {
        scenario: scenario.clone(),
        called: Vec::new(),
        calls: Vec::new(),
        said: Vec::new(),
        failure,
    };
    let mut clients = match jobs::connect(client).await {
        Ok(clients) => clients,
        Err(error) => return outcome(Some(error.message)),
    };
    let mut request = pb::StartJobRequest {
        goal: scenario.goal.clone(),
        ..Default::default()
    };
    match within {
        Within::Skill(slag) => request.skill = format!("skills/{slag}"),
        Within::Solution { id, prelude, .. } => {
            request.solution = format!("solutions/{id}");
            if let Some(prelude) = prelude {
                let first = pb::StartJobRequest {
                    solution: request.solution.clone(),
                    goal: prelude.goal.clone(),
                    ..Default::default()
                };
                let done = converse(&mut clients, first, prelude).await;
                if let Some(why) = done.failure {
                    let why = format!("before it, \"{}\": {why}", prelude.goal);
                    return outcome(Some(why));
                }
                request.conversation = done.job.map(|job| job.conversation).unwrap_or_default();
            }
        }
    }
    let done = converse(&mut clients, request, &scenario).await;
    let mut failure = done.failure;
    let Some(job) = done.job else {
        return outcome(failure);
    };
    let made = job.tool_calls.iter().filter(|call| !call.is_error);
    let called: Vec<String> = made.clone().map(|call| call.tool.clone()).collect();
    let calls: Vec<String> = made
        .map(|call| {
            let arguments = call
                .arguments
                .as_ref()
                .map(adas_runtime::convert::struct_to_json)
                .unwrap_or_default();
            format!("{} {}", call.tool, Json::Object(arguments))
        })
        .collect();
    let missing: Vec<&String> = scenario
        .expected
        .iter()
        .filter(|tool| !called.contains(tool))
        .collect();
    if failure.is_none() && !missing.is_empty() {
        let mut why = job
            .error
            .as_ref()
            .map(|error| format!(" ({})", error.message))
            .unwrap_or_default();
        if let Within::Solution { slag, .. } = within
            && job.slag != slag
        {
            why.push_str(&format!(
                " (the conversation was on {}, not {slag})",
                job.slag
            ));
        }
        failure = Some(format!(
            "not called: {}{why}",
            missing
                .iter()
                .map(|tool| format!("`{tool}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Outcome {
        scenario: scenario.clone(),
        called,
        calls,
        said: done.said,
        failure,
    }
}

/// A JUnit report of the outcomes (one test case per scenario).
pub fn junit(slag: &str, outcomes: &[Outcome], took: Duration) -> String {
    let cases: Vec<(String, Option<String>)> = outcomes
        .iter()
        .map(|outcome| (outcome.scenario.id.clone(), outcome.failure.clone()))
        .collect();
    junit_cases(slag, &cases, took)
}

/// A JUnit test suite of `(name, failure)` cases.
pub fn junit_cases(slag: &str, cases: &[(String, Option<String>)], took: Duration) -> String {
    fn escape(text: &str) -> String {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    }
    let failures = cases
        .iter()
        .filter(|(_, failure)| failure.is_some())
        .count();
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" time=\"{:.3}\">\n",
        escape(slag),
        cases.len(),
        took.as_secs_f64()
    );
    for (name, failure) in cases {
        xml.push_str(&format!(
            "  <testcase classname=\"{}\" name=\"{}\">",
            escape(slag),
            escape(name)
        ));
        if let Some(failure) = failure {
            xml.push_str(&format!("<failure message=\"{}\"/>", escape(failure)));
        }
        xml.push_str("</testcase>\n");
    }
    xml.push_str("</testsuite>\n");
    xml
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_give_the_users_words_and_the_calls() {
        let document = serde_json::json!({
            "tools": [{"name": "calendar.event.list"}, {"name": "calendar.event.delete"}],
            "scenarios": [
                {"id": "cancel", "steps": [
                    "User says 'Cancel my meeting with Dave tomorrow'",
                    "Agent finds the meeting via calendar.event.list",
                    "Agent calls calendar.event.delete"
                ]},
                {"id": "quoted", "steps": [
                    "User says 'I'd like a consultation'",
                    "Agent asks which kind",
                    "User replies 'the tax one'"
                ]},
                {"steps": ["Agent does something"]}
            ]
        });
        let found = scenarios(&document);
        let cancel = found[0].clone().unwrap();
        assert_eq!(cancel.goal, "Cancel my meeting with Dave tomorrow");
        assert_eq!(
            cancel.expected,
            vec!["calendar.event.list", "calendar.event.delete"]
        );
        assert_eq!(found[1].clone().unwrap().goal, "I'd like a consultation");
        assert_eq!(found[1].clone().unwrap().replies, vec!["the tax one"]);
        assert!(cancel.replies.is_empty());
        assert!(found[2].is_err());
    }
}
