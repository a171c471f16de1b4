//! The plan tree, its canonical DSL printer, and its JSON form (serde): the whole
//! tree, runtime nodes included, so a plan and its progress can be stored in a
//! job record and continued by another process.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// A program: a sequence of top-level elements (usually intent calls).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Program {
    /// Top-level elements, in order.
    pub elements: Vec<Node>,
}

/// An intent call with named arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Intent {
    /// Tool name, e.g. `retrieve_screw` or `identity.user.lookup`.
    pub name: String,
    /// Arguments, in written order.
    pub args: Vec<Arg>,
}

/// A named argument (a slot).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Arg {
    /// Slot name.
    pub name: String,
    /// Its value, or what resolves it.
    pub value: Node,
}

/// A literal value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Literal {
    /// An integer.
    Int(i64),
    /// A float; always finite (the parser and answer conversion refuse others).
    #[serde(serialize_with = "finite")]
    Float(f64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
}

/// JSON would write a non-finite float as `null` and read back something else:
/// such a plan is refused at the write instead of corrupting the job for good.
fn finite<S: serde::Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.is_finite() {
        serializer.serialize_f64(*value)
    } else {
        Err(serde::ser::Error::custom(
            "a non-finite number cannot be stored",
        ))
    }
}

/// A node of the tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "node", rename_all = "snake_case")]
pub enum Node {
    /// An intent call. In argument position its return value feeds the outer call
    /// (the reference's `ReturnValue`).
    Intent(Intent),
    /// A literal.
    Value {
        /// The literal.
        literal: Literal,
    },
    /// A list of values.
    List {
        /// Items.
        items: Vec<Node>,
    },
    /// `ASK("question")`: ask the user.
    Ask {
        /// The question.
        question: String,
    },
    /// `QUERY_FILL("query")`: compute the value from query sources, no interaction.
    QueryFill {
        /// What to compute.
        query: String,
    },
    /// `QUERY_USER("query")`: answer from query sources, then let the user respond.
    QueryUser {
        /// The user's question.
        query: String,
    },
    /// `QUERY_GATHER("query", "sources")`: gather information, then plan from it.
    QueryGather {
        /// The original request.
        query: String,
        /// Which sources to consult.
        sources: String,
    },
    /// `F("fuzzy words")`: a fuzzy value resolved from query sources.
    Fuzzy {
        /// The words.
        text: String,
    },
    /// `SAME_AS_PREVIOUS_INTENT()`: the value this slot had in an earlier call.
    SameAsPrevious,
    /// `PROPAGATE_SLOT(name=value, ...)`: values to remember for later slots.
    PropagateSlots {
        /// The values.
        args: Vec<Arg>,
    },
    /// `ABORT()`.
    Abort,
    /// `ABORT_WITH_NEW_INTENTS([calls])`: replace the current call with these.
    AbortWithNewIntents {
        /// The replacement calls.
        intents: Vec<Intent>,
    },
    /// Runtime: a call that ran; evaluating again never calls the tool twice.
    Evaluated {
        /// The call as it ran (arguments concrete).
        intent: Intent,
        /// What the tool returned.
        result: Json,
    },
    /// Runtime: a call whose tool failed recoverably; the resolver asks the user how to proceed.
    RuntimeError {
        /// The call that failed.
        intent: Intent,
        /// The tool's error message.
        error: String,
    },
}

impl Node {
    /// A literal node.
    pub fn literal(literal: Literal) -> Self {
        Self::Value { literal }
    }

    /// Whether the node is a concrete value (nothing left to resolve or evaluate inside).
    pub fn is_concrete(&self) -> bool {
        match self {
            Self::Value { .. } | Self::Evaluated { .. } => true,
            Self::List { items } => items.iter().all(Node::is_concrete),
            _ => false,
        }
    }

    /// The JSON value of a concrete node.
    pub fn to_json(&self) -> Option<Json> {
        match self {
            Self::Value { literal } => Some(literal.to_json()),
            Self::Evaluated { result, .. } => Some(result.clone()),
            Self::List { items } => items
                .iter()
                .map(Node::to_json)
                .collect::<Option<Vec<_>>>()
                .map(Json::Array),
            _ => None,
        }
    }

    /// A concrete node from a JSON value (objects become JSON strings: the DSL has no maps).
    pub fn from_json(value: &Json) -> Self {
        match value {
            Json::Null => Self::literal(Literal::Str(String::new())),
            Json::Bool(value) => Self::literal(Literal::Bool(*value)),
            Json::Number(number) => match number.as_i64() {
                Some(integer) => Self::literal(Literal::Int(integer)),
                None => Self::literal(Literal::Float(number.as_f64().unwrap_or(0.0))),
            },
            Json::String(text) => Self::literal(Literal::Str(text.clone())),
            Json::Array(items) => Self::List {
                items: items.iter().map(Node::from_json).collect(),
            },
            Json::Object(_) => Self::literal(Literal::Str(value.to_string())),
        }
    }
}

impl Literal {
    /// The literal as JSON.
    pub fn to_json(&self) -> Json {
        match self {
            Self::Int(value) => Json::from(*value),
            Self::Float(value) => {
                serde_json::Number::from_f64(*value).map_or(Json::Null, Json::Number)
            }
            Self::Str(value) => Json::String(value.clone()),
            Self::Bool(value) => Json::Bool(*value),
        }
    }
}

impl Intent {
    /// The argument named `name`.
    pub fn arg(&self, name: &str) -> Option<&Node> {
        self.args
            .iter()
            .find(|arg| arg.name == name)
            .map(|arg| &arg.value)
    }

