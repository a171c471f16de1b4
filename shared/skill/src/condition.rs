//! Conditions of approval rules and tool policies, parsed once and evaluated
//! mechanically by the gates.
//!
//! Grammar (keywords case-insensitive):
//!
//! ```text
//! condition  = "always" | "never" | or_expr
//! or_expr    = and_expr { "or" and_expr }
//! and_expr   = comparison { "and" comparison }
//! comparison = field op value                       (* op: > < >= <= == != *)
//!            | field ("contains" | "starts with" | "ends with") string
//! field      = identifier { "." identifier }
//! value      = number | string | "true" | "false"   (* > < >= <= need a number *)
//! string     = "'" chars "'" | '"' chars '"'
//! ```
//!
//! The spec's grammar is `field op number`; strings, booleans and `and`/`or` are
//! accepted because the Skill Builder's own templates use them. A comparison on
//! an argument the call does not carry is false: the rule does not apply. A
//! comparison on a value of the wrong type (`"$900"`, `[900]`, `true` where a
//! number belongs) is true: conditions restrict (deny, require approval), so
//! they fail closed.

use std::fmt;

use serde_json::{Map, Value};

/// A parsed condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// Always holds.
    Always,
    /// Never holds.
    Never,
    /// An expression over the call's arguments.
    Expr(Expr),
}

/// A boolean expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// Any holds.
    Or(Vec<Expr>),
    /// All hold.
    And(Vec<Expr>),
    /// `field op value`.
    Compare {
        /// Argument path.
        field: String,
        /// Operator.
        op: CompareOp,
        /// Right-hand side.
        value: Literal,
    },
    /// `field contains|starts with|ends with 'text'`.
    Text {
        /// Argument path.
        field: String,
        /// Operator.
        op: TextOp,
        /// Right-hand side.
        value: String,
    },
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    /// `>`
    Gt,
    /// `<`
    Lt,
    /// `>=`
    Ge,
    /// `<=`
    Le,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CompareOp {
    /// The operator's text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Gt => ">",
            Self::Lt => "<",
            Self::Ge => ">=",
            Self::Le => "<=",
            Self::Eq => "==",
            Self::Ne => "!=",
        }
    }

    /// Parses an operator.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            ">" => Self::Gt,
            "<" => Self::Lt,
            ">=" => Self::Ge,
            "<=" => Self::Le,
            "==" => Self::Eq,
            "!=" => Self::Ne,
            _ => return None,
        })
    }

    /// `left op right` on numbers.
    pub fn holds(self, left: f64, right: f64) -> bool {
        match self {
            Self::Gt => left > right,
            Self::Lt => left < right,
            Self::Ge => left >= right,
            Self::Le => left <= right,
            Self::Eq => left == right,
            Self::Ne => left != right,
        }
    }
}

/// String operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextOp {
    /// `contains`
    Contains,
    /// `starts with`
    StartsWith,
    /// `ends with`
    EndsWith,
}

/// A literal value.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A number.
    Number(f64),
    /// A string.
    String(String),
    /// A boolean.
    Bool(bool),
}

/// Why a condition does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at character {offset}: {message}")]
pub struct ConditionError {
    /// 0-based character offset in the condition text.
    pub offset: usize,
    /// What was expected.
    pub message: String,
}

impl Condition {
    /// Parses a condition.
    pub fn parse(text: &str) -> Result<Self, ConditionError> {
        crate::grammar::check(crate::grammar::Grammar::Condition, text)
            .map_err(|message| ConditionError { offset: 0, message })?;
        let tokens = tokenize(text)?;
        if tokens.is_empty() {
            return Err(ConditionError {
                offset: 0,
                message: "empty condition".into(),
            });
        }
        if tokens.len() == 1
            && let Token::Word(word, _) = &tokens[0]
        {
            match word.to_ascii_lowercase().as_str() {
                "always" | "true" => return Ok(Self::Always),
                "never" | "false" => return Ok(Self::Never),
                _ => {}
            }
        }
        let mut parser = ConditionParser {
            tokens: &tokens,
            at: 0,
            end: text.chars().count(),
        };
        let expr = parser.or_expr()?;
        if let Some(token) = parser.tokens.get(parser.at) {
            return Err(ConditionError {
                offset: token.offset(),
                message: "expected `and`, `or` or the end".into(),
            });
        }
        Ok(Self::Expr(expr))
    }

    /// Whether the condition holds for a call with these arguments.
    pub fn holds(&self, arguments: &Map<String, Value>) -> bool {
        match self {
            Self::Always => true,
            Self::Never => false,
            Self::Expr(expr) => expr.holds(arguments),
        }
    }

