//! The skill's identity-bound controls: which tool results issue *grants*
//! (`grant_mappings`), which grants a tool call needs and which arguments come
//! from them (`access_policy.rules`), the fields that never leave
//! (`response_filters`), and which server tool a declared tool is
//! (`tools[].source`, through an operator's connector).
//!
//! Everything here is pure: the worker issues grants from a result, injects
//! and checks before the gate, and filters a result before it is stored; the
//! gate checks again. JSONPath is RFC 9535 (`serde_json_path`), never a hand
//! parser: a builder condition `$.status == "active"` is the filter
//! `$[?@.status == "active"]` over the one result.

use serde_json::{Map, Value};

use crate::model::Skill;
use crate::parsed::Parsed;

/// Longest grant lifetime a mapping may ask for (30 days); absent means one hour.
pub const MAX_GRANT_TTL_SECONDS: u64 = 30 * 24 * 3600;
/// A mapping without `ttl_seconds` issues grants for an hour.
pub const DEFAULT_GRANT_TTL_SECONDS: u64 = 3600;
/// The prefix of an injected value that names a grant.
const GRANT_REFERENCE: &str = "${grants.";

pub use crate::model::{
    AccessPolicy, AccessRule, GrantMapping, GrantRule, ResponseFilter, ToolSourceRef,
};

/// A grant a tool result issued: the value and its lifetime.
#[derive(Debug, Clone, PartialEq)]
pub struct Issued {
    /// Grant key.
    pub key: String,
    /// The value the result held at `value_from`.
    pub value: Value,
    /// Lifetime.
    pub ttl_seconds: u64,
}

/// Why a mapping issued no grant from a result.
#[derive(Debug, Clone, PartialEq)]
pub struct NotIssued {
    /// Grant key.
    pub key: String,
    /// Why, in words.
    pub reason: String,
}

pub use crate::filter::{
    MASK, filter_result, filter_text, is_personal, personal_values, shows_errors,
};
pub use crate::parsed::{grant_condition, json_path};

/// The grants `tool`'s successful `result` issues under the skill's mappings
/// (parsed when the skill loaded), and those it does not (condition false, no
/// single value at the path). A path that did not parse issues nothing.
pub fn issue(parsed: &Parsed, tool: &str, result: &Value) -> (Vec<Issued>, Vec<NotIssued>) {
    let mut issued = Vec::new();
    let mut refused = Vec::new();
    for rule in parsed
        .grants
        .iter()
        .filter(|rule| rule.tool == tool && !rule.key.starts_with(PRINCIPAL_KEY))
    {
        if let Some((text, condition)) = &rule.condition {
            let wrapped = Value::Array(vec![result.clone()]);
            if condition.query(&wrapped).is_empty() {
                refused.push(NotIssued {
                    key: rule.key.clone(),
                    reason: format!("the result does not satisfy `{text}`"),
                });
                continue;
            }
        }
        let value = rule
            .path
            .as_ref()
            .and_then(|path| path.query(result).exactly_one().ok().cloned());
        match value {
            // A grant proves a fact: an empty value proves none.
            Some(value) if !value.is_null() && value != Value::String(String::new()) => issued
                .push(Issued {
                    key: rule.key.clone(),
                    value,
                    ttl_seconds: rule
                        .ttl_seconds
                        .unwrap_or(DEFAULT_GRANT_TTL_SECONDS)
                        .min(MAX_GRANT_TTL_SECONDS),
                }),
            _ => refused.push(NotIssued {
                key: rule.key.clone(),
                reason: format!("the result holds no single value at `{}`", rule.value_from),
            }),
        }
    }
    (issued, refused)
}

/// The prefix of an injected value that names a fact of the job's principal.
const PRINCIPAL_REFERENCE: &str = "${principal.";
/// Held keys of the principal's facts begin with this; no grant's may.
pub const PRINCIPAL_KEY: &str = "principal.";

