//! The plan as stored: its program tree (calls, arguments, evaluated results
//! as references to the call log) and the resolver's pending question.

use super::*;

pub(super) fn interaction_to(interaction: &Interaction) -> pb::Interaction {
    pb::Interaction {
        kind: match interaction.kind {
            InteractionKind::Ask => pb::InteractionKind::Ask,
            InteractionKind::QueryUser => pb::InteractionKind::QueryUser,
            InteractionKind::RuntimeError => pb::InteractionKind::RuntimeError,
        } as i32,
        question: interaction.question.clone(),
        path: interaction
            .path
            .0
            .iter()
            .map(|step| pb::SlotStep {
                step: Some(match step {
                    Step::Element(index) => pb::slot_step::Step::Element(*index as u32),
                    Step::Arg(name) => pb::slot_step::Step::Arg(name.clone()),
                    Step::Item(index) => pb::slot_step::Step::Item(*index as u32),
                }),
            })
            .collect(),
        field: interaction.field.clone(),
        intent: interaction.intent.clone(),
        expected: match interaction.expected {
            ValueKind::Any => pb::ValueKind::Any,
            ValueKind::String => pb::ValueKind::String,
            ValueKind::Integer => pb::ValueKind::Integer,
            ValueKind::Number => pb::ValueKind::Number,
            ValueKind::Boolean => pb::ValueKind::Boolean,
            ValueKind::List => pb::ValueKind::List,
        } as i32,
    }
}

pub(super) fn interaction_from(interaction: pb::Interaction) -> Result<Interaction, JobError> {
    let kind = match pb::InteractionKind::try_from(interaction.kind)
        .unwrap_or(pb::InteractionKind::Unspecified)
    {
        pb::InteractionKind::Ask => InteractionKind::Ask,
        pb::InteractionKind::QueryUser => InteractionKind::QueryUser,
        pb::InteractionKind::RuntimeError => InteractionKind::RuntimeError,
        pb::InteractionKind::Unspecified => {
            return Err(JobError::Corrupt(format!(
                "interaction kind {}",
                interaction.kind
            )));
        }
    };
    let expected =
        match pb::ValueKind::try_from(interaction.expected).unwrap_or(pb::ValueKind::Unspecified) {
            pb::ValueKind::Any => ValueKind::Any,
            pb::ValueKind::String => ValueKind::String,
            pb::ValueKind::Integer => ValueKind::Integer,
            pb::ValueKind::Number => ValueKind::Number,
            pb::ValueKind::Boolean => ValueKind::Boolean,
            pb::ValueKind::List => ValueKind::List,
            pb::ValueKind::Unspecified => {
                return Err(JobError::Corrupt(format!(
                    "value kind {}",
                    interaction.expected
                )));
            }
        };
    let path = interaction
        .path
        .into_iter()
        .map(|step| match step.step {
            Some(pb::slot_step::Step::Element(index)) => Ok(Step::Element(index as usize)),
            Some(pb::slot_step::Step::Arg(name)) => Ok(Step::Arg(name)),
            Some(pb::slot_step::Step::Item(index)) => Ok(Step::Item(index as usize)),
            None => Err(JobError::Corrupt("an empty slot step".into())),
        })
        .collect::<Result<_, _>>()?;
    Ok(Interaction {
        kind,
        question: interaction.question,
        path: SlotPath(path),
        field: interaction.field,
        intent: interaction.intent,
        expected,
    })
}

pub(super) fn plan_to(plan: &Plan, calls: &[CallRecord]) -> Result<pb::Plan, JobError> {
    let context = &plan.context;
    Ok(pb::Plan {
        elements: plan
            .program
            .elements
            .iter()
            .map(|node| node_to(node, calls))
            .collect::<Result<_, _>>()?,
        known_json: if context.known.is_empty() {
            Vec::new()
        } else {
            serde_json::to_vec(&context.known).map_err(|error| corrupt(&error))?
        },
        pending: context.pending.as_ref().map(interaction_to),
        aborted_calls: context.aborted_calls.clone(),
    })
}

pub(super) fn plan_from(plan: pb::Plan, calls: &[CallRecord]) -> Result<Plan, JobError> {
    Ok(Plan {
        program: Program {
            elements: plan
                .elements
                .into_iter()
                .map(|node| node_from(node, calls))
                .collect::<Result<_, _>>()?,
        },
        context: ResolutionContext {
            known: if plan.known_json.is_empty() {
                BTreeMap::new()
            } else {
                serde_json::from_slice(&plan.known_json).map_err(|error| corrupt(&error))?
            },
            pending: plan.pending.map(interaction_from).transpose()?,
            aborted_calls: plan.aborted_calls,
        },
    })
}

pub(super) fn intent_to(intent: &Intent, calls: &[CallRecord]) -> Result<pb::PlanIntent, JobError> {
    Ok(pb::PlanIntent {
        name: intent.name.clone(),
        args: args_to(&intent.args, calls)?,
    })
}

pub(super) fn args_to(args: &[Arg], calls: &[CallRecord]) -> Result<Vec<pb::PlanArg>, JobError> {
    args.iter()
        .map(|arg| {
            Ok(pb::PlanArg {
                name: arg.name.clone(),
                value: Some(node_to(&arg.value, calls)?),
            })
        })
        .collect()
}

