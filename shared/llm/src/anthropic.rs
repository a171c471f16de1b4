//! The Anthropic Messages wire format (`POST {base}/v1/messages`). Structured
//! output is a forced tool whose input schema is the answer's schema.

use serde_json::{Map, Value as Json, json};

use crate::LlmError;
use crate::chat::{Request, Response, Role, Stop, ToolCall};
use crate::config::ModelConfig;

/// The API version header ADAS speaks.
pub const VERSION: &str = "2023-06-01";

/// The URL of a call.
pub fn url(model: &ModelConfig) -> String {
    format!("{}/v1/messages", model.base_url)
}

/// Auth and version headers.
pub fn headers(model: &ModelConfig) -> Vec<(&'static str, String)> {
    let mut headers = vec![("anthropic-version", VERSION.to_owned())];
    if let Some(key) = &model.api_key {
        headers.push(("x-api-key", key.0.clone()));
    }
    headers
}

/// The request body.
pub fn body(model: &ModelConfig, request: &Request, max_tokens: u32) -> Json {
    let messages: Vec<Json> = request
        .messages
        .iter()
        .map(|message| {
            let role = match message.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            json!({"role": role, "content": message.content})
        })
        .collect();
    let mut body = Map::new();
    body.insert("model".into(), json!(model.model));
    body.insert("max_tokens".into(), json!(max_tokens));
    body.insert("system".into(), json!(request.system));
    body.insert("messages".into(), Json::Array(messages));
    if let Some(temperature) = request.temperature {
        body.insert("temperature".into(), json!(temperature.min(1.0)));
    }
    let mut tools: Vec<Json> = request
        .tools
        .iter()
        .map(|tool| {
            json!({"name": tool.name, "description": tool.description, "input_schema": tool.parameters})
        })
        .collect();
    if let Some((name, schema)) = &request.schema {
        tools.push(json!({"name": name, "description": "Give the answer in this shape.", "input_schema": schema}));
        body.insert("tool_choice".into(), json!({"type": "tool", "name": name}));
    }
    if !tools.is_empty() {
        body.insert("tools".into(), Json::Array(tools));
    }
    Json::Object(body)
}

/// Reads a response body.
pub fn parse(model: &ModelConfig, request: &Request, body: &Json) -> Result<Response, LlmError> {
    let usage = crate::usage_of(model, body, "input_tokens", "output_tokens");
    let stop = match body.get("stop_reason").and_then(Json::as_str) {
        Some("end_turn" | "stop_sequence" | "pause_turn") | None => Stop::End,
        Some("tool_use") => Stop::ToolUse,
        Some("max_tokens") => Stop::Length,
        Some("refusal") => Stop::Refusal,
        Some(other) => {
            return Err(LlmError::Malformed(format!(
                "unknown stop_reason `{other}`"
            )));
        }
    };
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in body
        .get("content")
        .and_then(Json::as_array)
        .ok_or_else(|| LlmError::Malformed("no `content` array in the response".into()))?
    {
        match block.get("type").and_then(Json::as_str) {
            Some("text") => text.push_str(block.get("text").and_then(Json::as_str).unwrap_or("")),
            Some("tool_use") => tool_calls.push(ToolCall {
                id: block
                    .get("id")
                    .and_then(Json::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                name: block
                    .get("name")
                    .and_then(Json::as_str)
                    .ok_or_else(|| LlmError::Malformed("a tool_use block without a name".into()))?
                    .to_owned(),
                arguments: block.get("input").cloned().unwrap_or(Json::Null),
            }),
            // Thinking and other blocks carry nothing ADAS uses.
            _ => {}
        }
    }
    if stop == Stop::Refusal {
        return Err(LlmError::Refused {
            usage,
            reason: text.chars().take(200).collect(),
        });
    }
    // The forced answer tool is the structured output, not a call to make.
    let answer_name = request.schema.as_ref().map(|(name, _)| name.as_str());
    let mut answer = None;
    tool_calls.retain(|call| {
        if Some(call.name.as_str()) == answer_name {
            answer = Some(call.arguments.clone());
            false
        } else {
            true
        }
    });
    if let Some(answer) = answer {
        return Ok(Response {
            model: model.name.clone(),
            text,
            json: Some(answer),
            tool_calls,
            stop: if stop == Stop::ToolUse {
                Stop::End
            } else {
                stop
            },
            usage,
        })
        .and_then(|response| crate::check_complete(response, request));
    }
    crate::finish(model, request, text, tool_calls, stop, usage)
}
