//! The evaluator: depth-first, nested calls first. Each successful call is
//! replaced by an `Evaluated` node holding its result, so evaluating again never
//! calls a tool twice; a recoverable failure becomes a `RuntimeError` node that
//! the resolver turns into a question.
//!
//! The step API ([`next_call`], [`complete_call`]) lets the Orchestrator gate and
//! persist every call; [`evaluate`] runs the whole loop for simple callers.

use async_trait::async_trait;
use serde_json::{Map, Value as Json};

use crate::ast::{Intent, Node, Program};
use crate::resolve::{SlotPath, Step, node_at, node_at_mut};

/// How a tool call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// The user may fix it (a different value, another item): asked as a question.
    #[error("{0}")]
    Recoverable(String),
    /// Nothing the user can do: evaluation stops.
    #[error("{0}")]
    Unrecoverable(String),
}

/// Runs tools; the Orchestrator implements it over MCP and the gates.
#[async_trait]
pub trait ToolRunner: Send + Sync {
    /// Calls `tool` with `args`.
    async fn run(&self, tool: &str, args: &Map<String, Json>) -> Result<Json, ToolError>;
}

/// The next call to run: innermost first, in written order.
#[derive(Debug, Clone, PartialEq)]
pub struct NextCall {
    /// Where the call is.
    pub path: SlotPath,
    /// Tool name.
    pub tool: String,
    /// Concrete arguments.
    pub args: Map<String, Json>,
}

/// Why the tree cannot be evaluated yet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A slot still needs resolution (an ASK, a query, a failed call awaiting the user).
    #[error("slot {0} is not resolved")]
    Unresolved(String),
    /// The path given to [`complete_call`] is not an unevaluated call.
    #[error("no call to complete at {0}")]
    NoCall(String),
}

/// The final state of an evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvaluationStatus {
    /// Every call ran.
    Success,
    /// A call failed recoverably; the resolver will ask the user.
    AbortedRecoverable,
    /// A call failed and nothing can be done.
    AbortedUnrecoverable,
}

/// What [`evaluate`] returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// How it ended.
    pub status: EvaluationStatus,
    /// The value of the last top-level element (on success).
    pub value: Option<Json>,
    /// The failure message, if any.
    pub error: Option<String>,
}

/// Finds the next call to run, or `None` when everything has run.
pub fn next_call(program: &Program) -> Result<Option<NextCall>, EvalError> {
    for (index, element) in program.elements.iter().enumerate() {
        let path = SlotPath(vec![Step::Element(index)]);
        if let Some(call) = find(element, &path)? {
            return Ok(Some(call));
        }
    }
    Ok(None)
}

fn find(node: &Node, path: &SlotPath) -> Result<Option<NextCall>, EvalError> {
    match node {
        Node::Value { .. } | Node::Evaluated { .. } => Ok(None),
        Node::List { items } => {
            for (index, item) in items.iter().enumerate() {
                let mut child = path.clone();
                child.0.push(Step::Item(index));
                if let Some(call) = find(item, &child)? {
                    return Ok(Some(call));
                }
            }
            Ok(None)
        }
        Node::Intent(intent) => {
            for arg in &intent.args {
                let mut child = path.clone();
                child.0.push(Step::Arg(arg.name.clone()));
                if let Some(call) = find(&arg.value, &child)? {
                    return Ok(Some(call));
                }
                if !arg.value.is_concrete() {
                    return Err(EvalError::Unresolved(child.to_string()));
                }
            }
            let args = intent
                .json_args()
                .ok_or_else(|| EvalError::Unresolved(path.to_string()))?;
            Ok(Some(NextCall {
                path: path.clone(),
                tool: intent.name.clone(),
                args,
            }))
        }
        _ => Err(EvalError::Unresolved(path.to_string())),
    }
}

/// Records the result of the call at `path`: success → `Evaluated`, recoverable
/// failure → `RuntimeError`, unrecoverable → the tree is left as it was.
pub fn complete_call(
    program: &mut Program,
    path: &SlotPath,
    result: &Result<Json, ToolError>,
) -> Result<(), EvalError> {
    let Some(Node::Intent(intent)) = node_at(program, path) else {
        return Err(EvalError::NoCall(path.to_string()));
    };
    let ran = Intent {
        name: intent.name.clone(),
        args: intent
            .args
            .iter()
            .map(|arg| crate::ast::Arg {
                name: arg.name.clone(),
                value: arg
                    .value
                    .to_json()
                    .map_or_else(|| arg.value.clone(), |json| Node::from_json(&json)),
            })
            .collect(),
    };
    let node = node_at_mut(program, path).ok_or_else(|| EvalError::NoCall(path.to_string()))?;
    match result {
        Ok(value) => {
            *node = Node::Evaluated {
                intent: ran,
                result: value.clone(),
            }
        }
        Err(ToolError::Recoverable(error)) => {
            *node = Node::RuntimeError {
                intent: ran,
                error: error.clone(),
            }
        }
        Err(ToolError::Unrecoverable(_)) => {}
    }
    Ok(())
}

/// Runs every remaining call of a resolved tree.
pub async fn evaluate(
    program: &mut Program,
    runner: &dyn ToolRunner,
) -> Result<Evaluation, EvalError> {
    while let Some(call) = next_call(program)? {
        let result = runner.run(&call.tool, &call.args).await;
        complete_call(program, &call.path, &result)?;
        match result {
            Ok(_) => {}
            Err(ToolError::Recoverable(error)) => {
                return Ok(Evaluation {
                    status: EvaluationStatus::AbortedRecoverable,
                    value: None,
                    error: Some(error),
                });
            }
            Err(ToolError::Unrecoverable(error)) => {
                return Ok(Evaluation {
                    status: EvaluationStatus::AbortedUnrecoverable,
                    value: None,
                    error: Some(error),
                });
            }
        }
    }
    let value = program.elements.last().and_then(Node::to_json);
    Ok(Evaluation {
        status: EvaluationStatus::Success,
        value,
        error: None,
    })
}
