//! `adas skill test SLAG FILE.conv`: an author's scripted conversations, run
//! against a suite (`--server`) as its users would have them, reported per
//! conversation. The format is the evaluation harness's (e2e/EVAL.md), one
//! directive per line (`#` comments):
//!
//! ```text
//! skill: room-booking                header lines, before the first `===`
//! side_effects: reserve_room         tools whose unexpected calls are wrong
//! === title                          a conversation (a new one: no memory)
//! > text                             the user says it (a new turn)
//! < text                             the user answers the ask (fields joined by ` | `)
//! approve / reject                   an approver decides the held call
//! takeover text                      an operator replies to an escalated job
//! ? reason [field,...]               the job waits: ask, clarify, confirm,
//!                                    approval, recover, human, identity
//! ! tool {json arguments}            this call was made, exactly
//! = status [outcome]                 completed/paused/cancelled/failed
//! ~ text                             the reply (or the waiting prompt) contains it
//! ```
//!
//! A **wrong side-effecting call** is a call of a tool under `side_effects:`
//! that the conversation did not expect with exactly those arguments, or a
//! second execution of one it expected once — and any unexpected call whose
//! tool name the job shows masked (`book_***`), which could be any tool.

use crate::fail::Failure;
use std::time::Duration;

use adas_proto::pb;
use adas_runtime::convert::struct_to_json;
use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::client::Client;
use crate::jobs::{self, Clients};

/// One directive of a conversation, with its line number.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// `> text`.
    Say(String),
    /// `< a | b`.
    Answer(Vec<String>),
    /// `approve` / `reject`.
    Decide(bool),
    /// `takeover text`.
    Takeover(String),
    /// `? reason [fields]`.
    Waits(String, Option<Vec<String>>),
    /// `! tool {json}`.
    Called(String, Map<String, Json>),
    /// `= status [outcome]`.
    Ends(String, Option<String>),
    /// `~ text`.
    Says(String),
}

/// A conversation of a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    /// Its title (`=== title`).
    pub title: String,
    /// Its steps with their line numbers.
    pub steps: Vec<(usize, Step)>,
}

/// A parsed `.conv` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct File {
    /// Header lines (`skill`, `server`, `tuned`, …).
    pub header: Map<String, Json>,
    /// Tools whose unexpected calls are wrong.
    pub side_effects: Vec<String>,
    /// The conversations.
    pub conversations: Vec<Conversation>,
}

/// The reason codes the `?` directive names.
const REASONS: &[(&str, &str)] = &[
    ("ask", "MISSING_REQUIRED_INPUT"),
    ("clarify", "INTENT_CLARIFICATION_REQUIRED"),
    ("confirm", "ACTION_CONFIRMATION_REQUIRED"),
    ("approval", "APPROVAL_REQUIRED"),
    ("recover", "TOOL_ERROR_RECOVERY"),
    ("human", "HUMAN_TAKEOVER_REQUIRED"),
    ("identity", "IDENTITY_VERIFICATION_REQUIRED"),
];

const STATUSES: &[&str] = &["completed", "paused", "cancelled", "failed"];

