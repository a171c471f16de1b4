//! The `.dil` spec format: validations, gates and the predicate vocabulary.

use serde::Serialize;
use serde_json::Value as Json;

/// A spec error with its position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct SpecError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// A predicate of the vocabulary, or the tokens it could not understand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Predicate {
    /// `file_exists PATH`.
    FileExists {
        /// Path.
        path: String,
    },
    /// `file_absent PATH`.
    FileAbsent {
        /// Path.
        path: String,
    },
    /// `file_contains PATH TEXT`.
    FileContains {
        /// Path.
        path: String,
        /// Literal.
        text: String,
    },
    /// `file_matches PATH /REGEX/`.
    FileMatches {
        /// Path.
        path: String,
        /// Pattern.
        pattern: String,
    },
    /// `json_equals PATH KEY.PATH VALUE`.
    JsonEquals {
        /// File.
        path: String,
        /// Dotted path in the JSON.
        pointer: String,
        /// Expected value.
        value: Json,
    },
    /// `command_ok SECONDS COMMAND…`.
    CommandOk {
        /// Timeout.
        timeout_secs: u64,
        /// Shell command.
        command: String,
    },
    /// `not` block.
    Not {
        /// The negated predicate.
        inner: Box<Predicate>,
    },
    /// `all` block (and a validation's top level).
    All {
        /// Predicates.
        items: Vec<Predicate>,
    },
    /// `any` block.
    Any {
        /// Predicates.
        items: Vec<Predicate>,
    },
    /// Outside the vocabulary.
    Unsupported {
        /// The line as written.
        text: String,
    },
}

/// Quotes a word when the line parser would split or unescape it.
fn quoted(word: &str) -> String {
    if !word.is_empty() && !word.contains(|c: char| c.is_whitespace() || c == '"' || c == '\\') {
        return word.to_owned();
    }
    format!("\"{}\"", word.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The predicate as a spec line (blocks on one line), for evidence and reasons.
impl std::fmt::Display for Predicate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |f: &mut std::fmt::Formatter<'_>, name: &str, items: &[Predicate]| {
            let inner: Vec<String> = items.iter().map(ToString::to_string).collect();
            write!(f, "{name}({})", inner.join("; "))
        };
        match self {
            Predicate::FileExists { path } => write!(f, "file_exists {}", quoted(path)),
            Predicate::FileAbsent { path } => write!(f, "file_absent {}", quoted(path)),
            Predicate::FileContains { path, text } => {
                write!(f, "file_contains {} {}", quoted(path), quoted(text))
            }
            Predicate::FileMatches { path, pattern } => {
                write!(f, "file_matches {} /{pattern}/", quoted(path))
            }
            Predicate::JsonEquals {
                path,
                pointer,
                value,
            } => write!(
                f,
                "json_equals {} {} {value}",
                quoted(path),
                quoted(pointer)
            ),
            Predicate::CommandOk {
                timeout_secs,
                command,
            } => write!(f, "command_ok {timeout_secs} {command}"),
            Predicate::Not { inner } => write!(f, "not {inner}"),
            Predicate::All { items } => list(f, "all", items),
            Predicate::Any { items } => list(f, "any", items),
            Predicate::Unsupported { text } => f.write_str(text),
        }
    }
}

/// A validation: id, goal, predicate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Validation {
    /// Id, e.g. `V_GATE_01_README`.
    pub id: String,
    /// What the agent should achieve.
    pub goal: String,
    /// What must hold.
    pub predicate: Predicate,
    /// The gate number, for gates.
    pub gate: Option<u32>,
    /// Header line.
    pub line: usize,
}

/// A parsed spec.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Spec {
    /// Every validation in file order.
    pub validations: Vec<Validation>,
}

impl Spec {
    /// Gates in numeric order.
    pub fn gates(&self) -> Vec<&Validation> {
        let mut gates: Vec<&Validation> = self
            .validations
            .iter()
            .filter(|validation| validation.gate.is_some())
            .collect();
        gates.sort_by_key(|validation| validation.gate);
        gates
    }
}

/// Splits a predicate line into words; double quotes group (with `\"` and `\\`),
/// and a word opening with `/` runs to the `/` that ends a word, so a regular
/// expression may hold spaces (`/fn main\(/`).
fn words(text: &str) -> Result<Vec<String>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut words = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        if chars[at].is_whitespace() {
            at += 1;
            continue;
        }
        let mut word = String::new();
        if chars[at] == '"' {
            at += 1;
            let mut closed = false;
            while at < chars.len() {
                let c = chars[at];
                at += 1;
                match c {
                    '\\' if at < chars.len() => {
                        word.push(chars[at]);
                        at += 1;
                    }
                    '"' => {
                        closed = true;
                        break;
                    }
                    c => word.push(c),
                }
            }
            if !closed {
                return Err("unterminated quote".into());
            }
        } else {
            let closing_slash = (chars[at] == '/')
                .then(|| {
                    (at + 1..chars.len()).find(|&end| {
                        chars[end] == '/'
                            && chars[end - 1] != '\\'
                            && chars.get(end + 1).is_none_or(|next| next.is_whitespace())
                    })
                })
                .flatten();
            let end = closing_slash.map_or_else(
                || {
                    (at..chars.len())
                        .find(|&end| chars[end].is_whitespace())
                        .unwrap_or(chars.len())
                },
                |end| end + 1,
            );
            word.extend(&chars[at..end]);
            at = end;
        }
        words.push(word);
    }
    Ok(words)
}

