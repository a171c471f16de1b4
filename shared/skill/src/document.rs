//! Skill documents (YAML or JSON) → a JSON value plus the source position of
//! every node. The YAML parser sits behind this one module so it can be swapped.
//!
//! Guards, because skill files come from outside: the input size, the nesting
//! depth and the number of nodes after alias expansion are bounded, so a
//! billion-laughs document is refused as soon as its expansion passes the budget,
//! before anything is materialized.

use std::collections::HashMap;

use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

pub use crate::diagnostics::Position;
use crate::diagnostics::{Diagnostic, codes};

/// Largest skill document accepted, in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 2 * 1024 * 1024;
/// Deepest nesting of mappings and sequences accepted.
pub const MAX_DEPTH: usize = 64;
/// Most nodes a document may have once aliases are expanded.
pub const MAX_NODES: usize = 200_000;

/// How a document is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// YAML, as the Skill Builder exports.
    Yaml,
    /// JSON, as the Skill Builder stores drafts.
    Json,
}

impl Format {
    /// Guesses the format from a file name, then from the first non-blank character.
    pub fn detect(file_name: Option<&str>, source: &str) -> Self {
        if let Some(name) = file_name {
            let lower = name.to_ascii_lowercase();
            if lower.ends_with(".json") {
                return Self::Json;
            }
            if lower.ends_with(".yaml") || lower.ends_with(".yml") {
                return Self::Yaml;
            }
        }
        match source.trim_start().chars().next() {
            Some('{') => Self::Json,
            _ => Self::Yaml,
        }
    }
}

/// Positions of the nodes of a document, by path (`tools[2].inputs[0].type`).
#[derive(Debug, Clone, Default)]
pub struct Positions {
    values: HashMap<String, Position>,
}

impl Positions {
    /// The position of the node at `path`, or of its nearest ancestor that has one.
    pub fn find(&self, path: &str) -> Position {
        let mut current = path;
        loop {
            if let Some(position) = self.values.get(current) {
                return *position;
            }
            match parent_path(current) {
                Some(parent) => current = parent,
                None => {
                    return self
                        .values
                        .get("")
                        .copied()
                        .unwrap_or(Position { line: 1, column: 1 });
                }
            }
        }
    }

    fn insert(&mut self, path: String, position: Position) {
        self.values.entry(path).or_insert(position);
    }
}

fn parent_path(path: &str) -> Option<&str> {
    if path.is_empty() {
        return None;
    }
    let cut = path.rfind(['.', '[']).unwrap_or(0);
    Some(&path[..cut])
}

/// A parsed document.
#[derive(Debug, Clone)]
pub struct Document {
    /// The content as JSON (mapping key order kept).
    pub value: Value,
    /// Where each node starts in the source.
    pub positions: Positions,
}

/// Parses a document, or returns the diagnostic that stopped it.
pub fn parse(source: &str, format: Format) -> Result<Document, Box<Diagnostic>> {
    if source.len() > MAX_DOCUMENT_BYTES {
        return Err(Box::new(Diagnostic::error(
            "",
            Position { line: 1, column: 1 },
            codes::TOO_LARGE,
            format!(
                "document is {} bytes; the limit is {MAX_DOCUMENT_BYTES}",
                source.len()
            ),
        )));
    }
    if format == Format::Json {
        // serde_json gives exact JSON syntax errors; the YAML reader below then
        // supplies positions (JSON is YAML's flow subset).
        if let Err(error) = serde_json::from_str::<serde::de::IgnoredAny>(source) {
            return Err(Box::new(Diagnostic::error(
                "",
                Position {
                    line: error.line() as u32,
                    column: error.column() as u32,
                },
                codes::SYNTAX,
                format!("json syntax: {error}"),
            )));
        }
    }
    let mut builder = Builder::default();
    let mut parser = Parser::new_from_str(source);
    loop {
        let (event, marker) = parser.next_token().map_err(|error| {
            let marker = error.marker();
            Box::new(Diagnostic::error(
                "",
                position(marker),
                codes::SYNTAX,
                format!("yaml syntax: {}", error.info()),
            ))
        })?;
        if event == Event::StreamEnd {
            break;
        }
        builder.on_event(event, marker).map_err(Box::new)?;
        if builder.documents > 1 {
            return Err(Box::new(Diagnostic::error(
                "",
                position(&marker),
                codes::SYNTAX,
                "a skill file holds exactly one document; found a second `---`",
            )));
        }
    }
    let value = builder.root.take().unwrap_or(Value::Null);
    Ok(Document {
        value,
        positions: builder.positions,
    })
}

fn position(marker: &Marker) -> Position {
    // yaml-rust2 columns are 0-based; lines are 1-based.
    Position {
        line: marker.line() as u32,
        column: marker.col() as u32 + 1,
    }
}