    /// The arguments as a JSON object, if every one is concrete.
    pub fn json_args(&self) -> Option<serde_json::Map<String, Json>> {
        self.args
            .iter()
            .map(|arg| Some((arg.name.clone(), arg.value.to_json()?)))
            .collect()
    }
}

impl Program {
    /// The tools the program calls, in order of first appearance: every call,
    /// nested ones, replacements (`ABORT_WITH_NEW_INTENTS`) and calls that ran
    /// included. Walks with a stack, so no program can exhaust this thread's.
    pub fn tool_names(&self) -> Vec<String> {
        fn intent<'a>(call: &'a Intent, stack: &mut Vec<&'a Node>, names: &mut Vec<String>) {
            if !names.contains(&call.name) {
                names.push(call.name.clone());
            }
            stack.extend(call.args.iter().map(|arg| &arg.value));
        }
        let mut names = Vec::new();
        let mut stack: Vec<&Node> = self.elements.iter().rev().collect();
        while let Some(node) = stack.pop() {
            match node {
                Node::Intent(call)
                | Node::Evaluated { intent: call, .. }
                | Node::RuntimeError { intent: call, .. } => intent(call, &mut stack, &mut names),
                Node::List { items } => stack.extend(items.iter()),
                Node::PropagateSlots { args } => stack.extend(args.iter().map(|arg| &arg.value)),
                Node::AbortWithNewIntents { intents } => {
                    for call in intents {
                        intent(call, &mut stack, &mut names);
                    }
                }
                _ => {}
            }
        }
        names
    }

    /// The JSON form (the whole tree, runtime nodes included).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a program always serializes")
    }

    /// Reads the JSON form.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// Writes a string literal that re-parses to the same string.
fn write_string(out: &mut impl fmt::Write, text: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in text.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            c if c.is_control() => write!(out, "\\u{{{:x}}}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

fn write_float(out: &mut impl fmt::Write, value: f64) -> fmt::Result {
    // `{:?}` always keeps a `.0` or an exponent, so the text re-parses as a float.
    if value.is_finite() {
        write!(out, "{value:?}")
    } else {
        out.write_str("0.0")
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(value) => write!(out, "{value}"),
            Self::Float(value) => write_float(out, *value),
            Self::Str(value) => write_string(out, value),
            Self::Bool(value) => write!(out, "{value}"),
        }
    }
}

fn write_args(out: &mut fmt::Formatter<'_>, args: &[Arg]) -> fmt::Result {
    for (index, arg) in args.iter().enumerate() {
        if index > 0 {
            out.write_str(", ")?;
        }
        write!(out, "{}={}", arg.name, arg.value)?;
    }
    Ok(())
}

impl fmt::Display for Intent {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "{}(", self.name)?;
        write_args(out, &self.args)?;
        out.write_char(')')
    }
}

fn write_json_value(out: &mut fmt::Formatter<'_>, value: &Json) -> fmt::Result {
    match value {
        Json::Array(items) => {
            out.write_char('[')?;
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.write_str(", ")?;
                }
                write_json_value(out, item)?;
            }
            out.write_char(']')
        }
        other => write!(out, "{}", Node::from_json(other)),
    }
}

impl fmt::Display for Node {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Intent(intent) => write!(out, "{intent}"),
            Self::Value { literal } => write!(out, "{literal}"),
            Self::List { items } => {
                out.write_char('[')?;
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.write_str(", ")?;
                    }
                    write!(out, "{item}")?;
                }
                out.write_char(']')
            }
            Self::Ask { question } => {
                out.write_str("ASK(")?;
                write_string(out, question)?;
                out.write_char(')')
            }
            Self::QueryFill { query } => {
                out.write_str("QUERY_FILL(")?;
                write_string(out, query)?;
                out.write_char(')')
            }
            Self::QueryUser { query } => {
                out.write_str("QUERY_USER(")?;
                write_string(out, query)?;
                out.write_char(')')
            }
            Self::QueryGather { query, sources } => {
                out.write_str("QUERY_GATHER(")?;
                write_string(out, query)?;
                out.write_str(", ")?;
                write_string(out, sources)?;
                out.write_char(')')
            }
            Self::Fuzzy { text } => {
                out.write_str("F(")?;
                write_string(out, text)?;
                out.write_char(')')
            }
            Self::SameAsPrevious => out.write_str("SAME_AS_PREVIOUS_INTENT()"),
            Self::PropagateSlots { args } => {
                out.write_str("PROPAGATE_SLOT(")?;
                write_args(out, args)?;
                out.write_char(')')
            }
            Self::Abort => out.write_str("ABORT()"),
            Self::AbortWithNewIntents { intents } => {
                out.write_str("ABORT_WITH_NEW_INTENTS([")?;
                for (index, intent) in intents.iter().enumerate() {
                    if index > 0 {
                        out.write_str(", ")?;
                    }
                    write!(out, "{intent}")?;
                }
                out.write_str("])")
            }
            // Runtime nodes print as what they stand for: the result, or the call to retry.
            Self::Evaluated { result, .. } => write_json_value(out, result),
            Self::RuntimeError { intent, .. } => write!(out, "{intent}"),
        }
    }
}

impl fmt::Display for Program {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, element) in self.elements.iter().enumerate() {
            if index > 0 {
                out.write_str(", ")?;
            }
            write!(out, "{element}")?;
        }
        Ok(())
    }
}
