//! Resources (spec 002): what a skill declares, what a job binds, and persona
//! templating with `{{resources.x}}` and `{{#if resources.x}}…{{else}}…{{/if}}`.
//!
//! Credential values are references (`vault:aws/creds/dev`, `env:NAME`), never
//! secrets; still, they never appear in a log line, an error message or a
//! rendered persona (it shows `[credential]`).

use std::collections::BTreeMap;
use std::path::Path;

use crate::model::ResourceDeclaration;

/// The resource types.
pub const RESOURCE_TYPES: &[&str] = &[
    "filesystem",
    "connection_string",
    "api_endpoint",
    "credential",
];

/// Deepest `{{#if}}` nesting a persona may have. Rendering, collecting and
/// dropping the tree recurse once per level, so the depth is bounded where the
/// text is parsed (a 784 KB persona of nested blocks overflowed the stack).
pub const MAX_TEMPLATE_DEPTH: usize = 16;

/// What a rendered persona shows for a credential.
pub const CREDENTIAL_PLACEHOLDER: &str = "[credential]";

/// One problem with a binding; its message never contains a credential value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceProblem {
    /// Resource name (the field is `resources.<name>`).
    pub name: String,
    /// What is wrong.
    pub message: String,
}

/// Accepted bindings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoundResources {
    /// Values by name.
    pub values: BTreeMap<String, String>,
    /// Which of them are credentials.
    pub credentials: Vec<String>,
    /// Declared optional resources left unbound.
    pub unbound_optional: Vec<String>,
}

impl BoundResources {
    /// The bindings with credential values replaced, safe to log or return.
    pub fn redacted(&self) -> BTreeMap<String, String> {
        self.values
            .iter()
            .map(|(name, value)| {
                let shown = if self.credentials.contains(name) {
                    "[redacted]".to_owned()
                } else {
                    value.clone()
                };
                (name.clone(), shown)
            })
            .collect()
    }
}

/// Validates bindings against declarations: every required resource bound,
/// nothing undeclared, filesystem paths exist, values shaped like their type.
pub fn bind(
    declared: &[ResourceDeclaration],
    given: &BTreeMap<String, String>,
) -> Result<BoundResources, Vec<ResourceProblem>> {
    let mut problems = Vec::new();
    let mut bound = BoundResources::default();
    for name in given.keys() {
        if !declared.iter().any(|declaration| &declaration.name == name) {
            problems.push(ResourceProblem {
                name: name.clone(),
                message: format!("resource `{name}` is not declared by the skill"),
            });
        }
    }
    for declaration in declared {
        let name = &declaration.name;
        let Some(value) = given.get(name) else {
            if declaration.required {
                problems.push(ResourceProblem {
                    name: name.clone(),
                    message: format!(
                        "required resource `{name}` ({}) is not bound",
                        declaration.kind
                    ),
                });
            } else {
                bound.unbound_optional.push(name.clone());
            }
            continue;
        };
        match check_value(&declaration.kind, value) {
            Ok(()) => {
                if declaration.kind == "credential" {
                    bound.credentials.push(name.clone());
                }
                bound.values.insert(name.clone(), value.clone());
            }
            Err(reason) => problems.push(ResourceProblem {
                name: name.clone(),
                message: format!("resource `{name}`: {reason}"),
            }),
        }
    }
    if problems.is_empty() {
        Ok(bound)
    } else {
        Err(problems)
    }
}

/// Why a value does not fit its type; never quotes a credential.
fn check_value(kind: &str, value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        return Err("is empty".into());
    }
    match kind {
        "filesystem" => {
            if Path::new(value).exists() {
                Ok(())
            } else {
                Err(format!("path does not exist: {value}"))
            }
        }
        "connection_string" => match value.split_once("://") {
            Some((scheme, rest)) if !scheme.is_empty() && !rest.is_empty() => Ok(()),
            _ => Err("is not a connection URI (scheme://…)".into()),
        },
        "api_endpoint" => {
            let rest = value
                .strip_prefix("https://")
                .or_else(|| value.strip_prefix("http://"));
            match rest {
                Some(rest) if !rest.is_empty() && !rest.starts_with('/') => Ok(()),
                _ => Err(format!("is not an http(s) URL: {value}")),
            }
        }
        "credential" => {
            if is_secret_reference(value) {
                Ok(())
            } else {
                Err(format!(
                    "must be a secret reference `{}:NAME` (value not shown)",
                    SECRET_SCHEMES.join(":NAME`, `")
                ))
            }
        }
        other => Err(format!("unknown resource type `{other}`")),
    }
}

