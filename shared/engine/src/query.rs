//! QUERY_FILL, QUERY_USER and QUERY_GATHER answered by the base model over a
//! job's declared query sources (spec 003): the skill's resources with the
//! values the job bound (credentials never), and the outputs of the calls the
//! job made. The sources enter the prompt as fenced data; the model writes an
//! explanation grounded in them first, then the answer.
//!
//! What a model computes is never evidence: a QUERY_FILL value in a
//! side-effecting call still needs the user's confirmation (certainty.rs), and
//! a gathered program is checked against the catalog like a planned one.

use std::sync::Arc;

use adas_dia::{QueryError, QuerySource};
use adas_llm::prompt::{PREAMBLE, fence, fence_json};
use adas_llm::{Llm, Request, Session, Usage};
use adas_skill::OperationalSkill;
use async_trait::async_trait;
use serde_json::{Map, Value as Json, json};
use tokio::sync::Mutex;

use adas_step::JobRecord;

/// Longest source text shown to the model, in characters.
const MAX_SOURCE_CHARS: usize = 8000;

/// The model behind a job's queries.
pub struct ModelQuerySource<'a> {
    session: Mutex<Session<'a>>,
    skill: Arc<OperationalSkill>,
    sources: Map<String, Json>,
    message: String,
}

impl std::fmt::Debug for ModelQuerySource<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ModelQuerySource")
            .field("sources", &self.sources.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// A job's query sources by name: `resource:<name>` and `tool:<name>`.
pub fn sources_of(skill: &OperationalSkill, record: &JobRecord) -> Map<String, Json> {
    let mut sources = Map::new();
    for declared in &skill.skill.resources {
        if declared.kind == "credential" {
            continue;
        }
        let value = record.resources.get(&declared.name).cloned();
        sources.insert(
            format!("resource:{}", declared.name),
            json!({"type": declared.kind, "description": declared.description, "value": value}),
        );
    }
    for call in record.calls.iter().filter(|call| !call.is_error) {
        sources.insert(format!("tool:{}", call.tool), call.output.clone());
    }
    sources
}

/// The model that answers `QUERY_*` questions of plans, as the DAL-Agent
/// holds it (opaque: who resolves a plan needs no model API).
#[derive(Debug, Clone)]
pub struct QueryModel(Llm);

impl QueryModel {
    /// Queries answered by `llm`.
    pub fn new(llm: Llm) -> Self {
        Self(llm)
    }

    /// A source for one job's resolution step; `None` when the skill's
    /// model is not configured.
    pub fn source(
        &self,
        skill: Arc<OperationalSkill>,
        record: &JobRecord,
    ) -> Option<ModelQuerySource<'_>> {
        ModelQuerySource::new(&self.0, skill, record)
    }
}

impl<'a> ModelQuerySource<'a> {
    /// A source for one job's resolution step; `None` without a model.
    pub fn new(llm: &'a Llm, skill: Arc<OperationalSkill>, record: &JobRecord) -> Option<Self> {
        let session = llm
            .session(skill.engine.model.as_deref(), record.llm.tokens())?
            .masking(&adas_step::personal_values(record));
        Some(Self {
            session: Mutex::new(session),
            sources: sources_of(&skill, record),
            skill,
            message: record.goal.clone(),
        })
    }

    /// What the queries cost.
    pub async fn usage(&self) -> Usage {
        self.session.lock().await.usage
    }

    fn sources_text(&self, wanted: &str) -> String {
        let names: Vec<&str> = wanted
            .split([',', ' '])
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .collect();
        let chosen: Map<String, Json> = self
            .sources
            .iter()
            .filter(|(name, _)| {
                names.is_empty()
                    || names.iter().any(|wanted| {
                        name.as_str() == *wanted || name.ends_with(&format!(":{wanted}"))
                    })
            })
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let mut text = Json::Object(chosen).to_string();
        if text.chars().count() > MAX_SOURCE_CHARS {
            text = text.chars().take(MAX_SOURCE_CHARS).collect::<String>() + "…";
        }
        fence("query_sources", &text)
    }

    async fn ask(
        &self,
        task: &str,
        query: &str,
        sources: &str,
        answer_field: &str,
    ) -> Result<String, QueryError> {
        let schema = json!({
            "type": "object",
            "properties": {"explanation": {"type": "string"}, answer_field: {"type": "string"}},
            "required": ["explanation", answer_field],
            "additionalProperties": false
        });
        let system = format!(
            "{PREAMBLE}{task} First write an explanation based only on the sources, then the {answer_field} grounded in that explanation. \
             If the sources do not contain it, leave the {answer_field} empty."
        );
        let user = format!(
            "{}{}{}",
            self.sources_text(sources),
            fence("user_message", &self.message),
            fence("query", query)
        );
        let request = Request::new(system, user).with_schema("query_answer", schema);
        let answer = self
            .session
            .lock()
            .await
            .call(&request)
            .await
            .map_err(|error| QueryError(error.to_string()))?;
        let text = answer
            .json
            .as_ref()
            .and_then(|json| json.get(answer_field))
            .and_then(Json::as_str)
            .unwrap_or("")
            .trim()
            .to_owned();
        if text.is_empty() {
            return Err(QueryError("the sources do not say".into()));
        }
        Ok(text)
    }
}

#[async_trait]
impl QuerySource for ModelQuerySource<'_> {
    async fn fill(&self, query: &str, field: &str) -> Result<Json, QueryError> {
        let task = format!("Task: compute the value of the slot `{field}` from the query sources.");
        let value = self.ask(&task, query, "", "value").await?;
        Ok(value
            .parse::<f64>()
            .ok()
            .filter(|number| number.is_finite())
            .map_or_else(|| json!(value), |number| json!(number)))
    }

    async fn answer(&self, query: &str) -> Result<String, QueryError> {
        self.ask(
            "Task: answer the user's question from the query sources, for the user to review.",
            query,
            "",
            "answer",
        )
        .await
    }

    async fn gather(&self, query: &str, sources: &str) -> Result<String, QueryError> {
        let information = self
            .ask(
                "Task: gather the information from the query sources that the request needs.",
                query,
                sources,
                "information",
            )
            .await?;
        // Then the plan from the request and what was gathered.
        let tools = Json::Array(
            self.skill
                .skill
                .tools
                .iter()
                .map(|tool| json!({"name": tool.name, "inputs": tool.inputs.iter().map(|input| &input.name).collect::<Vec<_>>()}))
                .collect(),
        );
        let system = format!(
            "{PREAMBLE}Task: write a DIA program (calls like `tool(arg=\"text\", n=3)`) that serves the request using the gathered information. \
             Use only the listed tools and inputs; write ASK(\"question\") for anything not known."
        );
        let user = format!(
            "{}{}{}",
            fence_json("tools", &tools),
            fence("request", query),
            fence("gathered_information", &information)
        );
        let schema = json!({
            "type": "object",
            "properties": {"explanation": {"type": "string"}, "program": {"type": "string"}},
            "required": ["explanation", "program"],
            "additionalProperties": false
        });
        let answer = self
            .session
            .lock()
            .await
            .call(&Request::new(system, user).with_schema("gathered_plan", schema))
            .await
            .map_err(|error| QueryError(error.to_string()))?;
        let program = answer
            .json
            .as_ref()
            .and_then(|json| json.get("program"))
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_owned();
        crate::model::check_program(&self.skill.skill, &program).map_err(QueryError)?;
        Ok(program)
    }
}
