//! Solutions: several skills of one tenant working as one agent (the Skill
//! Builder's `*.solution.json`). A gateway skill proves who the user is and
//! issues grants; worker skills consume them; `handoffs` say when a
//! conversation moves from one skill to another and which grants go with it;
//! `routing` says where a channel's conversations begin; `security_contracts`
//! are promises a consumer skill's own access policy must keep.
//!
//! A solution document goes through the same loader as a skill (bounded,
//! positioned) and is validated with line:col: every skill it names is one of
//! its `skills`, every grant consumed has an issuer. Its skills are the
//! tenant's operational skills of the same slag.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::diagnostics::{Diagnostic, codes};
use crate::document::{self, Format};
use crate::model::Skill;
use crate::slag::is_valid_slag;

/// A solution document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Solution {
    /// Its id (the name it is stored under).
    pub id: String,
    /// Display name.
    pub name: Option<String>,
    /// What it does.
    pub description: Option<String>,
    /// The skills, by slag.
    pub skills: Vec<SolutionSkill>,
    /// The grants its skills issue and consume.
    pub grants: Vec<GrantDeclaration>,
    /// When a conversation moves between skills.
    pub handoffs: Vec<Handoff>,
    /// Where each channel's conversations begin.
    pub routing: BTreeMap<String, Route>,
    /// What a consumer skill's access policy must require.
    pub security_contracts: Vec<SecurityContract>,
}

/// `skills[]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SolutionSkill {
    /// The skill's slag in the tenant's catalog.
    pub id: String,
    /// `gateway` or `worker` (for people).
    pub role: Option<String>,
}

/// `grants[]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GrantDeclaration {
    /// Grant key.
    pub key: String,
    /// Skills whose grant mappings issue it.
    pub issued_by: Vec<String>,
    /// Skills that need it.
    pub consumed_by: Vec<String>,
}

/// `handoffs[]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Handoff {
    /// Builder id.
    pub id: Option<String>,
    /// The skill a conversation leaves.
    pub from: String,
    /// The skill it moves to.
    pub to: String,
    /// For people: when it should happen (the runtime's condition is that
    /// every grant passed is held and the target understands the request).
    pub trigger: Option<String>,
    /// Grants that go with the conversation (all must be held).
    pub grants_passed: Vec<String>,
    /// Grants that do not, even when passed.
    pub grants_dropped: Vec<String>,
}

/// `routing.<channel>`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Route {
    /// The skill a new conversation on the channel begins at.
    pub default_skill: String,
}

/// `security_contracts[]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SecurityContract {
    /// Its name, for people.
    pub name: Option<String>,
    /// The skill bound by it.
    pub consumer: String,
    /// The skill that issues the grants.
    pub provider: Option<String>,
    /// Grants every call of `for_tools` needs.
    pub requires_grants: Vec<String>,
    /// Values those grants must have.
    pub required_values: serde_json::Map<String, serde_json::Value>,
    /// The consumer's tools it covers.
    pub for_tools: Vec<String>,
}

/// A loaded solution: the typed document and every diagnostic.
#[derive(Debug, Clone)]
pub struct LoadedSolution {
    /// The solution (None on a syntax or shape error).
    pub solution: Option<Solution>,
    /// Every diagnostic, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadedSolution {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Whether a document is a solution — several `skills` with the handoffs,
/// grants, routing or contracts between them — rather than one skill.
pub fn is_solution(value: &serde_json::Value) -> bool {
    value.get("skills").is_some_and(serde_json::Value::is_array)
        && ["handoffs", "grants", "routing", "security_contracts"]
            .iter()
            .any(|key| value.get(key).is_some())
        && value.get("tools").is_none()
        && value.get("intents").is_none()
}

/// Loads and validates a solution document (JSON or YAML).
pub fn load(source: &str, format: Format) -> LoadedSolution {
    let document = match document::parse(source, format) {
        Ok(document) => document,
        Err(diagnostic) => {
            return LoadedSolution {
                solution: None,
                diagnostics: vec![*diagnostic],
            };
        }
    };
    let positions = &document.positions;
    let solution: Solution = match serde_path_to_error::deserialize(&document.value) {
        Ok(solution) => solution,
        Err(error) => {
            let path = error.path().to_string().replace(".[", "[");
            let path = if path == "." { String::new() } else { path };
            return LoadedSolution {
                solution: None,
                diagnostics: vec![Diagnostic::error(
                    &path,
                    positions.find(&path),
                    codes::INVALID_TYPE,
                    format!("`{path}`: {}", error.inner()),
                )],
            };
        }
    };
    let mut diagnostics = Vec::new();
    let mut error = |path: &str, code: &'static str, message: String| {
        diagnostics.push(Diagnostic::error(path, positions.find(path), code, message));
    };
    if !is_valid_slag(&solution.id) {
        error(
            "id",
            codes::UNSAFE_NAME,
            format!(
                "id `{}` is not a valid name (1–64 lowercase letters, digits, `-`, `_`, `.`)",
                solution.id
            ),
        );
    }
    let known = |id: &str| solution.skills.iter().any(|skill| skill.id == id);
    for (index, skill) in solution.skills.iter().enumerate() {
        if !is_valid_slag(&skill.id) {
            error(
                &format!("skills[{index}].id"),
                codes::UNSAFE_NAME,
                format!("skill id `{}` is not a slag", skill.id),
            );
        }
    }
    if solution.skills.is_empty() {
        error(
            "skills",
            codes::MISSING_FIELD,
            "a solution names its skills".into(),
        );
    }
    for (path, id, what) in skill_references(&solution) {
        if !known(id) {
            error(
                &path,
                codes::UNKNOWN_SKILL,
                format!("{what} `{id}` is not one of the solution's skills"),
            );
        }
    }
    for (path, key) in unissued(&solution) {
        error(
            &path,
            codes::UNKNOWN_GRANT,
            format!(
                "grant `{key}` is consumed, but no skill of the solution issues it (`grants[].issued_by`)"
            ),
        );
    }
    diagnostics.sort_by(|a, b| a.line.cmp(&b.line).then(a.column.cmp(&b.column)));
    LoadedSolution {
        solution: Some(solution),
        diagnostics,
    }
}

