//! The provider-neutral shape of one model call and its answer; `openai.rs`
//! and `anthropic.rs` translate it to and from each wire format.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

pub use crate::Usage;

/// A message role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user (ADAS's task text, with data fenced).
    User,
    /// The model's earlier turn (a repair round quotes it).
    Assistant,
}

/// One message after the system prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who says it.
    pub role: Role,
    /// What.
    pub content: String,
}

/// A tool the model may call (function calling).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// JSON Schema of the arguments.
    pub parameters: Json,
}

/// One call to a model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Request {
    /// Instructions.
    pub system: String,
    /// The conversation.
    pub messages: Vec<Message>,
    /// Tools offered (function calling).
    pub tools: Vec<ToolDef>,
    /// Structured output: the answer must be a JSON value of this schema
    /// (OpenAI `response_format` json_schema; Anthropic a forced tool).
    pub schema: Option<(String, Json)>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
}

impl Request {
    /// A system prompt and one user message.
    pub fn new(system: impl Into<String>, user: impl Into<String>) -> Self {
        Self {
            system: system.into(),
            messages: vec![Message {
                role: Role::User,
                content: user.into(),
            }],
            ..Self::default()
        }
    }

    /// With a structured output schema.
    pub fn with_schema(mut self, name: &str, schema: Json) -> Self {
        self.schema = Some((name.to_owned(), schema));
        self
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// A complete answer.
    End,
    /// It wants tools called.
    ToolUse,
    /// Cut at the token limit.
    Length,
    /// It refused.
    Refusal,
    /// A content filter stopped it.
    ContentFilter,
}

/// A tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id of the call.
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Arguments (an object; malformed argument text is refused before this).
    pub arguments: Json,
}

/// A model's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The configured model's name.
    pub model: String,
    /// Text content (empty when it only called tools).
    pub text: String,
    /// The structured answer, when the request had a schema.
    pub json: Option<Json>,
    /// Tool calls.
    pub tool_calls: Vec<ToolCall>,
    /// Why it stopped.
    pub stop: Stop,
    /// What it cost.
    pub usage: Usage,
}