    /// Argument names the condition reads (first path segment).
    pub fn fields(&self) -> Vec<String> {
        fn collect(expr: &Expr, out: &mut Vec<String>) {
            match expr {
                Expr::Or(items) | Expr::And(items) => {
                    items.iter().for_each(|item| collect(item, out))
                }
                Expr::Compare { field, .. } | Expr::Text { field, .. } => {
                    let name = field.split('.').next().unwrap_or(field).to_owned();
                    if !out.contains(&name) {
                        out.push(name);
                    }
                }
            }
        }
        let mut out = Vec::new();
        if let Self::Expr(expr) = self {
            collect(expr, &mut out);
        }
        out
    }
}

impl Expr {
    fn holds(&self, arguments: &Map<String, Value>) -> bool {
        match self {
            Self::Or(items) => items.iter().any(|item| item.holds(arguments)),
            Self::And(items) => items.iter().all(|item| item.holds(arguments)),
            Self::Compare { field, op, value } => {
                let Some(actual) = lookup(arguments, field) else {
                    return false;
                };
                compare(actual, *op, value)
            }
            Self::Text { field, op, value } => {
                let Some(actual) = lookup(arguments, field) else {
                    return false;
                };
                // Fails closed, as `compare` does.
                let Value::String(actual) = actual else {
                    return true;
                };
                match op {
                    TextOp::Contains => actual.contains(value.as_str()),
                    TextOp::StartsWith => actual.starts_with(value.as_str()),
                    TextOp::EndsWith => actual.ends_with(value.as_str()),
                }
            }
        }
    }
}

fn lookup<'a>(arguments: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
    let mut segments = path.split('.');
    let mut current = arguments.get(segments.next()?)?;
    for segment in segments {
        current = current.as_object()?.get(segment)?;
    }
    Some(current)
}

/// A value as a finite number: a JSON number, or a string that is one plain
/// decimal number (`"900"`, `" 900 "`). `"$900"`, `"９００"`, `"NaN"`, `[900]`
/// and `true` are not numbers.
pub fn finite_number(value: &Value) -> Option<f64> {
    let number = match value {
        Value::Number(number) => number.as_f64(),
        Value::String(text) => {
            let text = text.trim();
            // Rust's float parser also takes `inf`, `NaN` and `infinity`.
            text.bytes()
                .all(|byte| {
                    byte.is_ascii_digit() || matches!(byte, b'.' | b'-' | b'+' | b'e' | b'E')
                })
                .then(|| text.parse::<f64>().ok())
                .flatten()
        }
        _ => None,
    };
    number.filter(|number| number.is_finite())
}