/// The principal a job runs for, as its access rules read it: who started
/// it, authenticated — never a value a user, a program or a tool gave.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Principal {
    /// Its name (`${principal.name}`).
    pub name: String,
    /// Its tenant (`${principal.tenant}`).
    pub tenant: String,
    /// Its roles (`${principal.roles}`, a list).
    pub roles: Vec<String>,
    /// Claims the operator mapped to its key (`${principal.email}`).
    pub claims: std::collections::BTreeMap<String, String>,
}

impl Principal {
    /// Its facts as held keys (`principal.name`, `principal.email`, …); an
    /// unnamed principal (dev mode) holds none.
    pub fn facts(&self) -> Vec<(String, Value)> {
        if self.name.is_empty() {
            return Vec::new();
        }
        let mut facts = vec![
            (
                format!("{PRINCIPAL_KEY}name"),
                Value::String(self.name.clone()),
            ),
            (
                format!("{PRINCIPAL_KEY}tenant"),
                Value::String(self.tenant.clone()),
            ),
            (
                format!("{PRINCIPAL_KEY}roles"),
                Value::Array(self.roles.iter().cloned().map(Value::String).collect()),
            ),
        ];
        for (claim, value) in &self.claims {
            if is_fact_name(claim) && !matches!(claim.as_str(), "name" | "tenant" | "roles") {
                facts.push((
                    format!("{PRINCIPAL_KEY}{claim}"),
                    Value::String(value.clone()),
                ));
            }
        }
        facts
    }
}

/// A fact's name: one identifier (`email`, `employee_id`).
pub fn is_fact_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

/// The fact `${principal.FACT}` names, if the value is such a reference.
pub fn principal_reference(value: &Value) -> Option<&str> {
    value
        .as_str()?
        .trim()
        .strip_prefix(PRINCIPAL_REFERENCE)?
        .strip_suffix('}')
        .filter(|fact| is_fact_name(fact))
}

/// The held key an injected value names: a grant's (`${grants.KEY}`) or a
/// principal's fact (`${principal.FACT}` → `principal.FACT`).
pub fn reference(value: &Value) -> Option<String> {
    grant_reference(value)
        .map(str::to_owned)
        .or_else(|| principal_reference(value).map(|fact| format!("{PRINCIPAL_KEY}{fact}")))
}

/// The grant key `${grants.KEY}` names, if the value is such a reference.
pub fn grant_reference(value: &Value) -> Option<&str> {
    value
        .as_str()?
        .trim()
        .strip_prefix(GRANT_REFERENCE)?
        .strip_suffix('}')
        .filter(|key| is_grant_key(key))
}

/// A grant key: dotted identifiers, at most 128 characters.
pub fn is_grant_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 128
        && key.split('.').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        })
}

/// Whether a rule covers `tool` (`*`: every declared tool, never a `sys.*` one).
fn covers(rule: &AccessRule, skill: &Skill, tool: &str) -> bool {
    rule.tools.iter().any(|name| {
        name == tool || (name == "*" && skill.tools.iter().any(|declared| declared.name == tool))
    })
}

/// The rules that apply to `tool`, in document order.
pub fn rules_for<'a>(skill: &'a Skill, tool: &str) -> impl Iterator<Item = &'a AccessRule> {
    skill
        .access_policy
        .iter()
        .flat_map(|policy| policy.rules.iter())
        .filter(move |rule| covers(rule, skill, tool))
}

/// What the access policy says about one call.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// It may run (with injected arguments already in place).
    Allow,
    /// A `deny` rule covers the tool.
    Denied,
    /// The conversation lacks grants (or their required values).
    Missing(Vec<String>),
    /// An argument differs from the grant that must fill it.
    Conflict {
        /// The argument.
        argument: String,
        /// The grant that fills it.
        grant: String,
    },
}

/// A grant the conversation holds, as the policy sees it.
pub trait HeldGrant {
    /// Its key.
    fn key(&self) -> &str;
    /// Its value.
    fn value(&self) -> &Value;
}

impl HeldGrant for (String, Value) {
    fn key(&self) -> &str {
        &self.0
    }
    fn value(&self) -> &Value {
        &self.1
    }
}

fn held<'a, G: HeldGrant>(grants: &'a [G], key: &str) -> Option<&'a G> {
    grants.iter().find(|grant| grant.key() == key)
}