/// Reads a `.conv` file; an error names its line (`LINE: why`).
pub fn parse(text: &str) -> Result<File, String> {
    let mut file = File::default();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |why: String| format!("{number}: {why}");
        if let Some(title) = line.strip_prefix("===") {
            file.conversations.push(Conversation {
                title: title.trim().to_owned(),
                steps: Vec::new(),
            });
            continue;
        }
        let Some(conversation) = file.conversations.last_mut() else {
            let (key, value) = line
                .split_once(':')
                .ok_or_else(|| fail(format!("`{line}` is neither a header nor `=== title`")))?;
            let (key, value) = (key.trim(), value.trim());
            if key == "side_effects" {
                file.side_effects = value
                    .split(',')
                    .map(str::trim)
                    .filter(|name| !name.is_empty())
                    .map(str::to_owned)
                    .collect();
            }
            file.header
                .insert(key.to_owned(), Json::String(value.to_owned()));
            continue;
        };
        let step = if let Some(text) = line.strip_prefix("> ") {
            Step::Say(text.to_owned())
        } else if let Some(text) = line.strip_prefix("< ") {
            Step::Answer(
                text.split(" | ")
                    .map(|value| value.trim().to_owned())
                    .collect(),
            )
        } else if line == "approve" || line == "reject" {
            Step::Decide(line == "approve")
        } else if let Some(text) = line.strip_prefix("takeover ") {
            Step::Takeover(text.to_owned())
        } else if let Some(rest) = line.strip_prefix("? ") {
            let mut words = rest.split_whitespace();
            let reason = words.next().unwrap_or_default();
            let code = REASONS
                .iter()
                .find(|(name, _)| *name == reason)
                .map(|(_, code)| (*code).to_owned())
                .ok_or_else(|| {
                    let names: Vec<&str> = REASONS.iter().map(|(name, _)| *name).collect();
                    fail(format!(
                        "`? {reason}`: expected one of {}",
                        names.join(", ")
                    ))
                })?;
            let fields = words
                .next()
                .map(|fields| fields.split(',').map(str::to_owned).collect());
            Step::Waits(code, fields)
        } else if let Some(rest) = line.strip_prefix("! ") {
            let (tool, arguments) = rest.split_once(' ').unwrap_or((rest, ""));
            let arguments = if arguments.trim().is_empty() {
                Map::new()
            } else {
                serde_json::from_str(arguments).map_err(|error| {
                    fail(format!(
                        "`! {tool}`: the arguments are no JSON object: {error}"
                    ))
                })?
            };
            Step::Called(tool.to_owned(), arguments)
        } else if let Some(rest) = line.strip_prefix("= ") {
            let mut words = rest.split_whitespace();
            let status = words.next().unwrap_or_default();
            if !STATUSES.contains(&status) {
                return Err(fail(format!(
                    "`= {status}`: expected one of {}",
                    STATUSES.join(", ")
                )));
            }
            Step::Ends(status.to_owned(), words.next().map(str::to_owned))
        } else if let Some(text) = line.strip_prefix("~ ") {
            Step::Says(text.to_owned())
        } else {
            return Err(fail(format!("unknown directive `{line}`")));
        };
        conversation.steps.push((number, step));
    }
    Ok(file)
}

/// Two JSON values as the same fact (`600` and `600.0`).
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, value)| y.get(key).is_some_and(|other| same(value, other)))
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        _ => a == b,
    }
}

type Call = (String, Map<String, Json>);

fn same_call(a: &Call, b: &Call) -> bool {
    a.0 == b.0 && same(&Json::Object(a.1.clone()), &Json::Object(b.1.clone()))
}

/// What one conversation did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Measures {
    /// The conversation's title.
    pub title: String,
    /// The user's lines (messages, answers, decisions).
    pub turns: u32,
    /// Distinct clarifications asked.
    pub clarifications: u32,
    /// Wrong side-effecting calls, `[tool, arguments]`.
    pub wrong: Vec<(String, Map<String, Json>)>,
    /// Expectations that did not hold (empty: correct).
    pub problems: Vec<String>,
    /// The last job's name.
    pub job: String,
}

impl Measures {
    /// Whether every expectation held and nothing wrong was done.
    pub fn passed(&self) -> bool {
        self.problems.is_empty() && self.wrong.is_empty()
    }
}

fn status_name(status: i32) -> String {
    pb::JobStatus::try_from(status)
        .map(|status| {
            status
                .as_str_name()
                .trim_start_matches("JOB_STATUS_")
                .to_lowercase()
        })
        .unwrap_or_else(|_| status.to_string())
}

fn outcome_name(outcome: i32) -> String {
    pb::OutcomeClass::try_from(outcome)
        .map(|outcome| {
            outcome
                .as_str_name()
                .trim_start_matches("OUTCOME_CLASS_")
                .to_lowercase()
        })
        .unwrap_or_else(|_| outcome.to_string())
}

/// Where a job stands, for a failure's message: its status, what it waits
/// for (reason, fields, the prompt's start) or how it ended.
fn stands(job: &pb::Job) -> String {
    let mut said = status_name(job.status);
    if let Some(waiting) = job
        .waiting
        .as_ref()
        .filter(|_| job.status == pb::JobStatus::Paused as i32)
    {
        let prompt: String = waiting.prompt_message.chars().take(120).collect();
        said += &format!(
            " {} {:?} {prompt:?}",
            waiting.reason_code, waiting.requested_fields
        );
    } else {
        said += &format!(" {}", outcome_name(job.outcome_class));
        if let Some(error) = &job.error {
            said += &format!(" {:?}", error.message.chars().take(120).collect::<String>());
        }
    }
    said
}

fn string_value(text: &str) -> prost_types::Value {
    prost_types::Value {
        kind: Some(prost_types::value::Kind::StringValue(text.to_owned())),
    }
}

/// A run of one conversation: the job of the current turn and what it did.
struct Run<'a> {
    clients: &'a mut Clients,
    slag: &'a str,
    side_effects: &'a [String],
    job: Option<pb::Job>,
    conversation: String,
    seen_calls: usize,
    made: Vec<Call>,
    expected: Vec<Call>,
    asked: Vec<String>,
    measures: Measures,
}

