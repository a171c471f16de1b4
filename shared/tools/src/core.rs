//! Core tools: built in, `sys.*`, run in-process. `sys.askUser` asks under the
//! waiting contract, never by itself: its `answer` is an input the job pauses
//! for (DalAgent asks, validates and resumes, spec 000), and as a workflow
//! step it makes the next side effect wait for the user's yes to the exact
//! call.

use serde_json::{Map, Value as Json, json};

use crate::spec::{ToolSource, ToolSpec};

/// The core tool set.
pub fn core_tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec::from_schema(
            "sys.echo",
            "Returns its input unchanged (a harmless tool for tests and demos)",
            json!({"type": "object", "properties": {"text": {"type": "string", "description": "Text to echo"}}, "required": ["text"]}),
            ToolSource::Core,
        ),
        ToolSpec::from_schema(
            "sys.emitUserMessage",
            "Sends a message to the user as part of the reply",
            json!({"type": "object", "properties": {"text": {"type": "string", "description": "The message"}}, "required": ["text"]}),
            ToolSource::Core,
        ),
        ToolSpec::from_schema(
            "sys.askUser",
            "Asks the user a question and returns their answer (the job waits for it)",
            json!({
                "type": "object",
                "properties": {
                    "question": {"type": "string", "description": "What to ask"},
                    "answer": {"type": "string", "maxLength": 2000, "description": "The user's answer (asked for when missing)"}
                },
                "required": ["question", "answer"]
            }),
            ToolSource::Core,
        ),
        ToolSpec::from_schema(
            "sys.escalate",
            "Hands the conversation to a human team",
            json!({
                "type": "object",
                "properties": {
                    "reason": {"type": "string", "description": "Why a human is needed"},
                    "target": {"type": "string", "description": "Team or queue to hand over to"}
                },
                "required": ["reason"]
            }),
            ToolSource::Core,
        ),
    ]
}

/// Why a core tool call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoreToolError {
    /// No such core tool.
    #[error("no core tool `{0}`")]
    Unknown(String),
    /// An argument is missing or has the wrong type.
    #[error("`{tool}`: argument `{argument}` must be a string")]
    BadArgument {
        /// The tool.
        tool: String,
        /// The argument.
        argument: String,
    },
}

/// Runs a core tool.
pub fn run_core(tool: &str, args: &Map<String, Json>) -> Result<Json, CoreToolError> {
    let text = |name: &str| {
        args.get(name)
            .and_then(Json::as_str)
            .map(str::to_owned)
            .ok_or_else(|| CoreToolError::BadArgument {
                tool: tool.to_owned(),
                argument: name.to_owned(),
            })
    };
    match tool {
        "sys.echo" => Ok(json!({"text": text("text")?})),
        "sys.emitUserMessage" => Ok(json!({"delivered": true, "text": text("text")?})),
        "sys.askUser" => Ok(json!({"question": text("question")?, "answer": text("answer")?})),
        "sys.escalate" => {
            let target = args
                .get("target")
                .and_then(Json::as_str)
                .unwrap_or("human-support");
            Ok(json!({"escalated": true, "reason": text("reason")?, "target": target}))
        }
        other => Err(CoreToolError::Unknown(other.to_owned())),
    }
}