/// The arguments the rules inject into `tool`'s call: argument → held key
/// (a grant's, or `principal.FACT`).
pub fn injected(skill: &Skill, tool: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for rule in rules_for(skill, tool) {
        for (argument, value) in &rule.inject {
            if let Some(key) = reference(value)
                && !out.iter().any(|(known, _)| known == argument)
            {
                out.push((argument.clone(), key));
            }
        }
    }
    out
}

/// Fills `args` from the held grants and judges the call: `deny` first, then
/// required grants and values, then conflicts. An injected argument that was
/// already there with another value is a conflict (a user, a model, a program
/// or an answer tried to choose it); with the grant's own value it stands.
pub fn apply<G: HeldGrant>(
    skill: &Skill,
    tool: &str,
    grants: &[G],
    args: &mut Map<String, Value>,
) -> Verdict {
    let verdict = check(skill, tool, grants, args);
    if verdict == Verdict::Allow {
        for (argument, key) in injected(skill, tool) {
            if let Some(grant) = held(grants, &key) {
                args.insert(argument, grant.value().clone());
            }
        }
    }
    verdict
}

/// [`apply`] without filling: the gate's check of a call as it will be made
/// (an injected argument absent or equal to its grant is fine).
pub fn check<G: HeldGrant>(
    skill: &Skill,
    tool: &str,
    grants: &[G],
    args: &Map<String, Value>,
) -> Verdict {
    let rules: Vec<&AccessRule> = rules_for(skill, tool).collect();
    if rules
        .iter()
        .any(|rule| rule.effect.eq_ignore_ascii_case("deny"))
    {
        return Verdict::Denied;
    }
    let mut missing = Vec::new();
    for rule in &rules {
        for key in &rule.requires_grants {
            if held(grants, key).is_none() && !missing.contains(key) {
                missing.push(key.clone());
            }
        }
        for (key, wanted) in &rule.required_values {
            let matches = held(grants, key).is_some_and(|grant| match wanted {
                Value::Array(options) => options.contains(grant.value()),
                one => one == grant.value(),
            });
            if !matches && !missing.contains(key) {
                missing.push(key.clone());
            }
        }
    }
    for (_, key) in injected(skill, tool) {
        if held(grants, &key).is_none() && !missing.contains(&key) {
            missing.push(key);
        }
    }
    if !missing.is_empty() {
        return Verdict::Missing(missing);
    }
    for (argument, key) in injected(skill, tool) {
        let grant = held(grants, &key).expect("checked above");
        if let Some(given) = args.get(&argument)
            && given != grant.value()
        {
            return Verdict::Conflict {
                argument,
                grant: key,
            };
        }
    }
    Verdict::Allow
}

/// `(connection id, server tool name)` of a declared tool with an
/// `mcp_bridge` source.
pub fn route(skill: &Skill, tool: &str) -> Option<(String, String)> {
    let declared = skill.tools.iter().find(|declared| declared.name == tool)?;
    let source = declared.source.as_ref()?;
    let connection = source.connection_id.clone()?;
    Some((
        connection,
        source.mcp_tool.clone().unwrap_or_else(|| tool.to_owned()),
    ))
}

/// Effects of an access rule.
const EFFECTS: &[&str] = &["allow", "constrain", "deny"];