/// Numbers compare numerically (a numeric string counts as its number); strings and
/// booleans only by equality. A value of another type than the rule's fails
/// closed: it holds, since nobody can show it is on the safe side of the rule
/// (`"$900"` against `amount > 500` is not a small refund).
fn compare(actual: &Value, op: CompareOp, expected: &Literal) -> bool {
    match expected {
        Literal::Number(expected) => {
            finite_number(actual).is_none_or(|actual| op.holds(actual, *expected))
        }
        Literal::String(expected) => match (actual, op) {
            (Value::String(actual), CompareOp::Eq) => actual == expected,
            (Value::String(actual), CompareOp::Ne) => actual != expected,
            _ => true,
        },
        Literal::Bool(expected) => match (actual, op) {
            (Value::Bool(actual), CompareOp::Eq) => actual == expected,
            (Value::Bool(actual), CompareOp::Ne) => actual != expected,
            _ => true,
        },
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Always => formatter.write_str("always"),
            Self::Never => formatter.write_str("never"),
            Self::Expr(expr) => write!(formatter, "{expr}"),
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join =
            |formatter: &mut fmt::Formatter<'_>, items: &[Expr], word: &str| -> fmt::Result {
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        write!(formatter, " {word} ")?;
                    }
                    write!(formatter, "{item}")?;
                }
                Ok(())
            };
        match self {
            Self::Or(items) => join(formatter, items, "or"),
            Self::And(items) => join(formatter, items, "and"),
            Self::Compare { field, op, value } => {
                write!(formatter, "{field} {} {value}", op.as_str())
            }
            Self::Text { field, op, value } => {
                let word = match op {
                    TextOp::Contains => "contains",
                    TextOp::StartsWith => "starts with",
                    TextOp::EndsWith => "ends with",
                };
                write!(formatter, "{field} {word} '{}'", value.replace('\'', "\\'"))
            }
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(number) => write!(formatter, "{number}"),
            Self::String(text) => write!(formatter, "'{}'", text.replace('\'', "\\'")),
            Self::Bool(value) => write!(formatter, "{value}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String, usize),
    Number(f64, usize),
    Str(String, usize),
    Op(CompareOp, usize),
}

impl Token {
    fn offset(&self) -> usize {
        match self {
            Self::Word(_, offset)
            | Self::Number(_, offset)
            | Self::Str(_, offset)
            | Self::Op(_, offset) => *offset,
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<Token>, ConditionError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        if c.is_whitespace() {
            at += 1;
        } else if c.is_ascii_alphabetic() || c == '_' || c == '$' {
            let start = at;
            while at < chars.len()
                && (chars[at].is_ascii_alphanumeric() || matches!(chars[at], '_' | '.' | '$'))
            {
                at += 1;
            }
            tokens.push(Token::Word(chars[start..at].iter().collect(), start));
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(at + 1).is_some_and(char::is_ascii_digit))
        {
            let start = at;
            at += 1;
            while at < chars.len() && (chars[at].is_ascii_digit() || chars[at] == '.') {
                at += 1;
            }
            let literal: String = chars[start..at].iter().collect();
            let number = literal.parse::<f64>().map_err(|_| ConditionError {
                offset: start,
                message: format!("`{literal}` is not a number"),
            })?;
            tokens.push(Token::Number(number, start));
        } else if c == '\'' || c == '"' {
            let start = at;
            at += 1;
            let mut value = String::new();
            loop {
                match chars.get(at) {
                    None => {
                        return Err(ConditionError {
                            offset: start,
                            message: "unterminated string".into(),
                        });
                    }
                    Some('\\') if chars.get(at + 1).is_some() => {
                        value.push(chars[at + 1]);
                        at += 2;
                    }
                    Some(&quote) if quote == c => {
                        at += 1;
                        break;
                    }
                    Some(&other) => {
                        value.push(other);
                        at += 1;
                    }
                }
            }
            tokens.push(Token::Str(value, start));
        } else if matches!(c, '>' | '<' | '=' | '!') {
            let two: String = chars[at..(at + 2).min(chars.len())].iter().collect();
            let (op, width) = match CompareOp::parse(&two) {
                Some(op) => (op, 2),
                None => match CompareOp::parse(&c.to_string()) {
                    Some(op) => (op, 1),
                    None => {
                        return Err(ConditionError {
                            offset: at,
                            message: format!("unknown operator `{two}`"),
                        });
                    }
                },
            };
            tokens.push(Token::Op(op, at));
            at += width;
        } else {
            return Err(ConditionError {
                offset: at,
                message: format!("unexpected character `{c}`"),
            });
        }
    }
    Ok(tokens)
}

struct ConditionParser<'a> {
    tokens: &'a [Token],
    at: usize,
    end: usize,
}

impl ConditionParser<'_> {
    fn keyword(&self, word: &str) -> bool {
        matches!(self.tokens.get(self.at), Some(Token::Word(text, _)) if text.eq_ignore_ascii_case(word))
    }

    fn offset(&self) -> usize {
        self.tokens.get(self.at).map_or(self.end, Token::offset)
    }

    fn or_expr(&mut self) -> Result<Expr, ConditionError> {
        let mut items = vec![self.and_expr()?];
        while self.keyword("or") {
            self.at += 1;
            items.push(self.and_expr()?);
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            Expr::Or(items)
        })
    }

    fn and_expr(&mut self) -> Result<Expr, ConditionError> {
        let mut items = vec![self.comparison()?];
        while self.keyword("and") {
            self.at += 1;
            items.push(self.comparison()?);
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            Expr::And(items)
        })
    }

    fn comparison(&mut self) -> Result<Expr, ConditionError> {
        let field = match self.tokens.get(self.at) {
            Some(Token::Word(word, _)) if !is_keyword(word) => word.clone(),
            _ => {
                return Err(ConditionError {
                    offset: self.offset(),
                    message: "expected a field name".into(),
                });
            }
        };
        self.at += 1;
        let text_op = if self.keyword("contains") {
            self.at += 1;
            Some(TextOp::Contains)
        } else if self.keyword("starts") || self.keyword("ends") {
            let op = if self.keyword("starts") {
                TextOp::StartsWith
            } else {
                TextOp::EndsWith
            };
            self.at += 1;
            if !self.keyword("with") {
                return Err(ConditionError {
                    offset: self.offset(),
                    message: "expected `with`".into(),
                });
            }
            self.at += 1;
            Some(op)
        } else {
            None
        };
        if let Some(op) = text_op {
            return match self.tokens.get(self.at) {
                Some(Token::Str(value, _)) => {
                    self.at += 1;
                    Ok(Expr::Text {
                        field,
                        op,
                        value: value.clone(),
                    })
                }
                _ => Err(ConditionError {
                    offset: self.offset(),
                    message: "expected a quoted string".into(),
                }),
            };
        }
        let op = match self.tokens.get(self.at) {
            Some(Token::Op(op, _)) => *op,
            _ => {
                return Err(ConditionError {
                    offset: self.offset(),
                    message:
                        "expected an operator: > < >= <= == != contains, starts with, ends with"
                            .into(),
                });
            }
        };
        self.at += 1;
        let value = match self.tokens.get(self.at) {
            Some(Token::Number(number, _)) => Literal::Number(*number),
            Some(Token::Str(text, _)) => Literal::String(text.clone()),
            Some(Token::Word(word, _)) if word.eq_ignore_ascii_case("true") => Literal::Bool(true),
            Some(Token::Word(word, _)) if word.eq_ignore_ascii_case("false") => {
                Literal::Bool(false)
            }
            _ => {
                return Err(ConditionError {
                    offset: self.offset(),
                    message: "expected a number, a quoted string, true or false".into(),
                });
            }
        };
        if matches!(
            op,
            CompareOp::Gt | CompareOp::Lt | CompareOp::Ge | CompareOp::Le
        ) && !matches!(value, Literal::Number(_))
        {
            return Err(ConditionError {
                offset: self.offset(),
                message: format!("`{}` compares numbers", op.as_str()),
            });
        }
        self.at += 1;
        Ok(Expr::Compare { field, op, value })
    }
}