/// The schemes a credential reference may use: `env:NAME` (the service's
/// environment), `secret:NAME` (the operator's secrets file), `vault:path`.
/// Anything else — `password:hunter2` — is a literal secret and refused.
pub const SECRET_SCHEMES: &[&str] = &["env", "secret", "vault"];

/// The secrets each tenant's jobs may reference: the operator's allow-list
/// (`--secret-allow TENANT=PATTERN`, `*` for every tenant; a pattern is a
/// reference, `prefix*` matching its start). A reference that is well formed
/// but not allowed is refused: a user cannot point a job at whatever the
/// server's environment holds (`env:…_API_KEY`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SecretAllowList(Vec<(String, String)>);

impl SecretAllowList {
    /// The list from `(tenant, pattern)` entries.
    pub fn new(entries: impl IntoIterator<Item = (String, String)>) -> Self {
        Self(entries.into_iter().collect())
    }

    /// Parses one `TENANT=PATTERN` entry (a flag's value).
    pub fn parse_entry(entry: &str) -> Result<(String, String), String> {
        let (tenant, pattern) = entry.split_once('=').ok_or_else(|| {
            format!("`{entry}`: expected TENANT=PATTERN, e.g. acme=secret:acme-*")
        })?;
        let reference = pattern.strip_suffix('*').unwrap_or(pattern);
        let scheme_only = reference
            .strip_suffix(':')
            .is_some_and(|scheme| SECRET_SCHEMES.contains(&scheme));
        if tenant.is_empty() || !(scheme_only || is_secret_reference(reference)) {
            return Err(format!(
                "`{entry}`: expected TENANT=PATTERN where PATTERN is a reference ({}:NAME), optionally ending in `*`",
                SECRET_SCHEMES.join(":NAME, ")
            ));
        }
        Ok((tenant.to_owned(), pattern.to_owned()))
    }

    /// Whether jobs of `tenant` may reference `reference`.
    pub fn allows(&self, tenant: &str, reference: &str) -> bool {
        self.0.iter().any(|(allowed_tenant, pattern)| {
            (allowed_tenant == "*" || allowed_tenant == tenant)
                && match pattern.strip_suffix('*') {
                    Some(prefix) => reference.starts_with(prefix),
                    None => reference == pattern,
                }
        })
    }
}

/// Whether `value` is a reference to a secret (never the secret itself): a known
/// scheme, then a name of letters, digits and `_ - . /`, at most 256 bytes.
pub fn is_secret_reference(value: &str) -> bool {
    value.len() <= 256
        && value.split_once(':').is_some_and(|(scheme, name)| {
            SECRET_SCHEMES.contains(&scheme)
                && !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        })
}

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Text(String),
    Value(String),
    If {
        name: String,
        then: Vec<Node>,
        otherwise: Vec<Node>,
    },
}

/// An open block while parsing a template: the root, or an `{{#if}}` (with its
/// `then` branch once `{{else}}` was seen).
#[derive(Debug, Default)]
struct Block {
    nodes: Vec<Node>,
    condition: Option<String>,
    then: Option<Vec<Node>>,
}