/// Reports every problem of the skill's access clauses: `report(path, code,
/// message)` for each error (validation gives them line:col).
pub fn validate(skill: &Skill, report: &mut dyn FnMut(&str, &'static str, String)) {
    access_rules(skill, report);
    grant_mappings(skill, report);
    filters_and_sources(skill, report);
}

/// Each access rule: its tools declared, its effect known, its grant keys
/// well formed, its injected arguments from a grant or the principal.
fn access_rules(skill: &Skill, report: &mut dyn FnMut(&str, &'static str, String)) {
    use crate::diagnostics::codes;
    let declared = |name: &str| skill.tools.iter().any(|tool| tool.name == name);
    for (r, rule) in skill
        .access_policy
        .iter()
        .flat_map(|policy| policy.rules.iter())
        .enumerate()
    {
        let at = format!("access_policy.rules[{r}]");
        if rule.tools.is_empty() {
            report(
                &format!("{at}.tools"),
                codes::MISSING_FIELD,
                "a rule names the tools it covers (`*`: every declared tool)".into(),
            );
        }
        for (t, tool) in rule.tools.iter().enumerate() {
            if tool != "*" && !declared(tool) {
                report(
                    &format!("{at}.tools[{t}]"),
                    codes::UNKNOWN_TOOL,
                    format!("access rule names `{tool}`, which the skill does not declare"),
                );
            }
        }
        if !EFFECTS.contains(&rule.effect.to_ascii_lowercase().as_str()) {
            report(
                &format!("{at}.effect"),
                codes::INVALID_VALUE,
                format!(
                    "effect `{}` is not one of {}",
                    rule.effect,
                    EFFECTS.join(" | ")
                ),
            );
        }
        let keys = rule
            .requires_grants
            .iter()
            .enumerate()
            .map(|(k, key)| (format!("{at}.requires_grants[{k}]"), key.as_str()))
            .chain(
                rule.required_values
                    .keys()
                    .map(|key| (format!("{at}.required_values.{key}"), key.as_str())),
            );
        for (path, key) in keys {
            if !is_grant_key(key) {
                report(
                    &path,
                    codes::INVALID_VALUE,
                    format!("`{key}` is not a grant key (dotted names, e.g. `sched.user_id`)"),
                );
            }
        }
        for (argument, value) in &rule.inject {
            if reference(value).is_none() {
                report(
                    &format!("{at}.inject.{argument}"),
                    codes::INVALID_VALUE,
                    format!(
                        "an injected argument comes from a grant or the signed-in principal only: write `${{grants.KEY}}` or `${{principal.name}}` (`.tenant`, `.roles`, or a claim such as `.email`), not {value}"
                    ),
                );
            }
        }
    }
}

/// Each grant mapping: its tool declared, issued on success, its keys,
/// JSONPaths, conditions and lifetimes valid.
fn grant_mappings(skill: &Skill, report: &mut dyn FnMut(&str, &'static str, String)) {
    use crate::diagnostics::codes;
    let declared = |name: &str| skill.tools.iter().any(|tool| tool.name == name);
    for (m, mapping) in skill.grant_mappings.iter().enumerate() {
        let at = format!("grant_mappings[{m}]");
        if !declared(&mapping.tool) {
            report(
                &format!("{at}.tool"),
                codes::UNKNOWN_TOOL,
                format!(
                    "grant mapping names `{}`, which the skill does not declare",
                    mapping.tool
                ),
            );
        }
        if mapping.on_success == Some(false) {
            report(&format!("{at}.on_success"), codes::INVALID_VALUE, "grants are issued only by a successful result: `on_success: false` is not supported".into());
        }
        for (g, grant) in mapping.grants.iter().enumerate() {
            let at = format!("{at}.grants[{g}]");
            if !is_grant_key(&grant.key) {
                report(
                    &format!("{at}.key"),
                    codes::INVALID_VALUE,
                    format!(
                        "`{}` is not a grant key (dotted names, e.g. `sched.user_id`)",
                        grant.key
                    ),
                );
            } else if grant.key.starts_with(PRINCIPAL_KEY) {
                report(
                    &format!("{at}.key"),
                    codes::INVALID_VALUE,
                    format!(
                        "`{}`: `principal.*` names the signed-in principal's facts; no tool result may issue one",
                        grant.key
                    ),
                );
            }
            if let Err(error) = json_path(&grant.value_from) {
                report(
                    &format!("{at}.value_from"),
                    codes::INVALID_VALUE,
                    format!(
                        "`{}` is not a JSONPath (RFC 9535): {error}",
                        crate::grammar::shown(&grant.value_from)
                    ),
                );
            }
            if let Some(condition) = &grant.condition
                && let Err(error) = grant_condition(condition)
            {
                report(
                    &format!("{at}.condition"),
                    codes::INVALID_CONDITION,
                    format!(
                        "condition `{}` is not a JSONPath comparison (`$.status == \"active\"`): {error}",
                        crate::grammar::shown(condition)
                    ),
                );
            }
            if let Some(ttl) = grant.ttl_seconds
                && (ttl == 0 || ttl > MAX_GRANT_TTL_SECONDS)
            {
                report(
                    &format!("{at}.ttl_seconds"),
                    codes::INVALID_VALUE,
                    format!("ttl_seconds {ttl} is not between 1 and {MAX_GRANT_TTL_SECONDS}"),
                );
            }
        }
    }
}

/// Response filters name fields; a tool's source is a routed `mcp_bridge`
/// on one of the skill's connections.
fn filters_and_sources(skill: &Skill, report: &mut dyn FnMut(&str, &'static str, String)) {
    use crate::diagnostics::codes;
    for (f, filter) in skill.response_filters.iter().enumerate() {
        for (kind, paths) in [
            ("strip_fields", &filter.strip_fields),
            ("mask_fields", &filter.mask_fields),
        ] {
            for (p, path) in paths.iter().enumerate() {
                if crate::filter::split(path).is_empty() {
                    report(
                        &format!("response_filters[{f}].{kind}[{p}]"),
                        codes::INVALID_VALUE,
                        "an empty field path filters nothing".into(),
                    );
                }
            }
        }
    }
    for (t, tool) in skill.tools.iter().enumerate() {
        let Some(source) = &tool.source else { continue };
        let at = format!("tools[{t}].source");
        if source
            .kind
            .as_deref()
            .is_some_and(|kind| kind != "mcp_bridge")
        {
            report(
                &format!("{at}.type"),
                codes::INVALID_VALUE,
                format!(
                    "source type `{}` is not routed by the runtime: only `mcp_bridge`",
                    source.kind.as_deref().unwrap_or_default()
                ),
            );
        }
        match &source.connection_id {
            None => report(
                &format!("{at}.connection_id"),
                codes::MISSING_FIELD,
                "an `mcp_bridge` source names its connection".into(),
            ),
            Some(connection) if !skill.connectors.contains(connection) => report(
                &format!("{at}.connection_id"),
                codes::UNKNOWN_CONNECTION,
                format!(
                    "connection `{connection}` is not one of the skill's `connectors` ({})",
                    skill.connectors.join(", ")
                ),
            ),
            Some(_) => {}
        }
    }
}

/// Grant mappings whose tool is a personal (`pii_*`) lookup that reads its
/// key from the conversation: whoever types another person's value would be
/// issued that person's grants (the scheduling gateway as exported). A
/// warning each, at the mapping's tool, naming the fix: the key injected
/// from the signed-in principal.
pub fn borrowable_identities(skill: &Skill) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (m, mapping) in skill.grant_mappings.iter().enumerate() {
        if mapping.grants.is_empty() || !crate::filter::is_personal(skill, &mapping.tool) {
            continue;
        }
        let Some(tool) = skill.tools.iter().find(|tool| tool.name == mapping.tool) else {
            continue;
        };
        // Bound to someone: an input injected from the caller's identity (its
        // name or a mapped claim, not its tenant or roles, which many share)
        // or from a grant already verified.
        let bound: Vec<String> = injected(skill, &mapping.tool)
            .into_iter()
            .filter(|(_, key)| !matches!(key.strip_prefix(PRINCIPAL_KEY), Some("tenant" | "roles")))
            .map(|(argument, _)| argument)
            .collect();
        let open: Vec<&str> = tool
            .inputs
            .iter()
            .filter(|input| !bound.contains(&input.name))
            .map(|input| input.name.as_str())
            .collect();
        if !bound.is_empty() || open.is_empty() {
            continue;
        }
        out.push((
            format!("grant_mappings[{m}].tool"),
            format!(
                "`{}` issues grants from a lookup of what the conversation gives it (`{}`): \
                 a user who types another person's value is issued that person's grants; \
                 bind it to the caller with an access rule `{{tools: [{}], effect: constrain, \
                 inject: {{{}: \"${{principal.email}}\"}}}}` (a claim mapped to each key)",
                mapping.tool,
                open.join("`, `"),
                mapping.tool,
                open[0]
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct G(&'static str, Value);
    impl HeldGrant for G {
        fn key(&self) -> &str {
            self.0
        }
        fn value(&self) -> &Value {
            &self.1
        }
    }

    fn skill(value: Value) -> Skill {
        serde_json::from_value(value).unwrap()
    }

    fn scheduling() -> Skill {
        skill(json!({
            "tools": [{"name": "calendar.event.create"}, {"name": "calendar.event.list"}, {"name": "wipe"}],
            "grant_mappings": [{"tool": "identity.user.lookup", "on_success": true, "grants": [
                {"key": "sched.user_id", "value_from": "$.user_id", "condition": "$.status == \"active\"", "ttl_seconds": 60}
            ]}],
            "access_policy": {"rules": [
                {"tools": ["calendar.event.list"], "effect": "allow", "requires_grants": ["sched.user_id"]},
                {"tools": ["calendar.event.create"], "effect": "constrain", "requires_grants": ["sched.user_id"],
                 "inject": {"organizer_id": "${grants.sched.user_id}"}},
                {"tools": ["wipe"], "effect": "deny"}
            ]},
            "response_filters": [{"strip_fields": ["customer.ssn"], "mask_fields": ["customer.email"]}]
        }))
    }

    #[test]
    fn an_active_users_result_issues_the_grant_and_an_inactive_one_does_not() {
        let skill = Parsed::of(&scheduling(), &crate::compile::CompiledPolicy::default());
        let (issued, refused) = issue(
            &skill,
            "identity.user.lookup",
            &json!({"user_id": "u-1", "status": "active"}),
        );
        assert_eq!(issued.len(), 1);
        assert_eq!(issued[0].value, json!("u-1"));
        assert_eq!(issued[0].ttl_seconds, 60);
        assert!(refused.is_empty());
        let (issued, refused) = issue(
            &skill,
            "identity.user.lookup",
            &json!({"user_id": "u-2", "status": "suspended"}),
        );
        assert!(issued.is_empty());
        assert_eq!(refused[0].key, "sched.user_id");
        // Another tool's result issues nothing.
        assert!(
            issue(
                &skill,
                "calendar.event.list",
                &json!({"user_id": "u", "status": "active"})
            )
            .0
            .is_empty()
        );
        // A `$` inside a literal is not a path.
        assert_eq!(
            crate::parsed::condition_filter("$.a == \"$x\""),
            "$[?@.a == \"$x\"]"
        );
    }

    #[test]
    fn injection_fills_from_the_grant_and_refuses_any_other_value() {
        let skill = scheduling();
        let grants = [G("sched.user_id", json!("u-1"))];
        let mut args = Map::new();
        assert_eq!(
            apply(&skill, "calendar.event.create", &grants, &mut args),
            Verdict::Allow
        );
        assert_eq!(args["organizer_id"], json!("u-1"));
        let mut forged = Map::from_iter([("organizer_id".to_owned(), json!("u-666"))]);
        assert_eq!(
            apply(&skill, "calendar.event.create", &grants, &mut forged),
            Verdict::Conflict {
                argument: "organizer_id".into(),
                grant: "sched.user_id".into()
            }
        );
        assert_eq!(
            apply::<G>(&skill, "calendar.event.list", &[], &mut Map::new()),
            Verdict::Missing(vec!["sched.user_id".into()])
        );
        assert_eq!(
            apply(&skill, "wipe", &grants, &mut Map::new()),
            Verdict::Denied
        );
        // No rule: no requirement.
        assert_eq!(
            apply::<G>(&skill, "sys.echo", &[], &mut Map::new()),
            Verdict::Allow
        );
    }

    #[test]
    fn grant_references_are_exact() {
        assert_eq!(
            grant_reference(&json!("${grants.sched.user_id}")),
            Some("sched.user_id")
        );
        assert_eq!(grant_reference(&json!("${grants.}")), None);
        assert_eq!(grant_reference(&json!("u-1")), None);
        assert!(!is_grant_key("a..b"));
    }
}