/// Every place the solution names one of its skills: the place, the id,
/// and what the place calls it.
fn skill_references(solution: &Solution) -> Vec<(String, &str, &'static str)> {
    let mut references: Vec<(String, &str, &'static str)> = Vec::new();
    for (index, handoff) in solution.handoffs.iter().enumerate() {
        references.push((
            format!("handoffs[{index}].from"),
            handoff.from.as_str(),
            "handoff source",
        ));
        references.push((
            format!("handoffs[{index}].to"),
            handoff.to.as_str(),
            "handoff target",
        ));
    }
    for (channel, route) in &solution.routing {
        references.push((
            format!("routing.{channel}.default_skill"),
            route.default_skill.as_str(),
            "default skill",
        ));
    }
    for (index, contract) in solution.security_contracts.iter().enumerate() {
        references.push((
            format!("security_contracts[{index}].consumer"),
            contract.consumer.as_str(),
            "consumer",
        ));
        if let Some(provider) = &contract.provider {
            references.push((
                format!("security_contracts[{index}].provider"),
                provider.as_str(),
                "provider",
            ));
        }
    }
    for (index, grant) in solution.grants.iter().enumerate() {
        for (at, id) in grant.issued_by.iter().enumerate() {
            references.push((
                format!("grants[{index}].issued_by[{at}]"),
                id.as_str(),
                "issuer",
            ));
        }
        for (at, id) in grant.consumed_by.iter().enumerate() {
            references.push((
                format!("grants[{index}].consumed_by[{at}]"),
                id.as_str(),
                "consumer",
            ));
        }
    }
    references
}

/// The grants consumed (by a security contract, a handoff, or a grant's
/// consumers) that no skill of the solution issues: each place, and the key.
fn unissued(solution: &Solution) -> Vec<(String, &str)> {
    let issued = |key: &str| {
        solution
            .grants
            .iter()
            .any(|grant| grant.key == key && !grant.issued_by.is_empty())
    };
    let consumed = solution
        .security_contracts
        .iter()
        .enumerate()
        .flat_map(|(index, contract)| {
            contract
                .requires_grants
                .iter()
                .enumerate()
                .map(move |(at, key)| {
                    (
                        format!("security_contracts[{index}].requires_grants[{at}]"),
                        key,
                    )
                })
        })
        .chain(
            solution
                .handoffs
                .iter()
                .enumerate()
                .flat_map(|(index, handoff)| {
                    handoff
                        .grants_passed
                        .iter()
                        .enumerate()
                        .map(move |(at, key)| {
                            (format!("handoffs[{index}].grants_passed[{at}]"), key)
                        })
                }),
        )
        .chain(
            solution
                .grants
                .iter()
                .enumerate()
                .filter(|(_, grant)| !grant.consumed_by.is_empty())
                .map(|(index, grant)| (format!("grants[{index}].key"), &grant.key)),
        )
        .collect::<Vec<_>>();
    consumed
        .into_iter()
        .filter(|(_, key)| !issued(key))
        .map(|(path, key)| (path, key.as_str()))
        .collect()
}

impl Solution {
    /// The skill a new conversation on `channel` begins at.
    pub fn entry(&self, channel: &str) -> Option<&str> {
        self.routing
            .get(channel)
            .map(|route| route.default_skill.as_str())
    }

    /// The handoffs out of `skill`, in document order.
    pub fn handoffs_from<'a>(&'a self, skill: &'a str) -> impl Iterator<Item = &'a Handoff> {
        self.handoffs
            .iter()
            .filter(move |handoff| handoff.from == skill)
    }

    /// Which of the solution's skills a document is: the one its `id`
    /// names, else the one its file's name does (a Builder export's id
    /// may be `skill_scheduling-agent` for the member `scheduling-agent`).
    pub fn member<'a>(&'a self, id: &str, file_slag: &str) -> Option<&'a str> {
        [id, file_slag].into_iter().find_map(|candidate| {
            self.skills
                .iter()
                .find(|skill| !candidate.is_empty() && skill.id == candidate)
                .map(|skill| skill.id.as_str())
        })
    }

    /// An error at each security contract its consumer breaks, at the
    /// contract's line:col — the one check `PutSolution` makes with the
    /// stored skills and `adas solution validate` with the files given.
    /// `skill` finds a consumer by its slag; one not found is not checked.
    pub fn contract_diagnostics<'a>(
        &self,
        positions: &document::Positions,
        skill: impl Fn(&str) -> Option<&'a Skill>,
    ) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (index, contract) in self.security_contracts.iter().enumerate() {
            let Some(consumer) = skill(&contract.consumer) else {
                continue;
            };
            let path = format!("security_contracts[{index}]");
            for broken in self.broken_contracts(&contract.consumer, consumer) {
                out.push(Diagnostic::error(
                    &path,
                    positions.find(&path),
                    codes::INVALID_VALUE,
                    broken,
                ));
            }
        }
        out
    }

    /// The contracts `skill`'s access policy breaks: each names a tool and
    /// grant the contract requires that no access rule of the skill requires
    /// for that tool. A solution whose consumer breaks a contract runs no job
    /// on that consumer.
    pub fn broken_contracts(&self, slag: &str, skill: &Skill) -> Vec<String> {
        let mut broken = Vec::new();
        for contract in self
            .security_contracts
            .iter()
            .filter(|c| c.consumer == slag)
        {
            for tool in &contract.for_tools {
                let rules: Vec<_> = crate::access::rules_for(skill, tool).collect();
                for key in &contract.requires_grants {
                    let kept = rules.iter().any(|rule| {
                        rule.requires_grants.contains(key) || rule.required_values.contains_key(key)
                    }) || rules
                        .iter()
                        .any(|rule| rule.effect.eq_ignore_ascii_case("deny"));
                    if !kept {
                        broken.push(format!(
                            "contract `{}`: `{slag}` calls `{tool}` without requiring the grant `{key}` (access_policy.rules)",
                            contract.name.as_deref().unwrap_or("unnamed")
                        ));
                    }
                }
                for (key, wanted) in &contract.required_values {
                    let kept = rules
                        .iter()
                        .any(|rule| rule.required_values.get(key) == Some(wanted));
                    if !kept {
                        broken.push(format!(
                            "contract `{}`: `{slag}` calls `{tool}` without requiring `{key}` = {wanted}",
                            contract.name.as_deref().unwrap_or("unnamed")
                        ));
                    }
                }
            }
        }
        broken
    }
}

