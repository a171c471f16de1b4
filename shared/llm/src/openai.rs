//! The OpenAI Chat Completions wire format (`POST {base}/chat/completions`),
//! as OpenAI, Azure OpenAI, vLLM, llama.cpp server, Ollama and LM Studio speak it.

use serde_json::{Map, Value as Json, json};

use crate::LlmError;
use crate::chat::{Request, Response, Role, Stop, ToolCall};
use crate::config::ModelConfig;

/// The URL of a call.
pub fn url(model: &ModelConfig) -> String {
    match &model.api_version {
        Some(version) => format!("{}/chat/completions?api-version={version}", model.base_url),
        None => format!("{}/chat/completions", model.base_url),
    }
}

/// Auth headers: `Authorization: Bearer` (Azure: `api-key`).
pub fn headers(model: &ModelConfig) -> Vec<(&'static str, String)> {
    match (&model.api_key, &model.api_version) {
        (Some(key), Some(_)) => vec![("api-key", key.0.clone())],
        (Some(key), None) => vec![("authorization", format!("Bearer {}", key.0))],
        (None, _) => Vec::new(),
    }
}

/// The request body.
pub fn body(model: &ModelConfig, request: &Request, max_tokens: u32) -> Json {
    let mut messages = vec![json!({"role": "system", "content": request.system})];
    for message in &request.messages {
        let role = match message.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        messages.push(json!({"role": role, "content": message.content}));
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(model.model));
    body.insert("messages".into(), Json::Array(messages));
    body.insert("max_tokens".into(), json!(max_tokens));
    if let Some(temperature) = request.temperature {
        body.insert("temperature".into(), json!(temperature));
    }
    if !request.tools.is_empty() {
        let tools: Vec<Json> = request
            .tools
            .iter()
            .map(|tool| {
                json!({"type": "function", "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.parameters,
                }})
            })
            .collect();
        body.insert("tools".into(), Json::Array(tools));
        body.insert("tool_choice".into(), json!("auto"));
    }
    if let Some((name, schema)) = &request.schema {
        body.insert(
            "response_format".into(),
            json!({"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": true}}),
        );
    }
    Json::Object(body)
}

fn malformed(what: impl Into<String>) -> LlmError {
    LlmError::Malformed(what.into())
}

/// Reads a response body.
pub fn parse(model: &ModelConfig, request: &Request, body: &Json) -> Result<Response, LlmError> {
    let usage = crate::usage_of(model, body, "prompt_tokens", "completion_tokens");
    let choice = body
        .get("choices")
        .and_then(|choices| choices.get(0))
        .ok_or_else(|| malformed("no choices[0] in the response"))?;
    let message = choice
        .get("message")
        .ok_or_else(|| malformed("no choices[0].message"))?;
    if let Some(refusal) = message.get("refusal").and_then(Json::as_str) {
        return Err(LlmError::Refused {
            usage,
            reason: refusal.chars().take(200).collect(),
        });
    }
    let stop = match choice.get("finish_reason").and_then(Json::as_str) {
        Some("stop") | None => Stop::End,
        Some("length") => Stop::Length,
        Some("tool_calls" | "function_call") => Stop::ToolUse,
        Some("content_filter") => Stop::ContentFilter,
        Some(other) => return Err(malformed(format!("unknown finish_reason `{other}`"))),
    };
    let text = message
        .get("content")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_owned();
    let mut tool_calls = Vec::new();
    for call in message
        .get("tool_calls")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        let function = call
            .get("function")
            .ok_or_else(|| malformed("a tool call without `function`"))?;
        let name = function
            .get("name")
            .and_then(Json::as_str)
            .ok_or_else(|| malformed("a tool call without a name"))?;
        let arguments = function
            .get("arguments")
            .and_then(Json::as_str)
            .unwrap_or("{}");
        let arguments: Json = serde_json::from_str(arguments).map_err(|error| {
            malformed(format!(
                "tool call `{name}` arguments are not JSON: {error}"
            ))
        })?;
        tool_calls.push(ToolCall {
            id: call
                .get("id")
                .and_then(Json::as_str)
                .unwrap_or_default()
                .to_owned(),
            name: name.to_owned(),
            arguments,
        });
    }
    crate::finish(model, request, text, tool_calls, stop, usage)
}