/// Parses a template into nodes, or says what is wrong.
fn parse_template(text: &str) -> Result<Vec<Node>, String> {
    let mut stack = vec![Block::default()];
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let (before, after) = rest.split_at(start);
        if !before.is_empty() {
            stack
                .last_mut()
                .expect("root block")
                .nodes
                .push(Node::Text(before.to_owned()));
        }
        let Some(end) = after.find("}}") else {
            return Err("unclosed `{{` in persona".into());
        };
        let tag = after[2..end].trim();
        rest = &after[end + 2..];
        if let Some(name) = tag.strip_prefix("#if").map(str::trim) {
            let name = resource_name(name)
                .ok_or_else(|| format!("`{{{{#if {name}}}}}` must test `resources.<name>`"))?;
            if stack.len() > MAX_TEMPLATE_DEPTH {
                return Err(format!(
                    "`{{{{#if}}}}` blocks nest at most {MAX_TEMPLATE_DEPTH} deep in a persona"
                ));
            }
            stack.push(Block {
                condition: Some(name),
                ..Block::default()
            });
        } else if tag == "else" {
            let block = stack.last_mut().expect("block");
            if block.condition.is_none() || block.then.is_some() {
                return Err("`{{else}}` outside an `{{#if}}`".into());
            }
            block.then = Some(std::mem::take(&mut block.nodes));
        } else if tag == "/if" {
            if stack.len() == 1 {
                return Err("`{{/if}}` without an `{{#if}}`".into());
            }
            let block = stack.pop().expect("if block");
            let name = block.condition.expect("if blocks have a condition");
            let node = match block.then {
                Some(then) => Node::If {
                    name,
                    then,
                    otherwise: block.nodes,
                },
                None => Node::If {
                    name,
                    then: block.nodes,
                    otherwise: Vec::new(),
                },
            };
            stack.last_mut().expect("parent").nodes.push(node);
        } else {
            let name = resource_name(tag)
                .ok_or_else(|| format!("`{{{{{tag}}}}}` is not `resources.<name>`"))?;
            stack
                .last_mut()
                .expect("block")
                .nodes
                .push(Node::Value(name));
        }
    }
    if stack.len() > 1 {
        return Err("`{{#if}}` without `{{/if}}` in persona".into());
    }
    let mut nodes = stack.pop().expect("root").nodes;
    if !rest.is_empty() {
        nodes.push(Node::Text(rest.to_owned()));
    }
    Ok(nodes)
}

