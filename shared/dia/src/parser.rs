//! Tokenizer and recursive-descent parser. Bounded (input length, nesting depth),
//! never panics; every error carries byte offset, line, column and what was
//! expected.

use crate::ast::{Arg, Intent, Literal, Node, Program};

/// Longest program accepted, in bytes.
pub const MAX_INPUT_BYTES: usize = 1024 * 1024;
/// Deepest nesting of calls, lists and special forms accepted.
pub const MAX_DEPTH: usize = 64;

/// A parse error with its position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: expected {expected}, found {found}")]
pub struct ParseError {
    /// 0-based byte offset.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What the parser expected.
    pub expected: String,
    /// What it found.
    pub found: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Equals,
    End,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Self::Ident(name) => format!("`{}`", truncate(name)),
            Self::Int(value) => format!("number `{value}`"),
            Self::Float(value) => format!("number `{value}`"),
            Self::Str(_) => "a string".into(),
            Self::LParen => "`(`".into(),
            Self::RParen => "`)`".into(),
            Self::LBracket => "`[`".into(),
            Self::RBracket => "`]`".into(),
            Self::Comma => "`,`".into(),
            Self::Equals => "`=`".into(),
            Self::End => "the end of input".into(),
        }
    }
}

/// At most 40 characters of `text`, for messages that quote input.
pub(crate) fn truncate(text: &str) -> String {
    let mut shown: String = text.chars().take(40).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    shown
}

/// Parses a program: comma-separated top-level elements (any value: calls,
/// special forms, literals, lists — a reply such as `5, PROPAGATE_SLOT(length=12)`
/// is a program too); empty input is an empty program.
pub fn parse(source: &str) -> Result<Program, ParseError> {
    let mut parser = Parser::new(source)?;
    let mut elements = Vec::new();
    if parser.peek() != &Token::End {
        loop {
            elements.push(parser.value(0)?);
            match parser.peek() {
                Token::Comma => parser.advance()?,
                Token::End => break,
                _ => return Err(parser.error("`,` or the end of input")),
            }
        }
    }
    Ok(Program { elements })
}

/// Parses one value expression (as an answer to an ASK is parsed).
pub fn parse_value(source: &str) -> Result<Node, ParseError> {
    let mut parser = Parser::new(source)?;
    let node = parser.value(0)?;
    if parser.peek() != &Token::End {
        return Err(parser.error("the end of input"));
    }
    Ok(node)
}

struct Parser<'a> {
    source: &'a str,
    /// Byte offset of the next unread character.
    cursor: usize,
    token: Token,
    /// Byte offset where `token` starts.
    token_start: usize,
}

impl<'a> Parser<'a> {
    fn new(source: &'a str) -> Result<Self, ParseError> {
        let mut parser = Self {
            source,
            cursor: 0,
            token: Token::End,
            token_start: 0,
        };
        if source.len() > MAX_INPUT_BYTES {
            return Err(parser.error_at(
                MAX_INPUT_BYTES.min(source.len()),
                format!("at most {MAX_INPUT_BYTES} bytes"),
                "more".into(),
            ));
        }
        parser.advance()?;
        Ok(parser)
    }

    fn peek(&self) -> &Token {
        &self.token
    }

    fn position(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.source.len());
        while !self.source.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.source[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before
            .rsplit('\n')
            .next()
            .map_or(0, |tail| tail.chars().count())
            + 1;
        (line, column)
    }

    fn error_at(&self, offset: usize, expected: String, found: String) -> ParseError {
        let (line, column) = self.position(offset);
        ParseError {
            offset,
            line,
            column,
            expected,
            found,
        }
    }

    fn error(&self, expected: &str) -> ParseError {
        self.error_at(self.token_start, expected.into(), self.token.describe())
    }

