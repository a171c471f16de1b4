//! Values and places in a program: an answer converted to an input's kind, the
//! node at a slot path, and the asks a call still has.

use super::*;

/// Converts an answer to a slot's expected type; non-literal answers (calls,
/// another ASK, …) pass as they are and are resolved in turn.
pub fn convert(
    field: &str,
    expected: ValueKind,
    allowed: &[Json],
    value: Node,
) -> Result<Node, AnswerError> {
    let invalid = |expected: &str, reason: String| AnswerError::Invalid {
        field: field.to_owned(),
        expected: expected.to_owned(),
        reason,
    };
    let Node::Value { literal } = &value else {
        if matches!(value, Node::List { .. })
            && !matches!(expected, ValueKind::List | ValueKind::Any)
        {
            return Err(invalid(expected_name(expected), "a list was given".into()));
        }
        return Ok(value);
    };
    let converted = match (expected, literal) {
        (ValueKind::Any, _) => literal.clone(),
        (ValueKind::String, Literal::Str(text)) => Literal::Str(text.clone()),
        (ValueKind::String, Literal::Int(number)) => Literal::Str(number.to_string()),
        (ValueKind::String, Literal::Float(number)) => Literal::Str(number.to_string()),
        (ValueKind::String, Literal::Bool(flag)) => Literal::Str(flag.to_string()),
        (ValueKind::Integer, Literal::Int(number)) => Literal::Int(*number),
        (ValueKind::Integer, Literal::Float(number))
            if number.fract() == 0.0 && number.abs() < 9.0e15 =>
        {
            Literal::Int(*number as i64)
        }
        (ValueKind::Integer, Literal::Str(text)) => Literal::Int(
            crate::parse_amount(text)
                .filter(|number| number.fract() == 0.0 && number.abs() < 9.0e15)
                .map(|number| number as i64)
                .ok_or_else(|| {
                    invalid(
                        "an integer",
                        format!("`{}` is not a whole number", truncate(text)),
                    )
                })?,
        ),
        (ValueKind::Number, Literal::Int(number)) => Literal::Int(*number),
        (ValueKind::Number, Literal::Float(number)) => Literal::Float(*number),
        (ValueKind::Number, Literal::Str(text)) => {
            // "$600", "10,000", "1.2k": an amount as people write it.
            let number = crate::parse_amount(text).ok_or_else(|| {
                invalid(
                    "a finite number",
                    format!("`{}` is not one", truncate(text)),
                )
            })?;
            if number.fract() == 0.0 && number.abs() < 9.0e15 {
                Literal::Int(number as i64)
            } else {
                Literal::Float(number)
            }
        }
        (ValueKind::Boolean, Literal::Bool(flag)) => Literal::Bool(*flag),
        (ValueKind::Boolean, Literal::Str(text)) => match text.trim().to_ascii_lowercase().as_str()
        {
            "yes" | "y" | "true" => Literal::Bool(true),
            "no" | "n" | "false" => Literal::Bool(false),
            _ => {
                return Err(invalid(
                    "yes or no",
                    format!("`{}` is neither", truncate(text)),
                ));
            }
        },
        (ValueKind::List, _) => return Err(invalid("a list", "a single value was given".into())),
        (kind, other) => {
            return Err(invalid(
                expected_name(kind),
                format!("`{other}` has another type"),
            ));
        }
    };
    if !allowed.is_empty() {
        let json = converted.to_json();
        let matched = allowed.iter().find(|candidate| {
            **candidate == json || matches!((candidate, &json), (Json::String(a), Json::String(b)) if a.eq_ignore_ascii_case(b))
        });
        return match matched {
            Some(candidate) => Ok(Node::from_json(candidate)),
            None => {
                let options: Vec<String> = allowed.iter().map(ToString::to_string).collect();
                Err(invalid(
                    &format!("one of {}", options.join(", ")),
                    format!("`{converted}` is not allowed"),
                ))
            }
        };
    }
    Ok(Node::literal(converted))
}

pub(super) fn expected_name(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Any => "a value",
        ValueKind::String => "a string",
        ValueKind::Integer => "an integer",
        ValueKind::Number => "a number",
        ValueKind::Boolean => "yes or no",
        ValueKind::List => "a list",
    }
}

/// The node at `path`.
pub fn node_at_mut<'a>(program: &'a mut Program, path: &SlotPath) -> Option<&'a mut Node> {
    let mut steps = path.0.iter();
    let Some(Step::Element(index)) = steps.next() else {
        return None;
    };
    let mut node = program.elements.get_mut(*index)?;
    for step in steps {
        node = match (step, node) {
            (Step::Arg(name), Node::Intent(intent)) => {
                &mut intent.args.iter_mut().find(|arg| &arg.name == name)?.value
            }
            (Step::Item(index), Node::List { items }) => items.get_mut(*index)?,
            _ => return None,
        };
    }
    Some(node)
}

/// The node at `path`.
pub fn node_at<'a>(program: &'a Program, path: &SlotPath) -> Option<&'a Node> {
    let mut steps = path.0.iter();
    let Some(Step::Element(index)) = steps.next() else {
        return None;
    };
    let mut node = program.elements.get(*index)?;
    for step in steps {
        node = match (step, node) {
            (Step::Arg(name), Node::Intent(intent)) => {
                &intent.args.iter().find(|arg| &arg.name == name)?.value
            }
            (Step::Item(index), Node::List { items }) => items.get(*index)?,
            _ => return None,
        };
    }
    Some(node)
}

/// Every unanswered `ASK` of the call at `call_path` (its own arguments, not nested
/// calls'), so one question can cover all missing fields of one call.
pub fn asks_of_call(
    program: &Program,
    call_path: &SlotPath,
    schemas: &Schemas,
) -> Vec<Interaction> {
    let Some(Node::Intent(intent)) = node_at(program, call_path) else {
        return Vec::new();
    };
    intent
        .args
        .iter()
        .filter_map(|arg| match &arg.value {
            Node::Ask { question } => Some(Interaction {
                kind: InteractionKind::Ask,
                question: question.clone(),
                path: call_path.child(Step::Arg(arg.name.clone())),
                field: arg.name.clone(),
                intent: intent.name.clone(),
                expected: input_spec(schemas, &intent.name, &arg.name)
                    .map_or(ValueKind::Any, |spec| spec.kind),
            }),
            _ => None,
        })
        .collect()
}
