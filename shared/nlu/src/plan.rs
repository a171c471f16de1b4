//! Plans from messages: the workflow whose `trigger` is the intent (or the
//! intent's `maps_to_workflow`) gives the steps in order; each step's arguments
//! are filled from entities and context by input name; missing arguments stay
//! absent (DalAgent asks for them). With no workflow, the tool whose required
//! inputs best match what is known; with none, a reply-only plan.

use adas_dia::{Arg, Intent, Literal, Node, Program};
use adas_skill::model::Skill;
use async_trait::async_trait;
use serde_json::{Map, Value as Json};

use crate::detect::{Detection, detect};

/// A plan for a message.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// What was detected.
    pub detection: Detection,
    /// The plan; `None` when the message is out of domain.
    pub program: Option<Program>,
    /// The workflow followed, if any.
    pub workflow: Option<String>,
}

/// Turns a message into a plan; the seam where an LLM planner plugs in.
#[async_trait]
pub trait Planner: Send + Sync {
    /// Plans for `message` with known `context`.
    async fn plan(&self, skill: &Skill, message: &str, context: &Map<String, Json>) -> Planned;
}

/// The deterministic planner: example-scored intents and workflows.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkflowPlanner;

#[async_trait]
impl Planner for WorkflowPlanner {
    async fn plan(&self, skill: &Skill, message: &str, context: &Map<String, Json>) -> Planned {
        plan(skill, message, context)
    }
}

fn known_values(detection: &Detection, context: &Map<String, Json>) -> Map<String, Json> {
    let mut known = context.clone();
    for entity in &detection.entities {
        known
            .entry(entity.name.clone())
            .or_insert_with(|| entity.value.clone());
    }
    known
}

fn call(
    skill: &Skill,
    tool: &str,
    known: &Map<String, Json>,
    message: &str,
    intent_description: &str,
) -> Intent {
    let mut args = Vec::new();
    match tool {
        "sys.emitUserMessage" => {
            let text = if intent_description.is_empty() {
                "Done.".to_owned()
            } else {
                format!("Done: {intent_description}")
            };
            args.push(Arg {
                name: "text".into(),
                value: Node::literal(Literal::Str(text)),
            });
        }
        "sys.escalate" => args.push(Arg {
            name: "reason".into(),
            value: Node::literal(Literal::Str(message.to_owned())),
        }),
        _ => {
            if let Some(declared) = skill.tools.iter().find(|declared| declared.name == tool) {
                for input in &declared.inputs {
                    if let Some(value) = known.get(&input.name) {
                        args.push(Arg {
                            name: input.name.clone(),
                            value: Node::from_json(value),
                        });
                    }
                }
            }
        }
    }
    Intent {
        name: tool.to_owned(),
        args,
    }
}

/// Plans for a message (see the module docs).
pub fn plan(skill: &Skill, message: &str, context: &Map<String, Json>) -> Planned {
    let detection = detect(skill, message, context);
    let Some(intent_id) = detection.intent_id.clone() else {
        return Planned {
            detection,
            program: None,
            workflow: None,
        };
    };
    let intent = skill
        .intents
        .iter()
        .flat_map(|intents| intents.supported.iter())
        .find(|intent| intent.id == intent_id);
    let description = intent
        .and_then(|intent| intent.description.clone())
        .unwrap_or_default();
    let maps_to = intent.and_then(|intent| intent.maps_to_workflow.clone());
    let known = known_values(&detection, context);
    let workflows = skill
        .policy
        .as_ref()
        .map(|policy| policy.workflows.as_slice())
        .unwrap_or_default();
    let workflow = workflows
        .iter()
        .find(|workflow| workflow.trigger.as_deref() == Some(intent_id.as_str()))
        .or_else(|| {
            workflows
                .iter()
                .find(|workflow| maps_to.is_some() && workflow.id == maps_to)
        });
    if let Some(workflow) = workflow {
        let elements = workflow
            .steps
            .iter()
            .map(|step| Node::Intent(call(skill, step, &known, message, &description)))
            .collect();
        return Planned {
            detection,
            program: Some(Program { elements }),
            workflow: Some(workflow.name.clone()),
        };
    }
    // No workflow: the tool whose required inputs are best covered by what is known.
    let best = skill
        .tools
        .iter()
        .filter(|tool| {
            tool.policy
                .as_ref()
                .and_then(|policy| policy.allowed.as_deref())
                != Some("never")
        })
        .map(|tool| {
            (
                tool,
                tool.inputs
                    .iter()
                    .filter(|input| input.required && known.contains_key(&input.name))
                    .count(),
            )
        })
        .filter(|(_, covered)| *covered > 0)
        .max_by_key(|(_, covered)| *covered);
    let element = match best {
        Some((tool, _)) => call(skill, &tool.name, &known, message, &description),
        None => call(skill, "sys.emitUserMessage", &known, message, &description),
    };
    Planned {
        detection,
        program: Some(Program {
            elements: vec![Node::Intent(element)],
        }),
        workflow: None,
    }
}
