//! The expressions of an operational skill, parsed once when it loads: the
//! JSONPaths of its grant mappings and the conditions of its approvals,
//! tool policies and escalations. A call reads them here; nothing a tool returns or a caller
//! sends is ever parsed as one of these grammars. JSONPath is RFC 9535
//! (`serde_json_path`), never a hand parser: a builder condition
//! `$.status == "active"` is the filter `$[?@.status == "active"]` over the
//! one result.

use std::collections::HashMap;

use serde_json::Value;

use crate::compile::CompiledPolicy;
use crate::condition::Condition;
use crate::model::Skill;

/// A compiled JSONPath, or why it does not parse: within the bounds of
/// [`crate::grammar`] first, since the parser recurses once per level.
pub fn json_path(text: &str) -> Result<serde_json_path::JsonPath, String> {
    crate::grammar::check(crate::grammar::Grammar::JsonPath, text)?;
    serde_json_path::JsonPath::parse(text).map_err(|error| error.to_string())
}

/// The RFC 9535 filter a builder condition stands for: every `$` outside a
/// string literal becomes `@`, and the whole is a filter over `[result]`.
pub(crate) fn condition_filter(condition: &str) -> String {
    let mut current = String::with_capacity(condition.len() + 4);
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in condition.chars() {
        match quote {
            Some(open) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == open {
                    quote = None;
                }
                current.push(c);
            }
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
                current.push(if c == '$' { '@' } else { c });
            }
        }
    }
    format!("$[?{current}]")
}

/// A compiled grant condition, or why it does not parse.
pub fn grant_condition(condition: &str) -> Result<serde_json_path::JsonPath, String> {
    // Bounded as written: the filter adds one level of its own.
    crate::grammar::check(crate::grammar::Grammar::JsonPath, condition)?;
    json_path(&condition_filter(condition.trim()))
}

/// One grant rule with its paths parsed.
#[derive(Debug, Clone)]
pub struct ParsedGrant {
    /// The tool whose result issues it.
    pub tool: String,
    /// Grant key.
    pub key: String,
    /// `condition` as written and as an RFC 9535 filter over `[result]`.
    pub condition: Option<(String, serde_json_path::JsonPath)>,
    /// `value_from` as written.
    pub value_from: String,
    /// `value_from` parsed (validation refused a skill where it does not).
    pub path: Option<serde_json_path::JsonPath>,
    /// Lifetime asked for.
    pub ttl_seconds: Option<u64>,
}

/// A skill's expressions, parsed.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// Grant rules of mappings that issue on success, in document order.
    pub grants: Vec<ParsedGrant>,
    conditions: HashMap<String, Condition>,
}

impl Parsed {
    /// Parses every expression of a validated skill (each already passed
    /// [`crate::grammar::check`] in validation; the parsers check again).
    pub fn of(skill: &Skill, compiled: &CompiledPolicy) -> Self {
        let mut grants = Vec::new();
        for mapping in &skill.grant_mappings {
            if mapping.on_success == Some(false) {
                continue;
            }
            for rule in &mapping.grants {
                grants.push(ParsedGrant {
                    tool: mapping.tool.clone(),
                    key: rule.key.clone(),
                    condition: rule.condition.as_ref().and_then(|text| {
                        grant_condition(text).ok().map(|path| (text.clone(), path))
                    }),
                    value_from: rule.value_from.clone(),
                    path: json_path(&rule.value_from).ok(),
                    ttl_seconds: rule.ttl_seconds,
                });
            }
        }
        let mut conditions = HashMap::new();
        let texts = compiled
            .approvals
            .iter()
            .map(|rule| rule.when.as_str())
            .chain(compiled.tool_permissions.iter().flat_map(|permission| {
                permission
                    .condition
                    .as_deref()
                    .into_iter()
                    .chain(permission.rules.iter().map(|rule| rule.when.as_str()))
            }))
            .chain(compiled.escalations.on_call.iter().map(String::as_str));
        for text in texts {
            if !conditions.contains_key(text)
                && let Ok(condition) = Condition::parse(text)
            {
                conditions.insert(text.to_owned(), condition);
            }
        }
        Self { grants, conditions }
    }

    /// Whether the condition `text` holds for `args`. A condition this skill
    /// did not parse at load (a tightened policy's, say) is parsed now, within
    /// the same bounds; one that does not parse holds: fail closed.
    pub fn holds(&self, text: &str, args: &serde_json::Map<String, Value>) -> bool {
        match self.conditions.get(text) {
            Some(condition) => condition.holds(args),
            None => Condition::parse(text).map_or(true, |condition| condition.holds(args)),
        }
    }
}
