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
    /// What its author asserts beyond the calls its steps name (`expect`).
    pub expect: Expect,
    /// Its `expected_outcome`: words for the reader, shown, never asserted.
    pub in_words: Option<String>,
}

/// A scenario's `expect`: how the job ends (`status`), calls made with
/// exactly these arguments (`calls: [{tool, arguments}]`; `calls: []`: none
/// at all), and words its reply holds (`reply_contains`, any case).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expect {
    /// `completed`, `failed`, `paused`, `cancelled`, or `escalated` (handed
    /// to a person, who has not replied yet).
    pub status: Option<String>,
    /// Each call the job must have made, with its arguments.
    pub calls: Vec<(String, Map<String, Json>)>,
    /// `calls: []`: the job must make no call.
    pub no_calls: bool,
    /// Words the final reply must hold.
    pub reply_contains: Vec<String>,
}

impl Expect {
    fn of(scenario: &Json) -> Self {
        let expect = &scenario["expect"];
        let texts = |value: &Json| match value {
            Json::String(one) => vec![one.clone()],
            other => other
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|item| item.as_str().map(str::to_owned))
                .collect(),
        };
        Self {
            status: expect["status"].as_str().map(str::to_ascii_lowercase),
            calls: expect["calls"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|call| {
                    let tool = call["tool"].as_str()?.to_owned();
                    let arguments = call["arguments"].as_object().cloned().unwrap_or_default();
                    Some((tool, arguments))
                })
                .collect(),
            no_calls: expect["calls"].as_array().is_some_and(Vec::is_empty),
            reply_contains: texts(&expect["reply_contains"]),
        }
    }

    /// Whether the scenario ends with the job handed to a person.
    fn escalated(&self) -> bool {
        self.status.as_deref() == Some("escalated")
    }

    /// What `job` does not do of it, one clause each.
    fn unmet(&self, job: &pb::Job, made: &[(String, Map<String, Json>)]) -> Vec<String> {
        let mut unmet = Vec::new();
        let status = pb::JobStatus::try_from(job.status)
            .map(|status| {
                status
                    .as_str_name()
                    .trim_start_matches("JOB_STATUS_")
                    .to_ascii_lowercase()
            })
            .unwrap_or_default();
        let handed = job
            .waiting
            .as_ref()
            .is_some_and(|waiting| waiting.reason_code == "HUMAN_TAKEOVER_REQUIRED");
        let status = if handed {
            "escalated".to_owned()
        } else {
            status
        };
        if let Some(wanted) = self.status.as_ref().filter(|wanted| **wanted != status) {
            unmet.push(format!("ended {status}, not {wanted}"));
        }
        if self.no_calls && !made.is_empty() {
            let tools: Vec<&str> = made.iter().map(|(tool, _)| tool.as_str()).collect();
            unmet.push(format!("no call, but it called {}", tools.join(", ")));
        }
        for (tool, arguments) in &self.calls {
            if !made
                .iter()
                .any(|(called, with)| called == tool && same_arguments(with, arguments))
            {
                unmet.push(format!(
                    "no call {tool} {}",
                    Json::Object(arguments.clone())
                ));
            }
        }
        let reply = job
            .result
            .as_ref()
            .map(|result| result.reply.to_lowercase())
            .unwrap_or_default();
        for words in &self.reply_contains {
            if !reply.contains(&words.to_lowercase()) {
                unmet.push(format!("the reply does not say \"{words}\""));
            }
        }
        unmet
    }
}

/// Arguments as made equal to those expected: the same fields, numbers
/// equal as numbers (`40` is `40.0`).
fn same_arguments(made: &Map<String, Json>, expected: &Map<String, Json>) -> bool {
    fn same(a: &Json, b: &Json) -> bool {
        match (a, b) {
            (Json::Number(a), Json::Number(b)) => a.as_f64() == b.as_f64(),
            _ => a == b,
        }
    }
    made.len() == expected.len()
        && expected
            .iter()
            .all(|(name, value)| made.get(name).is_some_and(|given| same(given, value)))
}