    fn advance(&mut self) -> Result<(), ParseError> {
        let bytes = self.source.as_bytes();
        while self.cursor < bytes.len() && (bytes[self.cursor] as char).is_ascii_whitespace() {
            self.cursor += 1;
        }
        self.token_start = self.cursor;
        let Some(&first) = bytes.get(self.cursor) else {
            self.token = Token::End;
            return Ok(());
        };
        let single = |token: Token, parser: &mut Self| {
            parser.cursor += 1;
            parser.token = token;
            Ok(())
        };
        match first {
            b'(' => single(Token::LParen, self),
            b')' => single(Token::RParen, self),
            b'[' => single(Token::LBracket, self),
            b']' => single(Token::RBracket, self),
            b',' => single(Token::Comma, self),
            b'=' => single(Token::Equals, self),
            b'"' | b'\'' => self.string(first),
            b'0'..=b'9' | b'-' | b'+' => self.number(),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = self.cursor;
                while self.cursor < bytes.len()
                    && (bytes[self.cursor].is_ascii_alphanumeric()
                        || matches!(bytes[self.cursor], b'_' | b'.'))
                {
                    self.cursor += 1;
                }
                let name = &self.source[start..self.cursor];
                if name.ends_with('.') || name.contains("..") {
                    return Err(self.error_at(
                        start,
                        "a name (dots only between parts)".into(),
                        format!("`{}`", truncate(name)),
                    ));
                }
                self.token = Token::Ident(name.to_owned());
                Ok(())
            }
            _ => {
                let found = self.source[self.cursor..]
                    .chars()
                    .next()
                    .map_or_else(String::new, |c| format!("`{c}`"));
                Err(self.error_at(
                    self.cursor,
                    "a name, a number, a string, `[`, `(`, `)`, `]`, `,` or `=`".into(),
                    found,
                ))
            }
        }
    }

    fn string(&mut self, quote: u8) -> Result<(), ParseError> {
        let start = self.cursor;
        self.cursor += 1;
        let mut value = String::new();
        loop {
            let Some(c) = self.source[self.cursor..].chars().next() else {
                return Err(self.error_at(
                    start,
                    "a closing quote".into(),
                    "the end of input".into(),
                ));
            };
            let width = c.len_utf8();
            if c as u32 == u32::from(quote) {
                self.cursor += width;
                break;
            }
            if c == '\\' {
                let escape_at = self.cursor;
                self.cursor += 1;
                let Some(next) = self.source[self.cursor..].chars().next() else {
                    return Err(self.error_at(
                        start,
                        "a closing quote".into(),
                        "the end of input".into(),
                    ));
                };
                self.cursor += next.len_utf8();
                match next {
                    '"' => value.push('"'),
                    '\'' => value.push('\''),
                    '\\' => value.push('\\'),
                    'n' => value.push('\n'),
                    'r' => value.push('\r'),
                    't' => value.push('\t'),
                    '0' => value.push('\0'),
                    'u' => value.push(self.unicode_escape(escape_at)?),
                    other => {
                        return Err(self.error_at(
                            escape_at,
                            "an escape: \\\" \\' \\\\ \\n \\r \\t \\0 \\u{…}".into(),
                            format!("`\\{other}`"),
                        ));
                    }
                }
                continue;
            }
            value.push(c);
            self.cursor += width;
        }
        self.token = Token::Str(value);
        Ok(())
    }

    fn unicode_escape(&mut self, escape_at: usize) -> Result<char, ParseError> {
        let bad = |parser: &Self| {
            parser.error_at(
                escape_at,
                "a unicode escape `\\u{hex}`".into(),
                "something else".into(),
            )
        };
        if !self.source[self.cursor..].starts_with('{') {
            return Err(bad(self));
        }
        let Some(close) = self.source[self.cursor..].find('}') else {
            return Err(bad(self));
        };
        let hex = &self.source[self.cursor + 1..self.cursor + close];
        let c = (hex.len() <= 6)
            .then(|| u32::from_str_radix(hex, 16).ok())
            .flatten()
            .and_then(char::from_u32)
            .ok_or_else(|| bad(self))?;
        self.cursor += close + 1;
        Ok(c)
    }

    fn number(&mut self) -> Result<(), ParseError> {
        let bytes = self.source.as_bytes();
        let start = self.cursor;
        if matches!(bytes[self.cursor], b'-' | b'+') {
            self.cursor += 1;
        }
        let digits_start = self.cursor;
        while self.cursor < bytes.len() && bytes[self.cursor].is_ascii_digit() {
            self.cursor += 1;
        }
        if self.cursor == digits_start {
            return Err(self.error_at(
                start,
                "a digit after the sign".into(),
                format!("`{}`", &self.source[start..=start]),
            ));
        }
        let mut is_float = false;
        if self.cursor + 1 < bytes.len()
            && bytes[self.cursor] == b'.'
            && bytes[self.cursor + 1].is_ascii_digit()
        {
            is_float = true;
            self.cursor += 1;
            while self.cursor < bytes.len() && bytes[self.cursor].is_ascii_digit() {
                self.cursor += 1;
            }
        }
        if self.cursor < bytes.len() && matches!(bytes[self.cursor], b'e' | b'E') {
            let mut at = self.cursor + 1;
            if at < bytes.len() && matches!(bytes[at], b'-' | b'+') {
                at += 1;
            }
            if at < bytes.len() && bytes[at].is_ascii_digit() {
                is_float = true;
                while at < bytes.len() && bytes[at].is_ascii_digit() {
                    at += 1;
                }
                self.cursor = at;
            }
        }
        // `12mm` is not a number followed by a name: say so at the number.
        if self.cursor < bytes.len()
            && (bytes[self.cursor].is_ascii_alphabetic() || bytes[self.cursor] == b'_')
        {
            let mut end = self.cursor;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            return Err(self.error_at(
                start,
                "a number (quote text that starts with digits)".into(),
                format!("`{}`", truncate(&self.source[start..end])),
            ));
        }
        let text = &self.source[start..self.cursor];
        self.token = if is_float {
            // `1e999` parses as infinity, which JSON cannot hold: a finite number or nothing.
            Token::Float(
                text.parse::<f64>()
                    .ok()
                    .filter(|value| value.is_finite())
                    .ok_or_else(|| {
                        self.error_at(
                            start,
                            "a finite number".into(),
                            format!("`{}`", truncate(text)),
                        )
                    })?,
            )
        } else {
            Token::Int(text.parse().map_err(|_| {
                self.error_at(
                    start,
                    "an integer that fits 64 bits".into(),
                    format!("`{}`", truncate(text)),
                )
            })?)
        };
        Ok(())
    }

    fn expect(&mut self, token: &Token, what: &str) -> Result<(), ParseError> {
        if self.peek() == token {
            self.advance()
        } else {
            Err(self.error(what))
        }
    }

    fn enter(&self, depth: usize) -> Result<usize, ParseError> {
        if depth >= MAX_DEPTH {
            return Err(self.error_at(
                self.token_start,
                format!("at most {MAX_DEPTH} levels of nesting"),
                "deeper nesting".into(),
            ));
        }
        Ok(depth + 1)
    }

    /// A value in argument position.
    fn value(&mut self, depth: usize) -> Result<Node, ParseError> {
        let depth = self.enter(depth)?;
        let literal = match self.peek().clone() {
            Token::Int(value) => Literal::Int(value),
            Token::Float(value) => Literal::Float(value),
            Token::Str(value) => Literal::Str(value),
            Token::Ident(name) if name == "true" || name == "false" => {
                Literal::Bool(name == "true")
            }
            Token::Ident(_) => return self.call_or_special(depth),
            Token::LBracket => return self.list(depth),
            _ => {
                return Err(
                    self.error("a value: a number, a string, true, false, a list or a call")
                );
            }
        };
        self.advance()?;
        Ok(Node::literal(literal))
    }

    fn list(&mut self, depth: usize) -> Result<Node, ParseError> {
        self.expect(&Token::LBracket, "`[`")?;
        let mut items = Vec::new();
        if self.peek() != &Token::RBracket {
            loop {
                // A call is an item like any value: its result takes its place.
                items.push(self.value(depth)?);
                match self.peek() {
                    Token::Comma => self.advance()?,
                    Token::RBracket => break,
                    _ => return Err(self.error("`,` or `]`")),
                }
            }
        }
        self.expect(&Token::RBracket, "`]`")?;
        Ok(Node::List { items })
    }

    fn string_argument(&mut self) -> Result<String, ParseError> {
        match self.peek().clone() {
            Token::Str(value) => {
                self.advance()?;
                Ok(value)
            }
            _ => Err(self.error("a quoted string")),
        }
    }

    fn call_or_special(&mut self, depth: usize) -> Result<Node, ParseError> {
        let depth = self.enter(depth)?;
        let Token::Ident(name) = self.peek().clone() else {
            return Err(self.error("a name"));
        };
        self.advance()?;
        if self.peek() != &Token::LParen {
            return Err(self.error_at(
                self.token_start,
                format!(
                    "`(` after `{}` (bare words must be quoted)",
                    truncate(&name)
                ),
                self.token.describe(),
            ));
        }
        self.advance()?;
        let node = match name.as_str() {
            "ASK" => Node::Ask {
                question: self.string_argument()?,
            },
            "QUERY_FILL" => Node::QueryFill {
                query: self.string_argument()?,
            },
            "QUERY_USER" => Node::QueryUser {
                query: self.string_argument()?,
            },
            "F" => Node::Fuzzy {
                text: self.string_argument()?,
            },
            "QUERY_GATHER" => {
                let query = self.string_argument()?;
                self.expect(&Token::Comma, "`,` and the sources string")?;
                let sources = self.string_argument()?;
                Node::QueryGather { query, sources }
            }
            "SAME_AS_PREVIOUS_INTENT" => Node::SameAsPrevious,
            "ABORT" => Node::Abort,
            "PROPAGATE_SLOT" => {
                let args = self.args(depth)?;
                if args.is_empty() {
                    return Err(self.error("at least one `name=value`"));
                }
                Node::PropagateSlots { args }
            }
            "ABORT_WITH_NEW_INTENTS" => {
                self.expect(&Token::LBracket, "`[` and the new calls")?;
                let mut intents = Vec::new();
                if self.peek() != &Token::RBracket {
                    loop {
                        let at = self.token_start;
                        match self.call_or_special(depth)? {
                            Node::Intent(intent) => intents.push(intent),
                            _ => {
                                return Err(self.error_at(
                                    at,
                                    "an intent call".into(),
                                    "a special form".into(),
                                ));
                            }
                        }
                        match self.peek() {
                            Token::Comma => self.advance()?,
                            Token::RBracket => break,
                            _ => return Err(self.error("`,` or `]`")),
                        }
                    }
                }
                self.expect(&Token::RBracket, "`]`")?;
                Node::AbortWithNewIntents { intents }
            }
            _ => {
                let args = self.args(depth)?;
                Node::Intent(Intent { name, args })
            }
        };
        self.expect(&Token::RParen, "`)`")?;
        Ok(node)
    }

    /// `name=value, ...` up to (not including) `)`.
    fn args(&mut self, depth: usize) -> Result<Vec<Arg>, ParseError> {
        let mut args: Vec<Arg> = Vec::new();
        // A set, not a scan of `args`: a call with many arguments stays linear.
        let mut seen = std::collections::HashSet::new();
        if self.peek() == &Token::RParen {
            return Ok(args);
        }
        loop {
            let name_at = self.token_start;
            let Token::Ident(name) = self.peek().clone() else {
                return Err(self.error("an argument name"));
            };
            if name.contains('.') {
                return Err(self.error_at(
                    name_at,
                    "an argument name without dots".into(),
                    format!("`{}`", truncate(&name)),
                ));
            }
            self.advance()?;
            self.expect(&Token::Equals, "`=` after the argument name")?;
            let value = self.value(depth)?;
            if !seen.insert(name.clone()) {
                return Err(self.error_at(
                    name_at,
                    "each argument once".into(),
                    format!("`{name}` again"),
                ));
            }
            args.push(Arg { name, value });
            match self.peek() {
                Token::Comma => self.advance()?,
                Token::RParen => break,
                _ => return Err(self.error("`,` or `)`")),
            }
        }
        Ok(args)
    }
}
