//! Bounds on the small grammars a skill writes inside one string — JSONPath
//! (`grant_mappings[].grants[].value_from`, their conditions), conditions of
//! approvals and tool policies, input `pattern`s and trigger durations.
//!
//! The document's own limits (size, YAML depth, node count) stop at a string's
//! edge: a 6 KB `condition` of a thousand nested parentheses is one small node.
//! Parsers of these grammars may recurse once per level (serde_json_path's
//! does), so every parse in this crate first passes [`check`]: one linear scan
//! of the bytes, no allocation, that refuses what is too long or too deep
//! before any parser sees it.

/// Longest expression a skill may write in one string field.
pub const MAX_EXPRESSION_BYTES: usize = 2048;
/// Deepest nesting of brackets (`(`, `[`, `{`) in one expression.
pub const MAX_EXPRESSION_NESTING: usize = 16;
/// Most descendant segments (`..`) in one JSONPath: each one can multiply
/// the nodes a query visits.
pub const MAX_DESCENDANT_SEGMENTS: usize = 4;
/// Longest duration (`PT1S`, `P1DT2H30M`).
pub const MAX_DURATION_BYTES: usize = 64;

/// A grammar written inside a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    /// RFC 9535 JSONPath (and the builder conditions that become its filters).
    JsonPath,
    /// An approval or tool-policy condition (`amount > 500 and …`).
    Condition,
    /// A regular expression (an input's `pattern`).
    Pattern,
    /// An ISO 8601 duration.
    Duration,
}

impl Grammar {
    fn name(self) -> &'static str {
        match self {
            Self::JsonPath => "JSONPath",
            Self::Condition => "condition",
            Self::Pattern => "pattern",
            Self::Duration => "duration",
        }
    }

    fn max_bytes(self) -> usize {
        match self {
            Self::Duration => MAX_DURATION_BYTES,
            _ => MAX_EXPRESSION_BYTES,
        }
    }
}

/// `Ok` when `text` is within the grammar's bounds; else why not, in words.
/// Linear in the length of `text` and checked before any parser runs.
pub fn check(grammar: Grammar, text: &str) -> Result<(), String> {
    let max = grammar.max_bytes();
    if text.len() > max {
        return Err(format!(
            "a {} is at most {max} bytes; this one has {}",
            grammar.name(),
            text.len()
        ));
    }
    let scan = scan(text, grammar);
    if scan.depth > MAX_EXPRESSION_NESTING {
        return Err(format!(
            "a {} nests brackets at most {MAX_EXPRESSION_NESTING} deep; this one goes {} deep",
            grammar.name(),
            scan.depth
        ));
    }
    if grammar == Grammar::JsonPath && scan.descendants > MAX_DESCENDANT_SEGMENTS {
        return Err(format!(
            "a JSONPath has at most {MAX_DESCENDANT_SEGMENTS} descendant segments (`..`); this one has {}",
            scan.descendants
        ));
    }
    Ok(())
}

/// Checks an input's `pattern`: an error when it passes the bounds, a
/// warning (`Ok(Some)`) when the runtime's regex engine cannot compile it
/// (lookaround, say) — the tool server may still check it.
pub fn pattern(text: &str) -> Result<Option<String>, String> {
    check(Grammar::Pattern, text)?;
    Ok(build_pattern(text)
        .err()
        .map(|error| format!("pattern `{text}` is not checked by the runtime: {error}")))
}

fn build_pattern(text: &str) -> Result<regex::Regex, regex::Error> {
    regex::RegexBuilder::new(text)
        .nest_limit(MAX_EXPRESSION_NESTING as u32 * 2)
        .size_limit(1 << 20)
        .build()
}

