//! `${NAME}` variables in skill documents (`mcp_server: "${ADAS_DEMO_MCP_URL}"`).
//!
//! One expansion for every way a document enters the catalog — bootstrap from a
//! template, PutSkill, ValidateSkill — so a template copied and put back behaves
//! like the template. The operator sets the values (flags of the services); a
//! `${…}` naming anything else is an error at its line and column, never left
//! in place to fail later as a URL.

use crate::diagnostics::Position;
use crate::diagnostics::{Diagnostic, codes};

/// Errors reported at most: each costs a scan for its line, so the count is
/// bounded to keep a hostile document linear.
const MAX_ERRORS: usize = 20;

/// Variable values known to a catalog.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vars(Vec<(String, String)>);

impl Vars {
    /// Adds (or replaces) `name`.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.0.iter_mut().find(|(known, _)| known == name) {
            Some(entry) => entry.1 = value.to_owned(),
            None => self.0.push((name.to_owned(), value.to_owned())),
        }
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, value)| value.as_str())
    }

    /// The known names, in the order they were set.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(name, _)| name.as_str())
    }

    /// `source` with every `${NAME}` replaced, or an error for each reference to
    /// an unknown name or an unterminated `${` (the first [`MAX_ERRORS`]), positioned
    /// in `source`. One pass: linear in the input.
    pub fn expand(&self, source: &str) -> Result<String, Vec<Diagnostic>> {
        let mut out = String::with_capacity(source.len());
        let mut errors = Vec::new();
        let mut rest = source;
        let mut consumed = 0;
        while let Some(start) = rest.find("${") {
            if errors.len() == MAX_ERRORS {
                break;
            }
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let at = consumed + start;
            // `${grants.KEY}` and `${principal.FACT}` are runtime references
            // (access_policy `inject`), not operator variables: kept as written.
            if let Some(len) = grant_reference(after) {
                let used = start + 2 + len;
                out.push_str(&rest[start..used]);
                consumed += used;
                rest = &rest[used..];
                continue;
            }
            // A name is an identifier; anything else ends the reference.
            let name_len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            let name = &after[..name_len];
            if after[name_len..].starts_with('}') && !name.is_empty() {
                match self.get(name) {
                    Some(value) => out.push_str(value),
                    None => {
                        errors.push(self.unknown(source, at, name));
                        out.push_str(&rest[start..start + 3 + name_len]);
                    }
                }
                let used = start + 3 + name_len;
                consumed += used;
                rest = &rest[used..];
            } else {
                errors.push(Diagnostic::error(
                    "",
                    position_of(source, at),
                    codes::UNKNOWN_VARIABLE,
                    "`${` starts a variable reference `${NAME}` that is not closed by `}` after a name of letters, digits and `_`",
                ));
                out.push_str("${");
                consumed += start + 2;
                rest = after;
            }
        }
        out.push_str(rest);
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    fn unknown(&self, source: &str, at: usize, name: &str) -> Diagnostic {
        let known: Vec<&str> = self.names().collect();
        Diagnostic::error(
            "",
            position_of(source, at),
            codes::UNKNOWN_VARIABLE,
            format!(
                "unknown variable `${{{name}}}`; known: {}",
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            ),
        )
    }
}

/// The length of `grants.KEY}` or `principal.FACT}` at the start of `after`
/// (KEY: dotted names of letters, digits, `_` and `-`, at most 256 bytes),
/// if it is one: both are the runtime's references, not operator variables.
fn grant_reference(after: &str) -> Option<usize> {
    let (prefix, key) = ["grants.", "principal."]
        .into_iter()
        .find_map(|prefix| after.strip_prefix(prefix).map(|key| (prefix, key)))?;
    let end = key.find('}')?;
    let name = &key[..end];
    let valid = !name.is_empty()
        && name.len() <= 256
        && name.split('.').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        });
    valid.then_some(prefix.len() + end + 1)
}

/// 1-based line and column (in characters) of byte offset `at`.
fn position_of(source: &str, at: usize) -> Position {
    let before = &source[..at];
    let line = before.bytes().filter(|b| *b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    Position {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars {
        let mut vars = Vars::default();
        vars.set("ADAS_DEMO_MCP_URL", "http://127.0.0.1:1/mcp");
        vars
    }

    #[test]
    fn grant_references_are_kept_as_written() {
        let source =
            "inject:\n  organizer_id: \"${grants.sched.user_id}\"\nurl: ${ADAS_DEMO_MCP_URL}";
        assert_eq!(
            vars().expand(source).unwrap(),
            "inject:\n  organizer_id: \"${grants.sched.user_id}\"\nurl: http://127.0.0.1:1/mcp"
        );
        // Not a grant key: still an error at its place.
        assert!(vars().expand("a: ${grants.}").is_err());
        assert!(vars().expand("a: ${grants.a b}").is_err());
    }

    #[test]
    fn known_names_are_replaced() {
        assert_eq!(
            vars()
                .expand("a: \"${ADAS_DEMO_MCP_URL}\"\nb: ${ADAS_DEMO_MCP_URL}x")
                .unwrap(),
            "a: \"http://127.0.0.1:1/mcp\"\nb: http://127.0.0.1:1/mcpx"
        );
        assert_eq!(vars().expand("no vars, $5 {x}").unwrap(), "no vars, $5 {x}");
    }

    #[test]
    fn unknown_and_unterminated_references_are_positioned() {
        let errors = vars()
            .expand("name: x\nmcp_server: \"${MCP_URL}\"\nnote: é ${oops\n")
            .unwrap_err();
        let found: Vec<(u32, u32)> = errors.iter().map(|e| (e.line, e.column)).collect();
        assert_eq!(found, vec![(2, 14), (3, 9)]);
        assert!(errors[0].message.contains("`${MCP_URL}`"));
        assert!(errors[0].message.contains("ADAS_DEMO_MCP_URL"));
    }

    #[test]
    fn expansion_is_linear_on_hostile_input() {
        let hostile = "${".repeat(200_000);
        assert_eq!(vars().expand(&hostile).unwrap_err().len(), MAX_ERRORS);
    }
}