/// A container being built, with the path it sits at.
#[derive(Debug)]
enum Frame {
    Sequence {
        path: String,
        items: Vec<Value>,
        anchor: usize,
        nodes_at_start: usize,
    },
    Mapping {
        path: String,
        map: Map<String, Value>,
        pending_key: Option<(String, Position)>,
        anchor: usize,
        nodes_at_start: usize,
    },
}

#[derive(Debug, Default)]
struct Builder {
    stack: Vec<Frame>,
    root: Option<Value>,
    positions: Positions,
    /// Anchored values and how many nodes each stands for.
    anchors: HashMap<usize, (Value, usize)>,
    nodes: usize,
    documents: usize,
}

impl Builder {
    fn on_event(&mut self, event: Event, marker: Marker) -> Result<(), Diagnostic> {
        let here = position(&marker);
        match event {
            Event::StreamStart | Event::Nothing | Event::StreamEnd | Event::DocumentEnd => Ok(()),
            Event::DocumentStart => {
                self.documents += 1;
                Ok(())
            }
            Event::Scalar(text, style, anchor, tag) => {
                // A scalar in key position is a mapping key, not a value.
                if let Some(Frame::Mapping {
                    pending_key,
                    map,
                    path,
                    ..
                }) = self.stack.last_mut()
                    && pending_key.is_none()
                {
                    // A block mapping is best located by its first key.
                    if map.is_empty() {
                        self.positions.values.insert(path.clone(), here);
                    }
                    *pending_key = Some((text, here));
                    return Ok(());
                }
                let plain = style == TScalarStyle::Plain && tag.is_none();
                let value = if plain {
                    resolve_plain(&text)
                } else {
                    Value::String(text)
                };
                self.count(1, here)?;
                if anchor > 0 {
                    self.anchors.insert(anchor, (value.clone(), 1));
                }
                self.push_value(value, here)
            }
            Event::Alias(anchor) => {
                let Some((value, nodes)) = self.anchors.get(&anchor).cloned() else {
                    return Err(Diagnostic::error(
                        "",
                        here,
                        codes::SYNTAX,
                        "alias refers to an unknown anchor",
                    ));
                };
                if let Some(Frame::Mapping {
                    pending_key: None, ..
                }) = self.stack.last()
                {
                    return Err(Diagnostic::error(
                        "",
                        here,
                        codes::SYNTAX,
                        "aliases are not supported as mapping keys",
                    ));
                }
                self.count(nodes, here)?;
                self.push_value(value, here)
            }
            Event::SequenceStart(anchor, _) => {
                let path = self.next_path(here)?;
                self.enter(here)?;
                let nodes_at_start = self.nodes;
                self.stack.push(Frame::Sequence {
                    path,
                    items: Vec::new(),
                    anchor,
                    nodes_at_start,
                });
                Ok(())
            }
            Event::MappingStart(anchor, _) => {
                let path = self.next_path(here)?;
                self.enter(here)?;
                let nodes_at_start = self.nodes;
                self.stack.push(Frame::Mapping {
                    path,
                    map: Map::new(),
                    pending_key: None,
                    anchor,
                    nodes_at_start,
                });
                Ok(())
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Err(Diagnostic::error(
                        "",
                        here,
                        codes::SYNTAX,
                        "unbalanced end of collection",
                    ));
                };
                let (value, anchor, nodes_at_start) = match frame {
                    Frame::Sequence {
                        items,
                        anchor,
                        nodes_at_start,
                        ..
                    } => (Value::Array(items), anchor, nodes_at_start),
                    Frame::Mapping {
                        map,
                        anchor,
                        nodes_at_start,
                        ..
                    } => (Value::Object(map), anchor, nodes_at_start),
                };
                if anchor > 0 {
                    self.anchors
                        .insert(anchor, (value.clone(), self.nodes - nodes_at_start + 1));
                }
                self.attach(value)
            }
        }
    }

    fn enter(&mut self, here: Position) -> Result<(), Diagnostic> {
        self.count(1, here)?;
        if self.stack.len() >= MAX_DEPTH {
            return Err(Diagnostic::error(
                "",
                here,
                codes::TOO_DEEP,
                format!("nesting deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    fn count(&mut self, nodes: usize, here: Position) -> Result<(), Diagnostic> {
        self.nodes = self.nodes.saturating_add(nodes);
        if self.nodes > MAX_NODES {
            return Err(Diagnostic::error(
                "",
                here,
                codes::TOO_LARGE,
                format!(
                    "document expands to more than {MAX_NODES} nodes (alias expansion is bounded)"
                ),
            ));
        }
        Ok(())
    }

    /// The path the next value will sit at, recording where it starts.
    fn next_path(&mut self, here: Position) -> Result<String, Diagnostic> {
        let path = match self.stack.last() {
            None => String::new(),
            Some(Frame::Sequence { path, items, .. }) => format!("{path}[{}]", items.len()),
            Some(Frame::Mapping {
                path,
                pending_key: Some((key, _)),
                ..
            }) => child_path(path, key),
            Some(Frame::Mapping {
                pending_key: None, ..
            }) => {
                return Err(Diagnostic::error(
                    "",
                    here,
                    codes::SYNTAX,
                    "mapping keys must be plain scalars",
                ));
            }
        };
        self.positions.insert(path.clone(), here);
        Ok(path)
    }

    fn push_value(&mut self, value: Value, here: Position) -> Result<(), Diagnostic> {
        self.next_path(here)?;
        self.attach(value)
    }

    fn attach(&mut self, value: Value) -> Result<(), Diagnostic> {
        match self.stack.last_mut() {
            None => {
                self.root = Some(value);
                Ok(())
            }
            Some(Frame::Sequence { items, .. }) => {
                items.push(value);
                Ok(())
            }
            Some(Frame::Mapping {
                map,
                pending_key,
                path,
                ..
            }) => {
                let (key, key_position) = pending_key
                    .take()
                    .expect("a value in a mapping follows its key");
                if map.contains_key(&key) {
                    return Err(Diagnostic::error(
                        &child_path(path, &key),
                        key_position,
                        codes::DUPLICATE_KEY,
                        format!("duplicate key `{key}`"),
                    ));
                }
                map.insert(key, value);
                Ok(())
            }
        }
    }
}

/// `parent.key`, or `key` at the root; keys that are not identifiers are quoted.
pub fn child_path(parent: &str, key: &str) -> String {
    let simple = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let segment = if simple {
        key.to_owned()
    } else {
        format!("\"{}\"", key.replace('"', "\\\""))
    };
    if parent.is_empty() {
        segment
    } else {
        format!("{parent}.{segment}")
    }
}

/// YAML 1.2 core schema resolution of a plain scalar.
fn resolve_plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let looks_numeric =
        text.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.');
    if looks_numeric {
        if let Ok(integer) = text.parse::<i64>() {
            return Value::Number(integer.into());
        }
        if let Some(hex) = text
            .strip_prefix("0x")
            .and_then(|hex| i64::from_str_radix(hex, 16).ok())
        {
            return Value::Number(hex.into());
        }
        let float_like = text
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'));
        if float_like
            && let Ok(float) = text.parse::<f64>()
            && let Some(number) = Number::from_f64(float)
        {
            return Value::Number(number);
        }
    }
    Value::String(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_point_at_nodes() {
        let source =
            "name: x\ntools:\n  - name: a\n    inputs:\n      - name: id\n        type: strin\n";
        let document = parse(source, Format::Yaml).unwrap();
        assert_eq!(
            document.positions.find("tools[0].inputs[0].type"),
            Position {
                line: 6,
                column: 15
            }
        );
        assert_eq!(
            document.positions.find("tools[0].name"),
            Position {
                line: 3,
                column: 11
            }
        );
        // A missing field falls back to its parent.
        assert_eq!(
            document.positions.find("tools[0].inputs[0].missing"),
            Position { line: 5, column: 9 }
        );
        assert_eq!(document.value["tools"][0]["inputs"][0]["type"], "strin");
    }

    #[test]
    fn plain_scalars_resolve_by_the_core_schema() {
        let document = parse(
            "a: 1\nb: 2.5\nc: true\nd: ~\ne: '1'\nf: 1.0.0\ng: -3\n",
            Format::Yaml,
        )
        .unwrap();
        let value = document.value;
        assert_eq!(value["a"], 1);
        assert_eq!(value["b"], 2.5);
        assert_eq!(value["c"], true);
        assert!(value["d"].is_null());
        assert_eq!(value["e"], "1");
        assert_eq!(value["f"], "1.0.0");
        assert_eq!(value["g"], -3);
    }

    #[test]
    fn billion_laughs_is_refused_fast() {
        let mut source = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..12 {
            let previous = level - 1;
            source.push_str(&format!(
                "a{level}: &a{level} [*a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}]\n"
            ));
        }
        let started = std::time::Instant::now();
        let error = parse(&source, Format::Yaml).unwrap_err();
        assert_eq!(error.code, codes::TOO_LARGE);
        // No timing assertion: the budget stops it long before 10^12 nodes exist.
        let _ = started;
    }

    #[test]
    fn deep_nesting_is_refused() {
        let source = format!("{}x{}", "[".repeat(200), "]".repeat(200));
        let error = parse(&source, Format::Yaml).unwrap_err();
        assert!(
            error.code == codes::TOO_DEEP || error.code == codes::SYNTAX,
            "{error:?}"
        );
    }

    #[test]
    fn duplicate_keys_are_errors_at_the_key() {
        let error = parse("a: 1\nb:\n  c: 1\n  c: 2\n", Format::Yaml).unwrap_err();
        assert_eq!(
            (error.code, error.path.as_str(), error.line),
            (codes::DUPLICATE_KEY, "b.c", 4)
        );
    }

    #[test]
    fn json_syntax_errors_have_positions() {
        let error = parse("{\n  \"a\": 1,\n  \"b\": }\n", Format::Json).unwrap_err();
        assert_eq!((error.code, error.line), (codes::SYNTAX, 3));
    }
}
