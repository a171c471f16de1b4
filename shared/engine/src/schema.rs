//! A tool's full input schema as asks check it: the server's, with what the
//! skill declares for each input added; answers and arguments that do not fit.

use adas_dia::InteractionKind;
use adas_skill::OperationalSkill;
use serde_json::{Map, Value as Json, json};

use adas_jobs::Waiting;

/// A tool's full input schema: the server's (nested objects, formats,
/// patterns, bounds as served), with what the skill declares for each input
/// (type, enum, `pattern`, `format`) added where the server says nothing.
pub fn input_schema(
    skill: &OperationalSkill,
    tool: &str,
    spec: Option<&adas_tools::ToolSpec>,
) -> Json {
    let mut schema = spec
        .map(|spec| spec.input_schema.clone())
        .filter(Json::is_object)
        .unwrap_or_else(|| json!({"type": "object"}));
    let Some(declared) = skill
        .skill
        .tools
        .iter()
        .find(|declared| declared.name == tool)
    else {
        return schema;
    };
    let Some(object) = schema.as_object_mut() else {
        return schema;
    };
    let properties = object.entry("properties").or_insert_with(|| json!({}));
    let Some(properties) = properties.as_object_mut() else {
        return schema;
    };
    for input in &declared.inputs {
        let property = properties
            .entry(input.name.clone())
            .or_insert_with(|| json!({}));
        let Some(property) = property.as_object_mut() else {
            continue;
        };
        let kind = input.kind.as_deref().unwrap_or("string").to_lowercase();
        let (json_type, format) = match kind.as_str() {
            "number" | "money" => ("number", None),
            "integer" => ("integer", None),
            "boolean" => ("boolean", None),
            "email" => ("string", Some("email")),
            "date" => ("string", Some("date")),
            "array" | "list" => ("array", None),
            "object" => ("object", None),
            _ => ("string", None),
        };
        property.entry("type").or_insert_with(|| json!(json_type));
        if let Some(format) = input.format.as_deref().or(format) {
            property.entry("format").or_insert_with(|| json!(format));
        }
        if let Some(pattern) = &input.pattern {
            property.entry("pattern").or_insert_with(|| json!(pattern));
        }
        if !input.allowed.is_empty() {
            property
                .entry("enum")
                .or_insert_with(|| json!(input.allowed));
        }
    }
    schema
}

/// Answers to tool inputs checked against the input's full schema (format,
/// pattern, enum, bounds): `(field, why)` for each that does not fit.
pub(crate) fn answer_misfits(
    skill: &OperationalSkill,
    specs: &[adas_tools::ToolSpec],
    plan: &adas_dia::Plan,
    waiting: &Waiting,
) -> Vec<(String, String)> {
    let mut violations = Vec::new();
    for field in &waiting.fields {
        let Some(interaction) = &field.interaction else {
            continue;
        };
        if interaction.kind != InteractionKind::Ask {
            continue;
        }
        let Some(value) =
            adas_dia::node_at(&plan.program, &interaction.path).and_then(adas_dia::Node::to_json)
        else {
            continue;
        };
        let schema = input_schema(
            skill,
            &interaction.intent,
            specs.iter().find(|spec| spec.name == interaction.intent),
        );
        let Some(property) = schema
            .get("properties")
            .and_then(|properties| properties.get(&interaction.field))
        else {
            continue;
        };
        if let Some((_, why)) = adas_tools::schema_problems(property, &value)
            .into_iter()
            .next()
        {
            violations.push((field.name.clone(), why));
        }
    }
    violations
}

/// The arguments of a call that do not fit the tool's full input schema.
pub(crate) fn misfits(
    skill: &OperationalSkill,
    specs: &[adas_tools::ToolSpec],
    tool: &str,
    args: &Map<String, Json>,
) -> Vec<String> {
    if tool.starts_with("sys.") {
        return Vec::new();
    }
    let schema = input_schema(skill, tool, specs.iter().find(|spec| spec.name == tool));
    let mut bad: Vec<String> = adas_tools::schema_problems(&schema, &Json::Object(args.clone()))
        .into_iter()
        .map(|(field, _)| field)
        .filter(|field| args.contains_key(field))
        .collect();
    bad.sort();
    bad.dedup();
    bad
}
