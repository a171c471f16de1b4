//! Which tools an intent calls, and which of them only read — as the skill
//! says, else as the tool's own name says. A Skill Builder export often maps
//! only its actions to workflows and marks nothing `read_only` (the MCP
//! server's annotations carry that): its lookups must still be read as
//! lookups, or every question is held to the rules of a side effect.
//!
//! This is understanding only: the gate judges every call by the skill's
//! `read_only` and the server's `readOnlyHint`, never by a name.

use adas_skill::model::{Skill, Tool};

/// Verbs a tool's name opens or ends with when it only reads.
const READ_VERBS: &[&str] = &[
    "get",
    "list",
    "check",
    "find",
    "search",
    "lookup",
    "look",
    "view",
    "show",
    "fetch",
    "read",
    "track",
    "query",
    "status",
    "quote",
    "describe",
    "count",
    "estimate",
    "preview",
    "browse",
    "verify",
    "info",
    "details",
    "history",
    "balance",
    "availability",
];

/// Verbs that change something: a name with one is no read.
const WRITE_VERBS: &[&str] = &[
    "create", "update", "delete", "cancel", "book", "submit", "order", "issue", "add", "remove",
    "set", "change", "move", "transfer", "reserve", "pay", "refund", "send", "reset", "revoke",
    "grant", "register", "reject", "rerun", "apply", "adjust", "take", "log", "report", "approve",
    "schedule", "raise", "receive", "make", "place", "assign", "close", "open", "upgrade", "claim",
    "file", "request", "in", "out", "disable", "enable", "write", "post", "put", "amend", "void",
    "renew", "extend", "freeze", "block", "unblock", "unlock", "lock", "sign", "mark",
];

/// Whether a tool only reads, for understanding a request: the skill's
/// `read_only` when it says, else its name's verb — the first word
/// (`get_payslip`, `check_claim_status`: a read; `create_order`: not), else
/// the last (`calendar.event.list`, `vehicle_status`). "check in" and
/// "check out" change something.
pub fn reads(tool: &Tool) -> bool {
    tool.read_only.unwrap_or_else(|| {
        let words: Vec<String> = tool
            .name
            .split(['_', '.', '-'])
            .filter(|word| !word.is_empty())
            .map(str::to_lowercase)
            .collect();
        let is = |word: Option<&String>, verbs: &[&str]| {
            word.is_some_and(|word| verbs.contains(&word.as_str()))
        };
        let (first, second, last) = (words.first(), words.get(1), words.last());
        if is(first, &["check"]) && is(second, &["in", "out"]) {
            return false;
        }
        if is(first, WRITE_VERBS) {
            return false;
        }
        is(first, READ_VERBS) || (!is(last, WRITE_VERBS) && is(last, READ_VERBS))
    })
}

fn stems(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.len() >= 3)
        .map(|word| crate::lexicon::stem(&word.to_lowercase()))
        .collect()
}

/// The tool an intent without a workflow means: the one whose name and
/// description share most words with the intent's id and description (a
/// never-allowed tool is none).
pub fn matched_tool<'a>(skill: &'a Skill, intent_id: &str) -> Option<&'a Tool> {
    matched_tool_for(skill, intent_id, |_| false)
}

/// [`matched_tool`] for one request: of the tools the intent's words name,
/// first one whose every required input the request gives ("show me
/// booking TBK-20932" on an intent about trips and bookings is the booking
/// lookup, not the trip's).
pub fn matched_tool_for<'a>(
    skill: &'a Skill,
    intent_id: &str,
    known: impl Fn(&str) -> bool,
) -> Option<&'a Tool> {
    let intent = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .find(|intent| intent.id == intent_id)?;
    if let Some(same) = skill.tools.iter().find(|tool| tool.name == intent_id) {
        return Some(same);
    }
    let policy = adas_skill::compile::compile(skill);
    let mut wanted = stems(&intent.id.replace('_', " "));
    wanted.extend(stems(intent.description.as_deref().unwrap_or_default()));
    skill
        .tools
        .iter()
        .filter(|tool| policy.standing(&tool.name) != adas_skill::compile::Standing::Never)
        .map(|tool| {
            let mut own = stems(&tool.name.replace(['_', '.', '-'], " "));
            own.extend(stems(tool.description.as_deref().unwrap_or_default()));
            own.sort();
            own.dedup();
            let shared = own.iter().filter(|stem| wanted.contains(stem)).count();
            // First the tool that takes what the intent's entities are
            // (`get_purchase_order` takes the po_id "follow a purchase
            // order" names; the list does not), then the closest in words.
            let takes = intent
                .entities
                .iter()
                .filter(|entity| tool.inputs.iter().any(|input| input.name == entity.name))
                .count();
            let required: Vec<_> = tool.inputs.iter().filter(|input| input.required).collect();
            let given = !required.is_empty() && required.iter().all(|input| known(&input.name));
            (tool, shared, (given, takes))
        })
        .filter(|(_, shared, _)| *shared > 0)
        .max_by_key(|(_, shared, (given, takes))| (*given, *takes, *shared))
        .map(|(tool, _, _)| tool)
}