fn leaf(text: &str) -> Predicate {
    let unsupported = || Predicate::Unsupported {
        text: text.to_owned(),
    };
    let Ok(words) = words(text) else {
        return unsupported();
    };
    let (name, args) = match words.split_first() {
        Some((name, args)) => (name.as_str(), args),
        None => return unsupported(),
    };
    match (name, args) {
        ("file_exists", [path]) => Predicate::FileExists { path: path.clone() },
        ("file_absent", [path]) => Predicate::FileAbsent { path: path.clone() },
        ("file_contains", [path, literal]) => Predicate::FileContains {
            path: path.clone(),
            text: literal.clone(),
        },
        ("file_matches", [path, pattern])
            if pattern.len() >= 2 && pattern.starts_with('/') && pattern.ends_with('/') =>
        {
            let pattern = pattern[1..pattern.len() - 1].to_owned();
            if regex::Regex::new(&pattern).is_err() {
                return unsupported();
            }
            Predicate::FileMatches {
                path: path.clone(),
                pattern,
            }
        }
        ("json_equals", [path, pointer, value]) => {
            let value = serde_json::from_str(value).unwrap_or_else(|_| Json::String(value.clone()));
            Predicate::JsonEquals {
                path: path.clone(),
                pointer: pointer.clone(),
                value,
            }
        }
        ("command_ok", [seconds, command @ ..]) if !command.is_empty() => {
            match seconds.parse::<u64>() {
                Ok(timeout_secs) if timeout_secs > 0 => {
                    // The command is the rest of the line as written (quotes included).
                    let rest = text
                        .trim_start()
                        .trim_start_matches("command_ok")
                        .trim_start();
                    let command = rest
                        .trim_start_matches(seconds.as_str())
                        .trim_start()
                        .to_owned();
                    Predicate::CommandOk {
                        timeout_secs,
                        command,
                    }
                }
                _ => unsupported(),
            }
        }
        _ => unsupported(),
    }
}

/// Parses a gate id: `V_GATE_NN_NAME` → Ok(Some(NN)); other ids → Ok(None).
fn gate_number(id: &str) -> Result<Option<u32>, String> {
    let Some(rest) = id.strip_prefix("V_GATE_") else {
        return Ok(None);
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = &rest[digits.len()..];
    if digits.len() != 2 || !after.starts_with('_') || after.len() < 2 {
        return Err(format!(
            "gate id `{id}` must be V_GATE_NN_NAME with a two-digit number"
        ));
    }
    Ok(Some(digits.parse().expect("two digits")))
}

/// Parses a spec.
pub fn parse(source: &str) -> Result<Spec, SpecError> {
    let mut validations: Vec<Validation> = Vec::new();
    // (indent, line, text) of the current validation's body.
    let mut body: Vec<(usize, usize, String)> = Vec::new();
    let mut header: Option<(String, String, Option<u32>, usize)> = None;
    let finish = |header: Option<(String, String, Option<u32>, usize)>,
                  body: &mut Vec<(usize, usize, String)>,
                  validations: &mut Vec<Validation>|
     -> Result<(), SpecError> {
        if let Some((id, goal, gate, line)) = header {
            let mut at = 0;
            let items = block(body, &mut at, None)?;
            body.clear();
            validations.push(Validation {
                id,
                goal,
                predicate: Predicate::All { items },
                gate,
                line,
            });
        }
        Ok(())
    };
    for (index, raw) in source.lines().enumerate() {
        let line = index + 1;
        let content = raw
            .split_once(" #")
            .map_or(raw, |(before, _)| before)
            .trim_end();
        if content.trim().is_empty() || content.trim_start().starts_with('#') {
            continue;
        }
        let indent = content.len() - content.trim_start().len();
        if indent == 0 {
            finish(header.take(), &mut body, &mut validations)?;
            let Some((id, goal)) = content.split_once(':') else {
                return Err(SpecError {
                    line,
                    column: 1,
                    message: "a validation header is `ID: goal`".into(),
                });
            };
            let id = id.trim().to_owned();
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(SpecError {
                    line,
                    column: 1,
                    message: format!("`{id}` is not an id (letters, digits, `_`)"),
                });
            }
            let gate = gate_number(&id).map_err(|message| SpecError {
                line,
                column: 1,
                message,
            })?;
            if let Some(number) = gate
                && let Some(other) = validations
                    .iter()
                    .find(|validation| validation.gate == Some(number))
            {
                return Err(SpecError {
                    line,
                    column: 8,
                    message: format!("gate {number:02} is already defined on line {}", other.line),
                });
            }
            header = Some((id, goal.trim().to_owned(), gate, line));
        } else {
            if header.is_none() {
                return Err(SpecError {
                    line,
                    column: indent + 1,
                    message: "a predicate must follow a validation header".into(),
                });
            }
            body.push((indent, line, content.trim().to_owned()));
        }
    }
    finish(header.take(), &mut body, &mut validations)?;
    Ok(Spec { validations })
}

