//! Side effects need certainty. Every tool is read-only or side-effecting: the
//! skill's `tools[].read_only` decides, else the MCP server's `readOnlyHint` (part
//! of the definition an admin accepted), else it has side effects. A
//! side-effecting call runs without asking only when the job's intent was
//! confident and every argument is evidence — a value the user's words matched
//! to the input (type, pattern, enum, name), an answer, the client's own context
//! or program, an earlier turn's evidence, or a previous tool's output.
//! Otherwise the job asks the user to confirm the exact call, in plain words.

use adas_skill::OperationalSkill;
use serde_json::{Map, Value as Json};

use crate::{JobRecord, same_value};

/// How deep a previous tool's output is searched for an argument's value.
const MAX_OUTPUT_DEPTH: usize = 8;

/// Whether calling `tool` again with the same arguments changes nothing more:
/// the skill's `tools[].idempotent` decides, else read-only tools are and
/// side-effecting ones are not.
pub fn idempotent(skill: &OperationalSkill, tool: &str, read_only_hint: Option<bool>) -> bool {
    let declared = skill
        .skill
        .tools
        .iter()
        .find(|declared| declared.name == tool)
        .and_then(|declared| declared.idempotent);
    declared.unwrap_or_else(|| !side_effecting(skill, tool, read_only_hint))
}

/// Whether calling `tool` may change something outside the job.
/// `read_only_hint` is the MCP server's, from the definition an admin accepted.
pub fn side_effecting(skill: &OperationalSkill, tool: &str, read_only_hint: Option<bool>) -> bool {
    // Core tools run in-process and only shape the reply.
    if tool.starts_with("sys.") {
        return false;
    }
    let declared = skill
        .skill
        .tools
        .iter()
        .find(|declared| declared.name == tool)
        .and_then(|declared| declared.read_only);
    match declared.or(read_only_hint) {
        Some(read_only) => !read_only,
        None => true,
    }
}

/// Whether a job's calls are its client's own program (no intent was guessed).
fn client_program(record: &JobRecord) -> bool {
    record.intent.as_ref().is_some_and(|intent| {
        intent.intent_id.is_empty() && !intent.out_of_domain && intent.confident
    })
}

fn in_output(output: &Json, value: &Json, depth: usize) -> bool {
    if depth > MAX_OUTPUT_DEPTH {
        return false;
    }
    match output {
        Json::Object(map) => map.values().any(|item| in_output(item, value, depth + 1)),
        Json::Array(items) => items.iter().any(|item| in_output(item, value, depth + 1)),
        scalar => same_value(scalar, value),
    }
}

/// Whether `value` for argument `name` rests on evidence.
pub fn evidenced(record: &JobRecord, name: &str, value: &Json) -> bool {
    let is = |item: &crate::Evidence| item.name == name && same_value(&item.value, value);
    // An item picked by the request's words is a guess of which was meant,
    // even though a result holds it.
    let picked = record
        .evidence
        .iter()
        .any(|item| item.source == crate::picked::PICKED && is(item));
    client_program(record)
        || record
            .evidence
            .iter()
            .any(|item| item.source != crate::picked::PICKED && is(item))
        || !picked
            && record
                .calls
                .iter()
                .filter(|call| !call.is_error)
                // A tool that echoes back what it was called with proves nothing:
                // a guessed service name does not become evidence by being looked up.
                .filter(|call| !call.arguments.values().any(|arg| same_value(arg, value)))
                .any(|call| in_output(&call.output, value, 0))
}

/// Executions of the exact call `digest` the job already made.
pub fn executions(record: &JobRecord, digest: &str) -> u32 {
    record
        .calls
        .iter()
        .filter(|call| call.call_digest == digest)
        .count() as u32
}

/// Whether the user's yes to the exact call `digest` is still unspent: a
/// confirmation authorizes one execution, so `f(x), f(x)` asks twice.
pub fn confirmed(record: &JobRecord, digest: &str) -> bool {
    let confirmations = record
        .confirmed_calls
        .iter()
        .filter(|done| *done == digest)
        .count() as u32;
    confirmations > executions(record, digest)
}

/// Who may not approve the call `tool(args)` of this job: its owner, whoever
/// answered a field the call uses, whoever confirmed it. Four eyes means the
/// person who supplied the risky value is not the one who lets it through.
pub fn took_part(record: &JobRecord, args: &Map<String, Json>, digest: &str) -> Vec<String> {
    let mut names = vec![record.owner.clone()];
    for entry in &record.audit {
        let fields = entry.detail.get("fields").and_then(Json::as_object);
        let part = match entry.action.as_str() {
            "answer" => {
                fields.is_some_and(|fields| fields.keys().any(|name| args.contains_key(name)))
            }
            "confirm" => entry
                .detail
                .get("call_digest")
                .and_then(Json::as_str)
                .is_none_or(|confirmed| confirmed == digest),
            _ => false,
        };
        if part && !names.contains(&entry.who) {
            names.push(entry.who.clone());
        }
    }
    names.retain(|name| !name.is_empty());
    names
}