/// A note for each call no mock example of its tool matches (the first
/// example answered it): what the author's examples do not cover.
pub fn unmatched(
    mocks: &[adas_demo_mcp::MockTool],
    made: &[(String, Map<String, Json>)],
) -> Vec<String> {
    made.iter()
        .filter_map(|(tool, arguments)| {
            let mock = mocks.iter().find(|mock| mock.name == *tool)?;
            (!mock.examples.is_empty() && !mock.matches(arguments)).then(|| {
                format!(
                    "no mock example of {tool} matches {}: its first example answered",
                    Json::Object(arguments.clone())
                )
            })
        })
        .collect()
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
    /// Each call made: the tool and its arguments.
    pub made: Vec<(String, Map<String, Json>)>,
    /// What the author should know that is no failure (a call its mocks'
    /// examples do not cover).
    pub notes: Vec<String>,
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
                expect: Expect::of(scenario),
                in_words: scenario["expected_outcome"]
                    .as_str()
                    .map(|words| words.split_whitespace().collect::<Vec<_>>().join(" "))
                    .filter(|words| !words.is_empty()),
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
            // Handed to a person: the user's words do not answer it.
            "HUMAN_TAKEOVER_REQUIRED" if scenario.expect.escalated() => break,
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
        made: Vec::new(),
        notes: Vec::new(),
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
    let made: Vec<(String, Map<String, Json>)> = job
        .tool_calls
        .iter()
        .filter(|call| !call.is_error)
        .map(|call| {
            let arguments = call
                .arguments
                .as_ref()
                .map(adas_runtime::convert::struct_to_json)
                .unwrap_or_default();
            (call.tool.clone(), arguments)
        })
        .collect();
    let called: Vec<String> = made.iter().map(|(tool, _)| tool.clone()).collect();
    let calls: Vec<String> = made
        .iter()
        .map(|(tool, arguments)| format!("{tool} {}", Json::Object(arguments.clone())))
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
    let unmet = scenario.expect.unmet(&job, &made);
    if failure.is_none() && !unmet.is_empty() {
        failure = Some(format!("expected: {}", unmet.join("; ")));
    }
    Outcome {
        scenario: scenario.clone(),
        called,
        calls,
        said: done.said,
        made,
        notes: Vec::new(),
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
                ], "expected_outcome": "The meeting is gone,\n  Dave is told."},
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
        assert_eq!(
            cancel.in_words.as_deref(),
            Some("The meeting is gone, Dave is told.")
        );
        assert_eq!(found[1].clone().unwrap().in_words, None);
        assert!(found[2].is_err());
    }

    #[test]
    fn arguments_are_the_same_as_numbers_and_fields_alike() {
        let made = serde_json::json!({"order_id": "ORD-1", "amount": 40.0});
        let expected = serde_json::json!({"order_id": "ORD-1", "amount": 40});
        let (made, expected) = (made.as_object().unwrap(), expected.as_object().unwrap());
        assert!(same_arguments(made, expected));
        let other = serde_json::json!({"order_id": "ORD-1", "amount": 41});
        assert!(!same_arguments(made, other.as_object().unwrap()));
        let fewer = serde_json::json!({"order_id": "ORD-1"});
        assert!(!same_arguments(made, fewer.as_object().unwrap()));
        let expect = Expect::of(&serde_json::json!({"expect": {
            "status": "Completed",
            "calls": [{"tool": "refund", "arguments": {"amount": 40}}],
            "reply_contains": "refunded"
        }}));
        assert_eq!(expect.status.as_deref(), Some("completed"));
        assert_eq!(expect.calls.len(), 1);
        assert_eq!(expect.reply_contains, ["refunded"]);
        assert!(!expect.no_calls && !expect.escalated());
        let handed =
            Expect::of(&serde_json::json!({"expect": {"status": "escalated", "calls": []}}));
        assert!(handed.no_calls && handed.escalated());
        // A job waiting for a person ends "escalated"; any call breaks `calls: []`.
        let job = pb::Job {
            status: pb::JobStatus::Paused as i32,
            waiting: Some(pb::Waiting {
                reason_code: "HUMAN_TAKEOVER_REQUIRED".into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert!(handed.unmet(&job, &[]).is_empty());
        let called = [("refund".to_owned(), Map::new())];
        assert_eq!(
            handed.unmet(&job, &called),
            ["no call, but it called refund"]
        );
        assert_eq!(expect.unmet(&job, &[])[0], "ended escalated, not completed");
    }
}