impl Run<'_> {
    fn job(&self) -> Result<&pb::Job, Failure> {
        self.job
            .as_ref()
            .ok_or_else(|| Failure::failed("no job yet (a `>` line first)"))
    }

    /// The job's name, version and the correlation id of what it waits for.
    fn current_ask(&self) -> Result<(String, i64, String), Failure> {
        let job = self.job()?;
        let correlation_id = job
            .waiting
            .as_ref()
            .map(|waiting| waiting.correlation_id.clone())
            .unwrap_or_default();
        Ok((job.name.clone(), job.version, correlation_id))
    }

    /// The calls the job made since last looked.
    fn note_calls(&mut self) {
        let Some(job) = &self.job else { return };
        for call in job.tool_calls.iter().skip(self.seen_calls) {
            let arguments = call
                .arguments
                .as_ref()
                .map(struct_to_json)
                .unwrap_or_default();
            self.made.push((call.tool.clone(), arguments));
        }
        self.seen_calls = job.tool_calls.len();
    }

    /// Each expected call pays for one made call; any other call of a
    /// side-effecting tool is wrong.
    fn check_side_effects(&mut self) {
        let mut unused = self.expected.clone();
        for call in &self.made {
            if let Some(at) = unused.iter().position(|expected| same_call(expected, call)) {
                unused.remove(at);
            } else if self.side_effects.contains(&call.0) || call.0.contains("***") {
                // A name the job shows masked could be any tool: it counts
                // as wrong until it can be read.
                self.measures.wrong.push(call.clone());
            }
        }
        self.made.clear();
        self.expected.clear();
    }

    async fn refresh(&mut self) -> Result<(), Failure> {
        let name = self.job()?.name.clone();
        let job = self
            .clients
            .orchestrator
            .get_job(pb::GetJobRequest { name })
            .await
            .map_err(jobs::status_text)?
            .into_inner();
        self.job = Some(job);
        Ok(())
    }

    async fn settle(&mut self, after: i64) -> Result<(), Failure> {
        let name = self.job()?.name.clone();
        self.job = Some(jobs::settle(self.clients, &name, after).await?);
        self.note_calls();
        Ok(())
    }

    async fn step(&mut self, step: &Step) -> Result<(), Failure> {
        match step {
            Step::Say(text) => self.say(text).await,
            Step::Answer(values) => self.answer(values).await,
            Step::Decide(approve) => {
                self.measures.turns += 1;
                let (name, before, correlation_id) = self.current_ask()?;
                let decision = if *approve {
                    pb::ApprovalDecision::Approve
                } else {
                    pb::ApprovalDecision::Reject
                };
                self.clients
                    .gate
                    .decide_approval(pb::DecideApprovalRequest {
                        job: name,
                        correlation_id,
                        decision: decision as i32,
                        comment: "adas skill test".into(),
                        request_id: String::new(),
                    })
                    .await
                    .map_err(jobs::status_text)?;
                self.settle(before).await
            }
            Step::Takeover(text) => {
                let (name, before, correlation_id) = self.current_ask()?;
                self.clients
                    .dal
                    .submit_input(pb::SubmitInputRequest {
                        job: name,
                        correlation_id,
                        fields: [("reply".to_owned(), string_value(text))].into(),
                        request_id: String::new(),
                    })
                    .await
                    .map_err(jobs::status_text)?;
                self.settle(before).await
            }
            Step::Waits(reason, fields) => self.waits(reason, fields.as_deref()),
            Step::Called(tool, arguments) => self.called(tool, arguments),
            Step::Ends(status, outcome) => self.ends(status, outcome.as_deref()),
            Step::Says(text) => {
                let job = self.job()?;
                let said = if job.status == pb::JobStatus::Paused as i32 {
                    job.waiting
                        .as_ref()
                        .map(|waiting| waiting.prompt_message.clone())
                        .unwrap_or_default()
                } else {
                    job.result
                        .as_ref()
                        .map(|result| result.reply.clone())
                        .unwrap_or_default()
                };
                if said.to_lowercase().contains(&text.to_lowercase()) {
                    Ok(())
                } else {
                    Err(format!("{text:?} not in {said:?}").into())
                }
            }
        }
    }

    /// `> text`: a new turn of the conversation, settled.
    async fn say(&mut self, text: &str) -> Result<(), Failure> {
        self.check_side_effects();
        self.seen_calls = 0;
        self.measures.turns += 1;
        let started = self
            .clients
            .orchestrator
            .start_job(pb::StartJobRequest {
                skill: format!("skills/{}", self.slag),
                goal: text.to_owned(),
                conversation: self.conversation.clone(),
                ..Default::default()
            })
            .await
            .map_err(jobs::status_text)?
            .into_inner();
        self.conversation = started.conversation.clone();
        self.measures.job = started.name.clone();
        self.job = Some(started);
        self.settle(0).await
    }

    /// `< a | b`: the values, to the current ask's fields in order; a
    /// refused answer leaves the job waiting, asked again.
    async fn answer(&mut self, values: &[String]) -> Result<(), Failure> {
        self.measures.turns += 1;
        let job = self.job()?;
        let waiting = job
            .waiting
            .clone()
            .filter(|_| job.status == pb::JobStatus::Paused as i32)
            .ok_or_else(|| format!("nothing to answer (status {})", status_name(job.status)))?;
        let fields = waiting
            .requested_fields
            .iter()
            .zip(values)
            .map(|(field, value)| (field.clone(), string_value(value)))
            .collect();
        let (name, before) = (job.name.clone(), job.version);
        let submitted = self
            .clients
            .dal
            .submit_input(pb::SubmitInputRequest {
                job: name,
                correlation_id: waiting.correlation_id,
                fields,
                request_id: String::new(),
            })
            .await;
        match submitted {
            Ok(_) => self.settle(before).await,
            // A refused answer leaves the job waiting, asked again.
            Err(status) if status.code() == tonic::Code::InvalidArgument => {
                self.refresh().await?;
                self.note_calls();
                Ok(())
            }
            Err(status) => Err(jobs::status_text(status)),
        }
    }

    /// `? reason [fields]`: the job waits with that reason (for those fields).
    fn waits(&mut self, reason: &str, fields: Option<&[String]>) -> Result<(), Failure> {
        let job = self.job()?;
        let waiting = job
            .waiting
            .clone()
            .filter(|_| job.status == pb::JobStatus::Paused as i32);
        let Some(waiting) = waiting.filter(|waiting| waiting.reason_code == reason) else {
            return Err(format!(
                "expected a {reason} ask, got status {} {} {:?}",
                status_name(job.status),
                job.waiting
                    .as_ref()
                    .map(|w| w.reason_code.as_str())
                    .unwrap_or(""),
                job.error.as_ref().map(|e| e.message.as_str()).unwrap_or("")
            )
            .into());
        };
        if let Some(fields) = fields
            && waiting.requested_fields != fields
        {
            return Err(format!(
                "asked for {:?}, expected {fields:?}",
                waiting.requested_fields
            )
            .into());
        }
        if reason == "INTENT_CLARIFICATION_REQUIRED"
            && !self.asked.contains(&waiting.correlation_id)
        {
            self.measures.clarifications += 1;
        }
        self.asked.push(waiting.correlation_id);
        Ok(())
    }

    /// `! tool {json}`: the conversation made that call.
    fn called(&mut self, tool: &str, arguments: &Map<String, Json>) -> Result<(), Failure> {
        let call = (tool.to_owned(), arguments.clone());
        self.expected.push(call.clone());
        if self.made.iter().any(|made| same_call(made, &call)) {
            Ok(())
        } else {
            let made: Vec<String> = self
                .made
                .iter()
                .map(|(tool, arguments)| format!("{tool}{}", Json::Object(arguments.clone())))
                .collect();
            Err(format!(
                "expected {tool}{}, made [{}]; {}",
                Json::Object(arguments.clone()),
                made.join(", "),
                self.job.as_ref().map(stands).unwrap_or_default()
            )
            .into())
        }
    }

    /// `= status [outcome]`: the job ended so.
    fn ends(&self, status: &str, outcome: Option<&str>) -> Result<(), Failure> {
        let job = self.job()?;
        let (got, got_outcome) = (status_name(job.status), outcome_name(job.outcome_class));
        if got != status {
            return Err(format!(
                "expected {status}, got {got} ({got_outcome}) {:?} waiting {:?}",
                job.error.as_ref().map(|e| e.message.as_str()).unwrap_or(""),
                job.waiting
                    .as_ref()
                    .map(|w| w.reason_code.as_str())
                    .unwrap_or("")
            )
            .into());
        }
        match outcome {
            Some(outcome) if got_outcome != outcome => {
                Err(format!("expected outcome {outcome}, got {got_outcome}").into())
            }
            _ => Ok(()),
        }
    }
}