/// The tree is as deep as the parser allowed (`adas_dia::MAX_DEPTH`), so the
/// recursion is bounded; decoding is bounded by prost's recursion limit.
pub(super) fn node_to(node: &Node, calls: &[CallRecord]) -> Result<pb::PlanNode, JobError> {
    use pb::plan_node::Node as N;
    let encoded = match node {
        Node::Intent(intent) => N::Intent(intent_to(intent, calls)?),
        Node::Value { literal } => match literal {
            Literal::Int(value) => N::IntValue(*value),
            Literal::Float(value) if value.is_finite() => N::FloatValue(*value),
            Literal::Float(_) => {
                return Err(JobError::Corrupt(
                    "a non-finite number cannot be stored".into(),
                ));
            }
            Literal::Str(value) => N::StrValue(value.clone()),
            Literal::Bool(value) => N::BoolValue(*value),
        },
        Node::List { items } => N::List(pb::PlanNodeList {
            items: items
                .iter()
                .map(|item| node_to(item, calls))
                .collect::<Result<_, _>>()?,
        }),
        Node::Ask { question } => N::Ask(question.clone()),
        Node::QueryFill { query } => N::QueryFill(query.clone()),
        Node::QueryUser { query } => N::QueryUser(query.clone()),
        Node::QueryGather { query, sources } => N::QueryGather(pb::QueryGather {
            query: query.clone(),
            sources: sources.clone(),
        }),
        Node::Fuzzy { text } => N::Fuzzy(text.clone()),
        Node::SameAsPrevious => N::SameAsPrevious(true),
        Node::PropagateSlots { args } => N::PropagateSlots(pb::PlanArgs {
            args: args_to(args, calls)?,
        }),
        Node::Abort => N::Abort(true),
        Node::AbortWithNewIntents { intents } => N::AbortWithNewIntents(pb::PlanIntents {
            intents: intents
                .iter()
                .map(|intent| intent_to(intent, calls))
                .collect::<Result<_, _>>()?,
        }),
        Node::Evaluated { intent, result } => {
            // The call's output is in the record already (its `calls`): refer to it.
            let output_of_call = calls
                .iter()
                .position(|call| call.tool == intent.name && &call.output == result);
            N::Evaluated(pb::Evaluated {
                intent: Some(intent_to(intent, calls)?),
                result_json: match output_of_call {
                    Some(_) => Vec::new(),
                    None => json_bytes(result),
                },
                output_of_call: output_of_call.map_or(0, |index| index as u32 + 1),
            })
        }
        Node::RuntimeError { intent, error } => N::RuntimeError(pb::RuntimeError {
            intent: Some(intent_to(intent, calls)?),
            error: error.clone(),
        }),
    };
    Ok(pb::PlanNode {
        node: Some(encoded),
    })
}

pub(super) fn intent_from(
    intent: pb::PlanIntent,
    calls: &[CallRecord],
) -> Result<Intent, JobError> {
    Ok(Intent {
        name: intent.name,
        args: args_from(intent.args, calls)?,
    })
}

pub(super) fn args_from(
    args: Vec<pb::PlanArg>,
    calls: &[CallRecord],
) -> Result<Vec<Arg>, JobError> {
    args.into_iter()
        .map(|arg| {
            let value = arg
                .value
                .ok_or_else(|| JobError::Corrupt(format!("argument {} has no value", arg.name)))?;
            Ok(Arg {
                name: arg.name,
                value: node_from(value, calls)?,
            })
        })
        .collect()
}

pub(super) fn node_from(node: pb::PlanNode, calls: &[CallRecord]) -> Result<Node, JobError> {
    use pb::plan_node::Node as N;
    let node = node
        .node
        .ok_or_else(|| JobError::Corrupt("an empty plan node".into()))?;
    let intent_of = |intent: Option<pb::PlanIntent>| {
        intent
            .ok_or_else(|| JobError::Corrupt("a call node without its call".into()))
            .and_then(|intent| intent_from(intent, calls))
    };
    Ok(match node {
        N::Intent(intent) => Node::Intent(intent_from(intent, calls)?),
        N::IntValue(value) => Node::literal(Literal::Int(value)),
        N::FloatValue(value) if value.is_finite() => Node::literal(Literal::Float(value)),
        N::FloatValue(_) => return Err(JobError::Corrupt("a non-finite number".into())),
        N::StrValue(value) => Node::literal(Literal::Str(value)),
        N::BoolValue(value) => Node::literal(Literal::Bool(value)),
        N::List(list) => Node::List {
            items: list
                .items
                .into_iter()
                .map(|item| node_from(item, calls))
                .collect::<Result<_, _>>()?,
        },
        N::Ask(question) => Node::Ask { question },
        N::QueryFill(query) => Node::QueryFill { query },
        N::QueryUser(query) => Node::QueryUser { query },
        N::QueryGather(gather) => Node::QueryGather {
            query: gather.query,
            sources: gather.sources,
        },
        N::Fuzzy(text) => Node::Fuzzy { text },
        N::SameAsPrevious(_) => Node::SameAsPrevious,
        N::PropagateSlots(args) => Node::PropagateSlots {
            args: args_from(args.args, calls)?,
        },
        N::Abort(_) => Node::Abort,
        N::AbortWithNewIntents(intents) => Node::AbortWithNewIntents {
            intents: intents
                .intents
                .into_iter()
                .map(|intent| intent_from(intent, calls))
                .collect::<Result<_, _>>()?,
        },
        N::Evaluated(evaluated) => {
            let result = match evaluated.output_of_call {
                0 => json_from(&evaluated.result_json)?,
                index => calls
                    .get(index as usize - 1)
                    .map(|call| call.output.clone())
                    .ok_or_else(|| {
                        JobError::Corrupt(format!("an evaluated call refers to call {index}"))
                    })?,
            };
            Node::Evaluated {
                intent: intent_of(evaluated.intent)?,
                result,
            }
        }
        N::RuntimeError(failed) => Node::RuntimeError {
            intent: intent_of(failed.intent)?,
            error: failed.error,
        },
    })
}