/// A stored solution: its text, etag and the solution it loads to.
#[derive(Debug, Clone)]
pub struct StoredSolution {
    /// The document text.
    pub source: String,
    /// Its content digest.
    pub etag: String,
    /// The loaded solution.
    pub solution: Solution,
}

/// Most bytes of a solution document.
pub const MAX_SOLUTION_BYTES: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_one_of_its_skills_and_every_grant_consumed_has_an_issuer() {
        let source = r#"{
  "id": "s",
  "skills": [{"id": "gate"}, {"id": "work"}],
  "grants": [{"key": "a.b", "issued_by": [], "consumed_by": ["work"]}],
  "handoffs": [{"from": "gate", "to": "wrok", "grants_passed": ["a.b"]}],
  "routing": {"api": {"default_skill": "gate"}},
  "security_contracts": [{"consumer": "work", "requires_grants": ["a.c"], "for_tools": ["x"]}]
}"#;
        let loaded = load(source, Format::Json);
        let errors: Vec<(&str, u32)> = loaded
            .diagnostics
            .iter()
            .map(|d| (d.path.as_str(), d.line))
            .collect();
        assert!(errors.contains(&("handoffs[0].to", 5)), "{errors:?}");
        assert!(
            errors.contains(&("handoffs[0].grants_passed[0]", 5)),
            "{errors:?}"
        );
        assert!(errors.contains(&("grants[0].key", 4)), "{errors:?}");
        assert!(
            errors.contains(&("security_contracts[0].requires_grants[0]", 7)),
            "{errors:?}"
        );
        assert!(loaded.has_errors());
    }
}