/// Runs one conversation against the suite at `clients`.
pub async fn run(
    clients: &mut Clients,
    slag: &str,
    side_effects: &[String],
    conversation: &Conversation,
) -> Measures {
    let mut run = Run {
        clients,
        slag,
        side_effects,
        job: None,
        conversation: String::new(),
        seen_calls: 0,
        made: Vec::new(),
        expected: Vec::new(),
        asked: Vec::new(),
        measures: Measures {
            title: conversation.title.clone(),
            ..Measures::default()
        },
    };
    for (at, (line, step)) in conversation.steps.iter().enumerate() {
        if let Err(problem) = run.step(step).await {
            run.measures
                .problems
                .push(format!("line {line}: {problem}"));
            // The rest of this turn's expected calls are still expected: a
            // call the user asked for is not wrong because an earlier line
            // of the script failed.
            for (_, later) in conversation.steps[at + 1..]
                .iter()
                .take_while(|(_, later)| !matches!(later, Step::Say(_)))
            {
                if let Step::Called(tool, arguments) = later {
                    run.expected.push((tool.clone(), arguments.clone()));
                }
            }
            break;
        }
    }
    run.check_side_effects();
    run.measures
}

/// Runs every conversation of `file` on `slag` at the suite `client` names.
pub async fn run_file(client: &Client, slag: &str, file: &File) -> Result<Vec<Measures>, Failure> {
    let mut clients = jobs::connect(client).await?;
    let mut measures = Vec::new();
    for conversation in &file.conversations {
        measures.push(run(&mut clients, slag, &file.side_effects, conversation).await);
    }
    Ok(measures)
}