/// Parses the predicates of one block (lines at the same indentation).
fn block(
    lines: &[(usize, usize, String)],
    at: &mut usize,
    parent: Option<usize>,
) -> Result<Vec<Predicate>, SpecError> {
    let mut items = Vec::new();
    let Some(&(indent, ..)) = lines.get(*at) else {
        return Ok(items);
    };
    if parent.is_some_and(|parent| indent <= parent) {
        return Ok(items);
    }
    while let Some((line_indent, line, text)) = lines.get(*at).cloned() {
        if line_indent < indent {
            break;
        }
        if line_indent > indent {
            return Err(SpecError {
                line,
                column: line_indent + 1,
                message: "unexpected indentation".into(),
            });
        }
        *at += 1;
        let predicate = match text.as_str() {
            "all" | "any" | "not" => {
                let children = block(lines, at, Some(indent))?;
                match text.as_str() {
                    "all" => Predicate::All { items: children },
                    "any" => Predicate::Any { items: children },
                    _ if children.len() == 1 => Predicate::Not {
                        inner: Box::new(children.into_iter().next().expect("one child")),
                    },
                    _ => Predicate::Unsupported {
                        text: format!("not with {} predicates", children.len()),
                    },
                }
            }
            other if other.starts_with("not ") => Predicate::Not {
                inner: Box::new(leaf(other.trim_start_matches("not ").trim())),
            },
            other => leaf(other),
        };
        items.push(predicate);
    }
    Ok(items)
}

/// The first unsupported line under a predicate, if any.
pub fn unsupported_tokens(predicate: &Predicate) -> Option<String> {
    match predicate {
        Predicate::Unsupported { text } => Some(text.clone()),
        Predicate::Not { inner } => unsupported_tokens(inner),
        Predicate::All { items } | Predicate::Any { items } => {
            items.iter().find_map(unsupported_tokens)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gates_in_numeric_order_with_nesting() {
        let spec = parse(
            "# demo\nV_GATE_02_B: second\n  file_exists b\nNOTE: not a gate\n  file_exists n\nV_GATE_01_A: first\n  any\n    file_exists x\n    not file_exists y\n  command_ok 5 echo \"hi there\"\n",
        )
        .unwrap();
        let gates: Vec<&str> = spec.gates().iter().map(|gate| gate.id.as_str()).collect();
        assert_eq!(gates, vec!["V_GATE_01_A", "V_GATE_02_B"]);
        let first = spec.gates()[0];
        let Predicate::All { items } = &first.predicate else {
            panic!()
        };
        assert!(matches!(&items[0], Predicate::Any { items } if items.len() == 2));
        assert_eq!(
            items[1],
            Predicate::CommandOk {
                timeout_secs: 5,
                command: "echo \"hi there\"".into()
            }
        );
    }

    #[test]
    fn spec_errors_have_positions() {
        assert_eq!(parse("V_GATE_1_A: x\n").unwrap_err().line, 1);
        let duplicate = parse("V_GATE_01_A: x\n  file_exists a\nV_GATE_01_B: y\n").unwrap_err();
        assert_eq!((duplicate.line, duplicate.column), (3, 8));
        assert_eq!(parse("  file_exists a\n").unwrap_err().line, 1);
        assert_eq!(
            parse("V_GATE_01_A: x\n  file_exists a\n    file_exists b\n")
                .unwrap_err()
                .line,
            3
        );
    }

    #[test]
    fn unsupported_tokens_are_not_spec_errors() {
        let spec = parse("V_GATE_01_A: x\n  the code is beautiful\n").unwrap();
        assert_eq!(
            unsupported_tokens(&spec.gates()[0].predicate).as_deref(),
            Some("the code is beautiful")
        );
    }

    #[test]
    fn a_leaf_prints_back_to_the_line_it_came_from() {
        for line in [
            "file_exists a",
            "file_absent \"my file\"",
            "file_contains README.md \"say \\\"hi\\\"\"",
            "file_matches src/main.rs /fn main\\(/",
            "json_equals package.json main \"index.js\"",
            "command_ok 5 echo \"hi there\"",
        ] {
            let predicate = leaf(line);
            assert!(
                !matches!(predicate, Predicate::Unsupported { .. }),
                "{line}"
            );
            assert_eq!(
                leaf(&predicate.to_string()),
                predicate,
                "{line} printed as {predicate}"
            );
        }
    }
}