fn is_keyword(word: &str) -> bool {
    [
        "and", "or", "contains", "starts", "ends", "with", "true", "false",
    ]
    .iter()
    .any(|keyword| word.eq_ignore_ascii_case(keyword))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn thresholds_hold_above_not_at_the_boundary() {
        let rule = Condition::parse("amount > 500").unwrap();
        assert!(!rule.holds(&args(json!({"amount": 499}))));
        assert!(!rule.holds(&args(json!({"amount": 500}))));
        assert!(rule.holds(&args(json!({"amount": 501}))));
        assert!(rule.holds(&args(json!({"amount": "700"}))));
        assert!(
            !rule.holds(&args(json!({"order_id": "ORD-1"}))),
            "absent argument: rule does not apply"
        );
        let inclusive = Condition::parse("amount >= 500").unwrap();
        assert!(inclusive.holds(&args(json!({"amount": 500}))));
    }

    #[test]
    fn builder_conditions_parse_and_evaluate() {
        let delete_main = Condition::parse("action == 'delete' and branch_name == 'main'").unwrap();
        assert!(delete_main.holds(&args(json!({"action": "delete", "branch_name": "main"}))));
        assert!(!delete_main.holds(&args(json!({"action": "delete", "branch_name": "dev"}))));
        let secrets =
            Condition::parse("file_path contains '.env' or file_path contains 'secret'").unwrap();
        assert!(secrets.holds(&args(json!({"file_path": "config/.env"}))));
        assert!(!secrets.holds(&args(json!({"file_path": "src/main.rs"}))));
        let lock = Condition::parse("file_path ends with '.lock'").unwrap();
        assert!(lock.holds(&args(json!({"file_path": "Cargo.lock"}))));
        assert!(
            Condition::parse("force == true")
                .unwrap()
                .holds(&args(json!({"force": true})))
        );
        assert_eq!(Condition::parse("always").unwrap(), Condition::Always);
    }

    #[test]
    fn malformed_conditions_say_where() {
        for (text, offset) in [
            ("amount >", 8),
            ("amount => 5", 7),
            ("> 5", 0),
            ("amount > 'x'", 9),
            ("a == 1 b", 7),
            ("name == 'x", 8),
        ] {
            let error = Condition::parse(text).unwrap_err();
            assert_eq!(error.offset, offset, "{text}: {error}");
        }
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "amount > 500",
            "action == 'delete' and branch_name == 'main'",
            "file_path ends with '.lock' or force == true",
        ] {
            let parsed = Condition::parse(text).unwrap();
            assert_eq!(Condition::parse(&parsed.to_string()).unwrap(), parsed);
        }
    }
}