/// A JUnit report: one test case per conversation.
pub fn junit(slag: &str, measures: &[Measures], took: Duration) -> String {
    let cases: Vec<(String, Option<String>)> = measures
        .iter()
        .map(|measure| {
            let mut why = measure.problems.clone();
            why.extend(measure.wrong.iter().map(|(tool, arguments)| {
                format!(
                    "wrong side-effecting call {tool}{}",
                    Json::Object(arguments.clone())
                )
            }));
            (
                measure.title.clone(),
                (!why.is_empty()).then(|| why.join("; ")),
            )
        })
        .collect();
    crate::scenarios::junit_cases(slag, &cases, took)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_parses_with_its_header_and_steps() {
        let file = parse(
            "# comment\nskill: rooms\nside_effects: reserve, cancel\n\n=== one\n> hi\n? ask room,people\n< 5 | 3\n! reserve {\"room\": \"5\", \"people\": 3}\n= completed success\n~ RES-1\napprove\n",
        )
        .unwrap();
        assert_eq!(file.side_effects, vec!["reserve", "cancel"]);
        assert_eq!(file.header["skill"], "rooms");
        let steps: Vec<&Step> = file.conversations[0]
            .steps
            .iter()
            .map(|(_, step)| step)
            .collect();
        assert_eq!(steps[0], &Step::Say("hi".into()));
        assert_eq!(
            steps[1],
            &Step::Waits(
                "MISSING_REQUIRED_INPUT".into(),
                Some(vec!["room".into(), "people".into()])
            )
        );
        assert_eq!(steps[2], &Step::Answer(vec!["5".into(), "3".into()]));
        assert_eq!(
            steps[4],
            &Step::Ends("completed".into(), Some("success".into()))
        );
        assert_eq!(steps[6], &Step::Decide(true));
    }

    #[test]
    fn a_bad_line_is_named() {
        assert!(
            parse("=== x\n? maybe\n")
                .unwrap_err()
                .starts_with("2: `? maybe`")
        );
        assert!(
            parse("=== x\n! tool {oops\n")
                .unwrap_err()
                .starts_with("2: ")
        );
        assert!(parse("=== x\n= done\n").unwrap_err().starts_with("2: "));
        assert!(
            parse("=== x\nhello\n")
                .unwrap_err()
                .starts_with("2: unknown directive")
        );
        assert!(parse("hello\n").unwrap_err().starts_with("1: "));
    }

    #[test]
    fn numbers_are_the_same_fact_whatever_their_spelling() {
        let a: Call = (
            "t".into(),
            serde_json::from_str(r#"{"amount": 600}"#).unwrap(),
        );
        let b: Call = (
            "t".into(),
            serde_json::from_str(r#"{"amount": 600.0}"#).unwrap(),
        );
        assert!(same_call(&a, &b));
        let c: Call = (
            "t".into(),
            serde_json::from_str(r#"{"amount": 601}"#).unwrap(),
        );
        assert!(!same_call(&a, &c));
    }
}