/// Why a side-effecting call must be confirmed first; `None` when it may run.
pub fn confirmation_needed(
    record: &JobRecord,
    args: &Map<String, Json>,
    digest: &str,
) -> Option<String> {
    if confirmed(record, digest) {
        return None;
    }
    let confident = record
        .intent
        .as_ref()
        .is_some_and(|intent| intent.confident);
    if !confident {
        return Some("I am not sure I understood what you want".into());
    }
    let guessed: Vec<&str> = args
        .iter()
        .filter(|(name, value)| !evidenced(record, name, value))
        .map(|(name, _)| name.as_str())
        .collect();
    (!guessed.is_empty()).then(|| {
        format!(
            "I am not sure about {}",
            guessed
                .iter()
                .map(|name| name.replace('_', " "))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// The tools of a model's program that the skill's workflow for `intent_id`
/// does not name (core `sys.*` tools aside). A model that read a hostile tool
/// description or output may propose any tool; only the skill author's own
/// steps for the request run without the user's yes.
pub fn unplanned_tools(
    skill: &OperationalSkill,
    intent_id: &str,
    program: &adas_dia::Program,
) -> Vec<String> {
    let planned: Vec<String> = adas_nlu::detect::intent_tools(&skill.skill, intent_id)
        .into_iter()
        .map(|tool| tool.name.clone())
        .collect();
    let mut names = program.tool_names();
    names.retain(|name| !name.starts_with("sys.") && !planned.contains(name));
    names
}

/// Why a side-effecting call must be confirmed because the job's workflow
/// asks the user before it: a `sys.askUser` step earlier in the workflow
/// the job's intent runs ("check availability, ask the user, create the
/// event"). One yes authorizes one execution.
pub fn asked_first(
    skill: &OperationalSkill,
    record: &JobRecord,
    tool: &str,
    digest: &str,
) -> Option<String> {
    let intent_id = record.intent.as_ref()?.intent_id.as_str();
    let maps_to = skill
        .skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .find(|intent| intent.id == intent_id)
        .and_then(|intent| intent.maps_to_workflow.clone());
    let workflow = skill
        .skill
        .policy
        .iter()
        .flat_map(|policy| &policy.workflows)
        .find(|workflow| {
            workflow.trigger.as_deref() == Some(intent_id)
                || (maps_to.is_some() && workflow.id == maps_to)
        })?;
    let at = workflow.steps.iter().position(|step| step == tool)?;
    let asks = workflow.steps[..at]
        .iter()
        .any(|step| step == "sys.askUser");
    (asks && !confirmed(record, digest)).then(|| "Before this step I check with you".to_owned())
}

/// Why a side-effecting call of a tool a model added must be confirmed.
pub fn unplanned(record: &JobRecord, tool: &str, digest: &str) -> Option<String> {
    (record.unplanned_tools.iter().any(|name| name == tool) && !confirmed(record, digest))
        .then(|| "This step is not one of the usual steps for your request".to_owned())
}

/// A tool as the user knows it: its description, else its name in words.
pub fn tool_label(skill: &OperationalSkill, tool: &str) -> String {
    skill
        .skill
        .tools
        .iter()
        .find(|declared| declared.name == tool)
        .and_then(|declared| declared.description.clone())
        .filter(|description| !description.trim().is_empty())
        .map(|description| description.trim().trim_end_matches('.').to_owned())
        .unwrap_or_else(|| tool.replace(['_', '.'], " "))
}

/// A call in plain words: what the tool does and with which values
/// ("Process a customer refund — order id: ORD-9, amount: 20"); `notes`
/// says what a value stands for ("event id: EV-21 (1:1 with Dave, …)") —
/// an id picked from a lookup is shown by its item's words, since the id
/// alone (or masked) tells the user nothing.
pub fn describe_call(
    skill: &OperationalSkill,
    tool: &str,
    args: &Map<String, Json>,
    notes: &std::collections::BTreeMap<String, String>,
) -> String {
    let what = tool_label(skill, tool);
    let values = args
        .iter()
        .map(|(name, value)| {
            let value = match value {
                Json::String(text) => text.clone(),
                other => other.to_string(),
            };
            let note = notes
                .get(name)
                .map(|note| format!(" ({note})"))
                .unwrap_or_default();
            format!("{}: {value}{note}", name.replace('_', " "))
        })
        .collect::<Vec<_>>()
        .join(", ");
    if values.is_empty() {
        what
    } else {
        format!("{what} — {values}")
    }
}
