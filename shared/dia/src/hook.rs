//! The missing-input hook: inserts an `ASK` for every required input a call does
//! not carry, so skill authors never write ASK themselves. A value already known
//! (context, an earlier answer) is filled in instead of asked.

use std::collections::BTreeMap;

use serde_json::Value as Json;

use crate::ast::{Arg, Node, Program};
use crate::resolve::{Schemas, SlotPath, Step};

/// An inserted ASK.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InsertedAsk {
    /// Where it was inserted.
    pub path: SlotPath,
    /// The tool of the call.
    pub tool: String,
    /// The missing input.
    pub field: String,
}

/// The question asked for `field` when the skill gives none.
pub fn default_prompt(field: &str) -> String {
    format!("Please provide the {}.", field.replace(['_', '.'], " "))
}

/// Adds the missing required arguments of every unevaluated call: known values
/// are filled in, the rest become `ASK(prompt)`. Returns the inserted asks.
pub fn insert_missing_asks(
    program: &mut Program,
    schemas: &Schemas,
    known: &BTreeMap<String, Json>,
) -> Vec<InsertedAsk> {
    let mut inserted = Vec::new();
    for (index, element) in program.elements.iter_mut().enumerate() {
        visit(
            element,
            &SlotPath(vec![Step::Element(index)]),
            schemas,
            known,
            &mut inserted,
        );
    }
    inserted
}

fn visit(
    node: &mut Node,
    path: &SlotPath,
    schemas: &Schemas,
    known: &BTreeMap<String, Json>,
    inserted: &mut Vec<InsertedAsk>,
) {
    let Node::Intent(intent) = node else { return };
    for arg in &mut intent.args {
        let mut child = path.clone();
        child.0.push(Step::Arg(arg.name.clone()));
        visit(&mut arg.value, &child, schemas, known, inserted);
    }
    let Some(inputs) = schemas.get(&intent.name) else {
        return;
    };
    for input in inputs.iter().filter(|input| input.required) {
        if intent.args.iter().any(|arg| arg.name == input.name) {
            continue;
        }
        let value = match known.get(&input.name) {
            Some(value) => Node::from_json(value),
            None => {
                let mut child = path.clone();
                child.0.push(Step::Arg(input.name.clone()));
                inserted.push(InsertedAsk {
                    path: child,
                    tool: intent.name.clone(),
                    field: input.name.clone(),
                });
                Node::Ask {
                    question: input
                        .prompt
                        .clone()
                        .unwrap_or_else(|| default_prompt(&input.name)),
                }
            }
        };
        intent.args.push(Arg {
            name: input.name.clone(),
            value,
        });
    }
}

/// Replaces every unanswered `ASK` whose slot name is known with the known value
/// (a value learned after the ASK was inserted — an earlier answer — is never
/// asked again). Returns how many were filled.
pub fn fill_known_asks(program: &mut Program, known: &BTreeMap<String, Json>) -> usize {
    fn visit(node: &mut Node, known: &BTreeMap<String, Json>) -> usize {
        let Node::Intent(intent) = node else { return 0 };
        let mut filled = 0;
        for arg in &mut intent.args {
            filled += visit(&mut arg.value, known);
            if matches!(arg.value, Node::Ask { .. })
                && let Some(value) = known.get(&arg.name)
            {
                arg.value = Node::from_json(value);
                filled += 1;
            }
        }
        filled
    }
    program
        .elements
        .iter_mut()
        .map(|element| visit(element, known))
        .sum()
}