/// An input's `pattern` as the runtime matches it: within the bounds
/// validation checks, compiled once per process (a message never compiles
/// one), `None` when it is out of bounds or the engine cannot compile it.
pub fn compiled_pattern(text: &str) -> Option<std::sync::Arc<regex::Regex>> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    // Bounded: patterns come from the skills a process serves; a flood of
    // new ones empties the map rather than growing it.
    const MAX_KEPT: usize = 4096;
    // Shared, not cloned: a clone of a `Regex` starts an empty cache pool.
    static COMPILED: OnceLock<Mutex<HashMap<String, Option<std::sync::Arc<regex::Regex>>>>> =
        OnceLock::new();
    let compiled = COMPILED.get_or_init(Default::default);
    if let Some(kept) = compiled
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(text)
    {
        return kept.clone();
    }
    let built = check(Grammar::Pattern, text)
        .ok()
        .and_then(|()| build_pattern(text).ok())
        .map(std::sync::Arc::new);
    let mut kept = compiled
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if kept.len() >= MAX_KEPT {
        kept.clear();
    }
    kept.insert(text.to_owned(), built.clone());
    built
}

/// `text` as a diagnostic quotes it: at most 80 characters.
pub fn shown(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

struct Scan {
    depth: usize,
    descendants: usize,
}

/// The deepest bracket nesting and the `..` count outside string literals (a
/// pattern has no string literals: a quote is a character there).
fn scan(text: &str, grammar: Grammar) -> Scan {
    let quotes = grammar != Grammar::Pattern;
    let (mut depth, mut deepest, mut descendants) = (0usize, 0usize, 0usize);
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    let mut previous_dot = false;
    for byte in text.bytes() {
        if escaped {
            escaped = false;
            continue;
        }
        if byte == b'\\' {
            escaped = true;
            previous_dot = false;
            continue;
        }
        if let Some(open) = quote {
            if byte == open {
                quote = None;
            }
            continue;
        }
        match byte {
            b'\'' | b'"' if quotes => quote = Some(byte),
            b'(' | b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'.' if previous_dot => {
                descendants += 1;
                // `...` is one descendant segment and a dot, not two.
                previous_dot = false;
                continue;
            }
            _ => {}
        }
        previous_dot = byte == b'.';
    }
    Scan {
        depth: deepest,
        descendants,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_expressions_pass() {
        for (grammar, text) in [
            (Grammar::JsonPath, "$.user.id"),
            (
                Grammar::JsonPath,
                "$[?@.status == \"active\" && (@.a || @.b)]",
            ),
            (Grammar::Condition, "amount > 500 and reason contains 'x'"),
            (Grammar::Pattern, r"^(ORD|INV)-\d{3,6}$"),
            (Grammar::Duration, "PT1H30M"),
        ] {
            assert_eq!(check(grammar, text), Ok(()), "{text}");
        }
    }

    #[test]
    fn deep_long_and_descending_expressions_are_refused_before_parsing() {
        let deep = format!("{}@.a{}", "(".repeat(1000), ")".repeat(1000));
        assert!(
            check(Grammar::JsonPath, &deep)
                .unwrap_err()
                .contains("deep")
        );
        let brackets = format!("$.{}", "[".repeat(17));
        assert!(check(Grammar::JsonPath, &brackets).is_err());
        assert!(check(Grammar::Pattern, &"(".repeat(17)).is_err());
        assert!(check(Grammar::Condition, &"a".repeat(3000)).is_err());
        assert!(check(Grammar::Duration, &format!("P{}D", "1".repeat(80))).is_err());
        assert!(check(Grammar::JsonPath, "$..a..b..c..d..e").is_err());
        assert!(check(Grammar::JsonPath, "$..a..b..c..d").is_ok());
    }

    #[test]
    fn brackets_in_strings_and_escapes_do_not_count() {
        let quoted = format!("$[?@.name == '{}']", "(".repeat(100));
        assert_eq!(check(Grammar::JsonPath, &quoted), Ok(()));
        let escaped = r"\(".repeat(100);
        assert_eq!(check(Grammar::Pattern, &escaped), Ok(()));
        // In a pattern a quote is a character: the brackets after it count.
        assert!(check(Grammar::Pattern, &format!("'{}", "(".repeat(20))).is_err());
    }
}