fn resource_name(expression: &str) -> Option<String> {
    let name = expression.strip_prefix("resources.")?;
    (!name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-')))
    .then(|| name.to_owned())
}

/// Resource names a template refers to, or why it does not parse.
pub fn template_references(text: &str) -> Result<Vec<String>, String> {
    fn collect(nodes: &[Node], out: &mut Vec<String>) {
        for node in nodes {
            match node {
                Node::Text(_) => {}
                Node::Value(name) => out.push(name.clone()),
                Node::If {
                    name,
                    then,
                    otherwise,
                } => {
                    out.push(name.clone());
                    collect(then, out);
                    collect(otherwise, out);
                }
            }
        }
    }
    let nodes = parse_template(text)?;
    let mut names = Vec::new();
    collect(&nodes, &mut names);
    names.dedup();
    Ok(names)
}

/// Renders a persona with the job's bindings. A template that does not parse is
/// returned as written (validation reports it); credentials render as
/// [`CREDENTIAL_PLACEHOLDER`]; unbound values render empty.
pub fn render(text: &str, bound: &BoundResources) -> String {
    fn emit(nodes: &[Node], bound: &BoundResources, out: &mut String) {
        for node in nodes {
            match node {
                Node::Text(text) => out.push_str(text),
                Node::Value(name) => {
                    if bound.credentials.contains(name) {
                        out.push_str(CREDENTIAL_PLACEHOLDER);
                    } else if let Some(value) = bound.values.get(name) {
                        out.push_str(value);
                    }
                }
                Node::If {
                    name,
                    then,
                    otherwise,
                } => {
                    let branch = if bound.values.contains_key(name) {
                        then
                    } else {
                        otherwise
                    };
                    emit(branch, bound, out);
                }
            }
        }
    }
    match parse_template(text) {
        Ok(nodes) => {
            let mut out = String::with_capacity(text.len());
            emit(&nodes, bound, &mut out);
            out
        }
        Err(_) => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declare(name: &str, kind: &str, required: bool) -> ResourceDeclaration {
        ResourceDeclaration {
            name: name.into(),
            kind: kind.into(),
            required,
            description: None,
        }
    }

    fn given(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn secret_references_come_from_the_operators_allow_list() {
        let list = SecretAllowList::new([
            SecretAllowList::parse_entry("acme=secret:acme-*").unwrap(),
            SecretAllowList::parse_entry("*=vault:shared/db").unwrap(),
        ]);
        assert!(list.allows("acme", "secret:acme-payments"));
        assert!(!list.allows("globex", "secret:acme-payments"));
        assert!(!list.allows("acme", "env:OPENAI_API_KEY"));
        assert!(list.allows("globex", "vault:shared/db"));
        assert!(!list.allows("globex", "vault:shared/db2"));
        assert!(!SecretAllowList::default().allows("acme", "secret:x"));
        for bad in ["acme", "=secret:x", "acme=password:x", "acme=env:A B"] {
            assert!(SecretAllowList::parse_entry(bad).is_err(), "{bad}");
        }
        assert!(SecretAllowList::parse_entry("acme=env:*").is_ok());
    }

    #[test]
    fn bindings_are_checked_by_type() {
        let dir = std::env::temp_dir();
        let declared = vec![
            declare("codebase", "filesystem", true),
            declare("docs", "filesystem", false),
            declare("db", "connection_string", false),
            declare("api", "api_endpoint", false),
            declare("token", "credential", false),
        ];
        let ok = bind(
            &declared,
            &given(&[
                ("codebase", dir.to_str().unwrap()),
                ("db", "postgres://localhost/db"),
                ("api", "https://api.example.com"),
                ("token", "vault:aws/creds/dev"),
            ]),
        )
        .unwrap();
        assert_eq!(ok.unbound_optional, vec!["docs".to_owned()]);
        assert_eq!(ok.redacted()["token"], "[redacted]");

        let problems = bind(
            &declared,
            &given(&[
                ("db", "localhost"),
                ("api", "ftp://x"),
                ("token", "s3cr3t value"),
                ("extra", "1"),
            ]),
        )
        .unwrap_err();
        let names: Vec<&str> = problems
            .iter()
            .map(|problem| problem.name.as_str())
            .collect();
        assert_eq!(names, vec!["extra", "codebase", "db", "api", "token"]);
        assert!(
            problems
                .iter()
                .all(|problem| !problem.message.contains("s3cr3t")),
            "credential values never appear: {problems:?}"
        );
        let missing_path =
            bind(&declared, &given(&[("codebase", "/no/such/dir/anywhere")])).unwrap_err();
        assert!(missing_path[0].message.contains("path does not exist"));
    }

    #[test]
    fn persona_templates_render_and_redact() {
        let bound = BoundResources {
            values: given(&[("codebase", "/src/app"), ("token", "vault:x")]),
            credentials: vec!["token".into()],
            unbound_optional: vec!["docs".into()],
        };
        let persona = "Work on {{resources.codebase}}.{{#if resources.docs}} Docs: {{resources.docs}}.{{else}} No docs.{{/if}} Token {{resources.token}}.";
        assert_eq!(
            render(persona, &bound),
            "Work on /src/app. No docs. Token [credential]."
        );
        assert_eq!(
            template_references(persona).unwrap(),
            vec!["codebase", "docs", "token"]
        );
        assert!(template_references("{{#if resources.x}}unclosed").is_err());
        assert!(template_references("{{/if}}").is_err());
        assert!(template_references("{{user.name}}").is_err());
    }

    #[test]
    fn literal_secrets_are_refused_and_never_echoed() {
        let declared = vec![declare("token", "credential", true)];
        for literal in ["password:hunter2", "hunter2", "env:", "env:A B", "ENV:X"] {
            let problems = bind(&declared, &given(&[("token", literal)])).unwrap_err();
            assert_eq!(problems[0].name, "token");
            assert!(
                !problems[0].message.contains("hunter2"),
                "{}",
                problems[0].message
            );
        }
        for reference in [
            "env:DB_PASSWORD",
            "secret:payments/api",
            "vault:aws/creds/dev",
        ] {
            bind(&declared, &given(&[("token", reference)])).unwrap();
        }
    }

    #[test]
    fn nesting_is_bounded_without_recursing_over_the_input() {
        // The attack document: 784 KB of nested blocks. Refused at the bound, and
        // parsing it neither recurses nor overflows (drop included).
        let depth = 784 * 1024 / "{{#if resources.x}}".len();
        let hostile = "{{#if resources.x}}".repeat(depth) + &"{{/if}}".repeat(depth);
        let error = template_references(&hostile).unwrap_err();
        assert!(error.contains("at most 16"), "{error}");
        assert_eq!(render(&hostile, &BoundResources::default()), hostile);
        let ok = "{{#if resources.x}}".repeat(MAX_TEMPLATE_DEPTH)
            + &"{{/if}}".repeat(MAX_TEMPLATE_DEPTH);
        assert_eq!(template_references(&ok).unwrap(), vec!["x"]);
    }
}
