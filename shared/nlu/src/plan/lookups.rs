//! Which lookups a request's plan makes: a workflow's lookup that would only
//! ask is left out when the request feeds the actions after it, or another
//! lookup of the workflow.

use adas_dia::Intent;
use adas_skill::model::Skill;

/// Whether a call has every input its tool requires.
pub(super) fn given(skill: &Skill, call: &Intent) -> bool {
    skill
        .tools
        .iter()
        .find(|tool| tool.name == call.name)
        .is_none_or(|tool| {
            tool.inputs
                .iter()
                .filter(|input| input.required)
                .all(|input| call.args.iter().any(|arg| arg.name == input.name))
        })
}

/// A workflow's calls without the lookups that would only ask: a read whose
/// required inputs the request does not give, before actions whose every
/// required input it does ("Tom (STF-2290) is leaving" needs no search by
/// name for his staff number), or beside another lookup it does. A workflow
/// the skill marks `required` keeps every step.
pub(super) fn without_needless_lookups(skill: &Skill, calls: Vec<Intent>) -> Vec<Intent> {
    let given = |call: &Intent| given(skill, call);
    let reads = |call: &Intent| {
        skill
            .tools
            .iter()
            .find(|tool| tool.name == call.name)
            .is_some_and(crate::detect::reads)
    };
    // Core tools (`sys.*`: a message, an ask) are no action the lookup
    // could be needless for.
    let action =
        |call: &Intent| skill.tools.iter().any(|tool| tool.name == call.name) && !reads(call);
    // A workflow of lookups alone answers with those the request feeds
    // ("did my parking go through? STF-20417": the staff's requests, not a
    // request by its reference, asked for first).
    let tools: Vec<&Intent> = calls
        .iter()
        .filter(|call| !call.name.starts_with("sys."))
        .collect();
    let lookups_only = !tools.is_empty() && tools.iter().all(|call| reads(call));
    let fed = |call: &Intent| given(call) && !call.args.is_empty();
    let some_fed = lookups_only && tools.iter().any(|call| fed(call));
    let needless: Vec<bool> = (0..calls.len())
        .map(|at| {
            if some_fed && reads(&calls[at]) && !given(&calls[at]) {
                return true;
            }
            let later: Vec<&Intent> = calls[at + 1..]
                .iter()
                .filter(|later| !later.name.starts_with("sys."))
                .collect();
            reads(&calls[at])
                && !given(&calls[at])
                && !later.is_empty()
                && later.iter().all(|later| action(later) && given(later))
        })
        .collect();
    calls
        .into_iter()
        .zip(needless)
        .filter(|(_, needless)| !needless)
        .map(|(call, _)| call)
        .collect()
}
