//! ToolSpec: what DalAgent needs to know about a tool — its required inputs and
//! their types — whether it comes from the core set or an MCP server.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

/// Where a tool is implemented.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolSource {
    /// A built-in `sys.*` tool, run in-process.
    Core,
    /// A tool of an MCP server.
    Mcp {
        /// The server URI.
        uri: String,
    },
}

fn is_available(availability: &Availability) -> bool {
    *availability == Availability::Available
}

/// One input of a tool.
#[derive(Debug, Clone, PartialEq, Hash, Serialize, Deserialize)]
pub struct ToolInputSpec {
    /// Argument name.
    pub name: String,
    /// JSON schema type name (`string`, `number`, `integer`, `boolean`, `object`, `array`).
    pub kind: String,
    /// Whether a call needs it.
    pub required: bool,
    /// What it is.
    pub description: String,
    /// Allowed values, if restricted.
    pub allowed: Vec<Json>,
}

/// What a job of a skill may do with a resolved tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Availability {
    /// Jobs may call it (the gate still judges each call).
    #[default]
    Available,
    /// Declared by the skill, not offered by its server.
    NotServed,
    /// Offered, but new or changed since it was accepted.
    Unaccepted,
    /// Offered by the server, not declared by the skill: never called.
    Undeclared,
    /// Never allowed by the skill's policy (`allowed: never`, blocked, …).
    NeverAllowed,
    /// Callable, each call waiting for an approver.
    NeedsApproval,
    /// Never called until the skill names who approves it.
    Held,
}

impl Availability {
    /// Its name for people (`adas skill tools`, the console).
    pub fn label(self) -> &'static str {
        match self {
            Self::Available => "available",
            Self::NotServed => "not served",
            Self::Unaccepted => "not accepted",
            Self::Undeclared => "undeclared",
            Self::NeverAllowed => "never allowed",
            Self::NeedsApproval => "needs approval",
            Self::Held => "held: needs an approver",
        }
    }
}

/// A tool a skill can call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Tool name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Inputs, required first, then by name.
    pub inputs: Vec<ToolInputSpec>,
    /// The JSON schema of the input, as given.
    pub input_schema: Json,
    /// Where it comes from.
    pub source: ToolSource,
    /// Whether it can be called.
    pub available: bool,
    /// Why it cannot, when unavailable.
    pub unavailable_reason: Option<String>,
    /// What jobs may do with it (a resolution sets it; lists keep the default).
    #[serde(default, skip_serializing_if = "is_available")]
    pub availability: Availability,
    /// The server's MCP `readOnlyHint`. A hint, trusted only as part of the
    /// definition an admin accepted (it is in the pinned digest); a skill's
    /// `read_only` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The server's own name for it, when the skill calls it by another
    /// (`tools[].source.mcp_tool` on a connection).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote_name: Option<String>,
}

impl ToolSpec {
    /// Builds a spec from a JSON schema (`properties`, `required`, `type`, `enum`, `description`).
    pub fn from_schema(name: &str, description: &str, schema: Json, source: ToolSource) -> Self {
        let empty = Map::new();
        let properties = schema
            .get("properties")
            .and_then(Json::as_object)
            .unwrap_or(&empty);
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Json::as_array)
            .map(|names| names.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();
        let mut inputs: Vec<ToolInputSpec> = properties
            .iter()
            .map(|(input, property)| ToolInputSpec {
                name: input.clone(),
                kind: schema_type(property),
                required: required.contains(&input.as_str()),
                description: property
                    .get("description")
                    .and_then(Json::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                allowed: property
                    .get("enum")
                    .and_then(Json::as_array)
                    .cloned()
                    .unwrap_or_default(),
            })
            .collect();
        inputs.sort_by(|a, b| {
            b.required
                .cmp(&a.required)
                .then_with(|| a.name.cmp(&b.name))
        });
        Self {
            name: name.to_owned(),
            description: description.to_owned(),
            inputs,
            input_schema: schema,
            source,
            available: true,
            unavailable_reason: None,
            availability: Availability::Available,
            read_only_hint: None,
            remote_name: None,
        }
    }

    /// The spec with the server's `readOnlyHint`.
    pub fn with_read_only_hint(mut self, hint: Option<bool>) -> Self {
        self.read_only_hint = hint;
        self
    }

    /// Names of the required inputs.
    pub fn required_inputs(&self) -> impl Iterator<Item = &str> {
        self.inputs
            .iter()
            .filter(|input| input.required)
            .map(|input| input.name.as_str())
    }
}

/// The type of a JSON schema property (`["string","null"]` counts as string).
fn schema_type(property: &Json) -> String {
    match property.get("type") {
        Some(Json::String(kind)) => kind.clone(),
        Some(Json::Array(kinds)) => kinds
            .iter()
            .filter_map(Json::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("string")
            .to_owned(),
        _ if property.get("enum").is_some() => "string".to_owned(),
        _ => "any".to_owned(),
    }
}

/// Problems of `instance` against a JSON Schema, as `(field, why)` pairs: the
/// field is the first segment of the failing instance path (empty for the
/// whole instance). Formats (`email`, `date`, …) are checked. A schema that
/// does not compile yields one problem naming it, so nothing unchecked passes.
pub fn schema_problems(schema: &Json, instance: &Json) -> Vec<(String, String)> {
    let validator = match compiled(schema) {
        Ok(validator) => validator,
        Err(error) => {
            return vec![(
                String::new(),
                format!("the tool's schema is invalid: {error}"),
            )];
        }
    };
    validator
        .iter_errors(instance)
        .map(|error| {
            let path = error.instance_path().as_str().to_owned();
            let field = path
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or_default()
                .to_owned();
            (field, error.to_string())
        })
        .collect()
}

/// Schemas a process keeps compiled (distinct tool inputs across its skills).
const COMPILED_MAX: usize = 1024;

/// `schema`'s validator, compiled once per process: a job checks the same few
/// schemas on every step, and compiling one costs far more than checking an
/// instance. Keyed by the schema's exact JSON text, so two schemas never share
/// a validator.
fn compiled(schema: &Json) -> Result<Arc<jsonschema::Validator>, String> {
    static COMPILED: LazyLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> =
        LazyLock::new(Mutex::default);
    let key = schema.to_string();
    let kept = || COMPILED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(validator) = kept().get(&key) {
        return Ok(validator.clone());
    }
    let validator = Arc::new(
        jsonschema::options()
            .should_validate_formats(true)
            .build(schema)
            .map_err(|error| error.to_string())?,
    );
    let mut kept = kept();
    if kept.len() >= COMPILED_MAX {
        kept.clear();
    }
    kept.insert(key, validator.clone());
    Ok(validator)
}