/// The lookups an intent's words name, closest first: where its own lookup
/// needs what the request does not give ("did the reset I asked for go
/// through? STF-6412" gives a staff number, not the request's id), another
/// lookup of the same things may take what it gives.
pub fn lookups_alike<'a>(skill: &'a Skill, intent_id: &str) -> Vec<&'a Tool> {
    let Some(intent) = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .find(|intent| intent.id == intent_id)
    else {
        return Vec::new();
    };
    let policy = adas_skill::compile::compile(skill);
    let mut wanted = stems(&intent.id.replace('_', " "));
    wanted.extend(stems(intent.description.as_deref().unwrap_or_default()));
    let mut alike: Vec<(&Tool, usize)> = skill
        .tools
        .iter()
        .filter(|tool| {
            reads(tool) && policy.standing(&tool.name) != adas_skill::compile::Standing::Never
        })
        .map(|tool| {
            let mut own = stems(&tool.name.replace(['_', '.', '-'], " "));
            own.extend(stems(tool.description.as_deref().unwrap_or_default()));
            own.sort();
            own.dedup();
            (
                tool,
                own.iter().filter(|stem| wanted.contains(stem)).count(),
            )
        })
        .filter(|(_, shared)| *shared > 0)
        .collect();
    alike.sort_by_key(|(_, shared)| std::cmp::Reverse(*shared));
    alike.into_iter().map(|(tool, _)| tool).collect()
}

/// The tools an intent calls: its workflow's steps, else the tool it means.
pub fn intent_tools<'a>(skill: &'a Skill, intent_id: &str) -> Vec<&'a Tool> {
    let maps_to = skill
        .intents
        .iter()
        .flat_map(|intents| &intents.supported)
        .find(|intent| intent.id == intent_id)
        .and_then(|intent| intent.maps_to_workflow.clone());
    let by_workflow: Vec<&Tool> = skill
        .policy
        .iter()
        .flat_map(|policy| &policy.workflows)
        .filter(|workflow| {
            workflow.trigger.as_deref() == Some(intent_id)
                || (maps_to.is_some() && workflow.id == maps_to)
        })
        .flat_map(|workflow| &workflow.steps)
        .filter_map(|step| skill.tools.iter().find(|tool| &tool.name == step))
        .collect();
    if !by_workflow.is_empty() {
        return by_workflow;
    }
    matched_tool(skill, intent_id).into_iter().collect()
}

/// Whether every tool the intent calls only reads.
pub fn only_reads(skill: &Skill, intent_id: &str) -> bool {
    let tools = intent_tools(skill, intent_id);
    !tools.is_empty() && tools.iter().all(|tool| reads(tool))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str) -> Tool {
        Tool {
            name: name.into(),
            ..Tool::default()
        }
    }

    #[test]
    fn a_name_says_whether_it_reads() {
        for name in [
            "get_payslip",
            "calendar.event.list",
            "check_stock",
            "vehicle_status",
            "identity.user.lookup",
            "check_claim_status",
        ] {
            assert!(reads(&tool(name)), "{name}");
        }
        for name in [
            "create_purchase_order",
            "check_in_guest",
            "calendar.event.create",
            "cancel_booking",
            "submit_claim",
            "frobnicate",
        ] {
            assert!(!reads(&tool(name)), "{name}");
        }
        let declared = Tool {
            read_only: Some(false),
            ..tool("get_and_mark_read")
        };
        assert!(!reads(&declared));
    }
}
