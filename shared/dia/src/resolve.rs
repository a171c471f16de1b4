//! The resolver: walks the tree and stops at the first slot that needs an
//! interaction. It never blocks — its whole state is the [`Plan`] (tree plus a
//! small [`ResolutionContext`]), serializable, so the answer may arrive in
//! another process hours later.

mod nodes;

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::ast::{Arg, Intent, Literal, Node, Program};
use crate::parser::{self, truncate};
pub use nodes::*;

/// A plan and its resolution state: the unit stored in a job record.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The tree.
    pub program: Program,
    /// Resolution state.
    pub context: ResolutionContext,
}

impl Plan {
    /// A plan for a parsed program.
    pub fn new(program: Program) -> Self {
        Self {
            program,
            context: ResolutionContext::default(),
        }
    }
}

/// What the resolver remembers between calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResolutionContext {
    /// Known slot values by slot name: from answers, PROPAGATE_SLOT and resolved
    /// slots. A slot whose name is known is filled, never asked.
    pub known: BTreeMap<String, Json>,
    /// The interaction waiting for an answer, if any.
    pub pending: Option<Interaction>,
    /// Calls the user aborted, as they were printed.
    pub aborted_calls: Vec<String>,
}

/// One step of a slot path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// A top-level element.
    Element(usize),
    /// An argument of a call.
    Arg(String),
    /// A list item.
    Item(usize),
}

/// Where a node sits in the tree.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotPath(pub Vec<Step>);

impl SlotPath {
    fn child(&self, step: Step) -> Self {
        let mut steps = self.0.clone();
        steps.push(step);
        Self(steps)
    }

    /// The top-level element the path is in.
    pub fn element(&self) -> Option<usize> {
        match self.0.first() {
            Some(Step::Element(index)) => Some(*index),
            _ => None,
        }
    }
}

impl fmt::Display for SlotPath {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.0 {
            match step {
                Step::Element(index) => write!(out, "[{index}]")?,
                Step::Arg(name) => write!(out, ".{name}")?,
                Step::Item(index) => write!(out, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// The type a slot expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    /// Anything.
    #[default]
    Any,
    /// A string (numbers and booleans are turned into their text).
    String,
    /// A whole number.
    Integer,
    /// A number.
    Number,
    /// true/false (also yes/no).
    Boolean,
    /// A list.
    List,
}

impl ValueKind {
    /// From a schema type name (`text`, `email` and the like are strings).
    pub fn from_type_name(name: &str) -> Self {
        match name.to_ascii_lowercase().as_str() {
            "integer" | "int" => Self::Integer,
            "number" | "float" | "money" => Self::Number,
            "boolean" | "bool" => Self::Boolean,
            "array" | "list" => Self::List,
            "object" | "any" | "" => Self::Any,
            _ => Self::String,
        }
    }
}

/// One input of a tool, as the resolver and the missing-input hook need it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InputSpec {
    /// Argument name.
    pub name: String,
    /// Expected type.
    pub kind: ValueKind,
    /// Whether a call needs it.
    pub required: bool,
    /// Allowed values, if restricted.
    pub allowed: Vec<Json>,
    /// The question to ask for it, if the skill gives one.
    pub prompt: Option<String>,
}

/// Inputs per tool name.
pub type Schemas = HashMap<String, Vec<InputSpec>>;

fn input_spec<'a>(schemas: &'a Schemas, tool: &str, field: &str) -> Option<&'a InputSpec> {
    schemas.get(tool)?.iter().find(|input| input.name == field)
}

/// What kind of interaction is requested.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InteractionKind {
    /// `ASK`: a missing slot.
    Ask,
    /// `QUERY_USER`: an answer from the sources for the user to respond to.
    QueryUser,
    /// A tool failed recoverably: retry with changes, or abort.
    RuntimeError,
}

/// A question for the user, bound to one slot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Interaction {
    /// Why it is asked.
    pub kind: InteractionKind,
    /// The question.
    pub question: String,
    /// Where the answer goes.
    pub path: SlotPath,
    /// The slot name (empty for a runtime error).
    pub field: String,
    /// The tool whose call holds the slot.
    pub intent: String,
    /// The expected type of the answer.
    pub expected: ValueKind,
}

/// What a resolution pass ended with.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A slot needs the user (the plan's context holds it as pending).
    InteractionRequested(Interaction),
    /// Nothing left to resolve (the reference's UNCHANGED).
    Resolved,
    /// The plan was aborted: an `ABORT()` in the plan, or every call aborted by the user.
    Aborted,
}

/// Why a query source could not answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("query source: {0}")]
pub struct QueryError(pub String);

/// The data or model behind QUERY_FILL, F, QUERY_USER and QUERY_GATHER.
#[async_trait]
pub trait QuerySource: Send + Sync {
    /// A value for a slot (`QUERY_FILL(query)` and `F(text)`).
    async fn fill(&self, query: &str, field: &str) -> Result<Json, QueryError>;
    /// A user-facing answer to a question (`QUERY_USER`).
    async fn answer(&self, query: &str) -> Result<String, QueryError>;
    /// DSL text planned from gathered information (`QUERY_GATHER`).
    async fn gather(&self, query: &str, sources: &str) -> Result<String, QueryError>;
}

/// No query sources: every query turns into a question for the user.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoQuerySource;

#[async_trait]
impl QuerySource for NoQuerySource {
    async fn fill(&self, _query: &str, _field: &str) -> Result<Json, QueryError> {
        Err(QueryError("no query source is configured".into()))
    }
    async fn answer(&self, _query: &str) -> Result<String, QueryError> {
        Err(QueryError("no query source is configured".into()))
    }
    async fn gather(&self, _query: &str, _sources: &str) -> Result<String, QueryError> {
        Err(QueryError("no query source is configured".into()))
    }
}

/// A deterministic query source: answers from fixed tables (tests, demos).
#[derive(Debug, Clone, Default)]
pub struct StaticQuerySource {
    /// `QUERY_FILL`/`F` answers by query text.
    pub fills: HashMap<String, Json>,
    /// `QUERY_USER` answers by query text.
    pub answers: HashMap<String, String>,
    /// `QUERY_GATHER` DSL by query text.
    pub gathers: HashMap<String, String>,
}

#[async_trait]
impl QuerySource for StaticQuerySource {
    async fn fill(&self, query: &str, _field: &str) -> Result<Json, QueryError> {
        self.fills
            .get(query)
            .cloned()
            .ok_or_else(|| QueryError(format!("nothing known about `{query}`")))
    }
    async fn answer(&self, query: &str) -> Result<String, QueryError> {
        self.answers
            .get(query)
            .cloned()
            .ok_or_else(|| QueryError(format!("nothing known about `{query}`")))
    }
    async fn gather(&self, query: &str, _sources: &str) -> Result<String, QueryError> {
        self.gathers
            .get(query)
            .cloned()
            .ok_or_else(|| QueryError(format!("nothing known about `{query}`")))
    }
}

/// Why an answer was refused; the plan is left untouched and the question stays pending.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// Nothing is waiting for an answer.
    #[error("no question is waiting for an answer")]
    NothingPending,
    /// The answer does not fit the slot.
    #[error("`{field}` expects {expected}: {reason}")]
    Invalid {
        /// The slot.
        field: String,
        /// The expected type.
        expected: String,
        /// Why.
        reason: String,
    },
    /// The pending path no longer exists in the tree (a corrupted plan).
    #[error("the slot {0} is not in the plan")]
    MissingSlot(String),
}

/// What a resolution step found at a node.
enum Next {
    Done,
    Ask(Interaction),
    Abort,
    Replace(Vec<Node>),
}

/// Resolves plans against tool schemas and a query source.
pub struct Resolver<'a> {
    schemas: &'a Schemas,
    queries: &'a dyn QuerySource,
}

impl fmt::Debug for Resolver<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("Resolver")
            .field("tools", &self.schemas.len())
            .finish_non_exhaustive()
    }
}

/// Slot being resolved: which call, which argument, what type.
#[derive(Clone)]
struct SlotInfo {
    intent: String,
    field: String,
    expected: ValueKind,
}

impl<'a> Resolver<'a> {
    /// A resolver.
    pub fn new(schemas: &'a Schemas, queries: &'a dyn QuerySource) -> Self {
        Self { schemas, queries }
    }

    /// Resolves until a slot needs the user, everything is resolved, or the plan aborts.
    /// With an interaction already pending, returns it again (answer it first).
    pub async fn resolve(&self, plan: &mut Plan) -> Outcome {
        if let Some(pending) = &plan.context.pending {
            return Outcome::InteractionRequested(pending.clone());
        }
        let mut index = 0;
        while index < plan.program.elements.len() {
            let path = SlotPath(vec![Step::Element(index)]);
            let mut element = std::mem::replace(&mut plan.program.elements[index], Node::Abort);
            let next = if let Node::PropagateSlots { args } = &element {
                remember(&mut plan.context, args);
                Next::Replace(Vec::new())
            } else {
                self.node(&mut element, &path, None, &mut plan.context, true)
                    .await
            };
            plan.program.elements[index] = element;
            match next {
                Next::Done => index += 1,
                Next::Ask(interaction) => {
                    plan.context.pending = Some(interaction.clone());
                    return Outcome::InteractionRequested(interaction);
                }
                Next::Abort => return Outcome::Aborted,
                // Resolution continues at the same index: the replacement (or the
                // element that moved up) is resolved next, never skipped.
                Next::Replace(nodes) => {
                    plan.program.elements.splice(index..=index, nodes);
                }
            }
        }
        // Every call was aborted by the user: nothing is left to run.
        if plan.program.elements.is_empty() && !plan.context.aborted_calls.is_empty() {
            return Outcome::Aborted;
        }
        Outcome::Resolved
    }

    fn ask(
        &self,
        question: String,
        path: &SlotPath,
        slot: Option<&SlotInfo>,
        kind: InteractionKind,
    ) -> Next {
        let slot = slot.cloned().unwrap_or(SlotInfo {
            intent: String::new(),
            field: String::new(),
            expected: ValueKind::Any,
        });
        Next::Ask(Interaction {
            kind,
            question,
            path: path.clone(),
            field: slot.field,
            intent: slot.intent,
            expected: slot.expected,
        })
    }

    fn node<'f>(
        &'f self,
        node: &'f mut Node,
        path: &'f SlotPath,
        slot: Option<&'f SlotInfo>,
        context: &'f mut ResolutionContext,
        top_level: bool,
    ) -> std::pin::Pin<Box<dyn Future<Output = Next> + Send + 'f>> {
        Box::pin(async move {
            let known = slot
                .and_then(|slot| context.known.get(&slot.field))
                .cloned();
            match node {
                Node::Intent(intent) => self.intent_args(intent, path, context).await,
                Node::Value { .. } | Node::Evaluated { .. } => Next::Done,
                Node::List { items } => {
                    for (index, item) in items.iter_mut().enumerate() {
                        let child = path.child(Step::Item(index));
                        match self.node(item, &child, slot, context, false).await {
                            Next::Done => {}
                            Next::Replace(_) => return Next::Abort,
                            other => return other,
                        }
                    }
                    Next::Done
                }
                Node::Ask { question } => match known {
                    Some(value) => {
                        *node = Node::from_json(&value);
                        Next::Done
                    }
                    None => self.ask(question.clone(), path, slot, InteractionKind::Ask),
                },
                Node::SameAsPrevious => match known {
                    Some(value) => {
                        *node = Node::from_json(&value);
                        Next::Done
                    }
                    None => {
                        let field = slot.map_or("value", |slot| slot.field.as_str());
                        self.ask(
                            format!("Which {} should be used?", field.replace('_', " ")),
                            path,
                            slot,
                            InteractionKind::Ask,
                        )
                    }
                },
                Node::QueryFill { query } | Node::Fuzzy { text: query } => {
                    let field = slot.map_or("", |slot| slot.field.as_str());
                    match self.queries.fill(query, field).await {
                        Ok(value) => {
                            *node = Node::from_json(&value);
                            Next::Done
                        }
                        Err(_) => {
                            let question = format!(
                                "Please specify {} ({query})",
                                if field.is_empty() { "the value" } else { field }
                            );
                            *node = Node::Ask {
                                question: question.clone(),
                            };
                            self.ask(question, path, slot, InteractionKind::Ask)
                        }
                    }
                }
                Node::QueryUser { query } => {
                    let question = match self.queries.answer(query).await {
                        Ok(answer) => answer,
                        Err(_) => query.clone(),
                    };
                    self.ask(question, path, slot, InteractionKind::QueryUser)
                }
                Node::QueryGather { query, sources } => {
                    let asked = (query.clone(), sources.clone());
                    self.gather(node, (path, slot), context, top_level, asked)
                        .await
                }
                Node::PropagateSlots { args } => {
                    let args = args.clone();
                    remember(context, &args);
                    match slot
                        .and_then(|slot| context.known.get(&slot.field))
                        .cloned()
                    {
                        Some(value) => {
                            *node = Node::from_json(&value);
                            Next::Done
                        }
                        None => Next::Abort,
                    }
                }
                Node::Abort => Next::Abort,
                Node::AbortWithNewIntents { intents } => {
                    if top_level {
                        Next::Replace(intents.drain(..).map(Node::Intent).collect())
                    } else {
                        Next::Abort
                    }
                }
                Node::RuntimeError { intent, error } => {
                    let question = format!(
                        "`{intent}` failed: {error}. Reply with a corrected call, PROPAGATE_SLOT(name=value) to retry with changed values, `retry`, or ABORT() to give up."
                    );
                    let info = SlotInfo {
                        intent: intent.name.clone(),
                        field: String::new(),
                        expected: ValueKind::Any,
                    };
                    self.ask(question, path, Some(&info), InteractionKind::RuntimeError)
                }
            }
        })
    }

    /// An intent's arguments, each resolved in turn; a resolved value is
    /// known to the rest of the plan.
    async fn intent_args(
        &self,
        intent: &mut Intent,
        path: &SlotPath,
        context: &mut ResolutionContext,
    ) -> Next {
        let name = intent.name.clone();
        for arg in &mut intent.args {
            let info = SlotInfo {
                intent: name.clone(),
                field: arg.name.clone(),
                expected: input_spec(self.schemas, &name, &arg.name)
                    .map_or(ValueKind::Any, |spec| spec.kind),
            };
            let child = path.child(Step::Arg(arg.name.clone()));
            match self
                .node(&mut arg.value, &child, Some(&info), context, false)
                .await
            {
                Next::Done => {
                    if let Some(value) = arg.value.to_json() {
                        context.known.insert(arg.name.clone(), value);
                    }
                }
                Next::Replace(_) => return Next::Abort,
                other => return other,
            }
        }
        Next::Done
    }

    /// `QUERY_GATHER`: the model's DIA for the query, parsed in place (a
    /// value below the top level, statements at it); a query it cannot
    /// answer, or DIA that does not parse, is asked of the user instead.
    async fn gather(
        &self,
        node: &mut Node,
        (path, slot): (&SlotPath, Option<&SlotInfo>),
        context: &mut ResolutionContext,
        top_level: bool,
        (query, sources): (String, String),
    ) -> Next {
        match self.queries.gather(&query, &sources).await {
            Ok(dsl) => {
                let parsed = if top_level {
                    parser::parse(&dsl).map(|program| program.elements)
                } else {
                    parser::parse_value(&dsl).map(|node| vec![node])
                };
                match parsed {
                    Ok(mut nodes) if !top_level && nodes.len() == 1 => {
                        *node = nodes.remove(0);
                        self.node(node, path, slot, context, top_level).await
                    }
                    Ok(nodes) => Next::Replace(nodes),
                    Err(_) => {
                        let question = format!("I could not work out: {query}. Could you tell me?");
                        *node = Node::Ask {
                            question: question.clone(),
                        };
                        self.ask(question, path, slot, InteractionKind::Ask)
                    }
                }
            }
            Err(_) => {
                let question = format!("I could not work out: {query}. Could you tell me?");
                *node = Node::Ask {
                    question: question.clone(),
                };
                self.ask(question, path, slot, InteractionKind::Ask)
            }
        }
    }

    /// Answers the pending interaction. The answer is parsed as DSL (text that is
    /// not DSL is a string): a value fills the slot (converted to the expected
    /// type), `ABORT()` drops the call, `ABORT_WITH_NEW_INTENTS([...])` replaces
    /// it, `PROPAGATE_SLOT(...)` supplies values. A refused answer changes nothing.
    pub fn answer(&self, plan: &mut Plan, text: &str) -> Result<(), AnswerError> {
        let pending = plan
            .context
            .pending
            .clone()
            .ok_or(AnswerError::NothingPending)?;
        self.fill(plan, &pending, text)?;
        plan.context.pending = None;
        Ok(())
    }

    /// Fills the slot of `interaction` with an answer (see [`Self::answer`]); used
    /// directly when several slots of one call are asked at once.
    pub fn fill(
        &self,
        plan: &mut Plan,
        interaction: &Interaction,
        text: &str,
    ) -> Result<(), AnswerError> {
        let (answer, slots) = parse_reply(text.trim());
        self.fill_with(plan, interaction, answer)?;
        // Values given beside the answer (`5, PROPAGATE_SLOT(length=12)`) are
        // known from now on — only once the answer itself was taken.
        remember(&mut plan.context, &slots);
        Ok(())
    }

    fn fill_with(
        &self,
        plan: &mut Plan,
        interaction: &Interaction,
        answer: Node,
    ) -> Result<(), AnswerError> {
        let missing = || AnswerError::MissingSlot(interaction.path.to_string());
        let element = interaction.path.element().ok_or_else(missing)?;
        if element >= plan.program.elements.len()
            || node_at_mut(&mut plan.program, &interaction.path).is_none()
        {
            return Err(missing());
        }
        match answer {
            Node::Abort => {
                let removed = plan.program.elements.remove(element);
                plan.context.aborted_calls.push(removed.to_string());
                Ok(())
            }
            Node::AbortWithNewIntents { intents } => {
                let removed = plan
                    .program
                    .elements
                    .splice(element..=element, intents.into_iter().map(Node::Intent))
                    .collect::<Vec<_>>();
                plan.context
                    .aborted_calls
                    .extend(removed.iter().map(ToString::to_string));
                Ok(())
            }
            Node::PropagateSlots { args } => {
                let field_value = args
                    .iter()
                    .find(|arg| arg.name == interaction.field)
                    .map(|arg| arg.value.clone());
                if interaction.kind == InteractionKind::RuntimeError {
                    let node =
                        node_at_mut(&mut plan.program, &interaction.path).ok_or_else(missing)?;
                    let Node::RuntimeError { intent, .. } = node else {
                        return Err(missing());
                    };
                    let mut retry = intent.clone();
                    for arg in &args {
                        match retry
                            .args
                            .iter_mut()
                            .find(|existing| existing.name == arg.name)
                        {
                            Some(existing) => existing.value = arg.value.clone(),
                            None => retry.args.push(arg.clone()),
                        }
                    }
                    *node = Node::Intent(retry);
                    remember(&mut plan.context, &args);
                    return Ok(());
                }
                let converted = field_value
                    .map(|value| self.convert(interaction, value))
                    .transpose()?;
                remember(&mut plan.context, &args);
                if let Some(value) = converted {
                    *node_at_mut(&mut plan.program, &interaction.path).ok_or_else(missing)? = value;
                }
                Ok(())
            }
            answer if interaction.kind == InteractionKind::RuntimeError => {
                let node = node_at_mut(&mut plan.program, &interaction.path).ok_or_else(missing)?;
                let Node::RuntimeError { intent, .. } = node else {
                    return Err(missing());
                };
                match answer {
                    Node::Intent(corrected) => *node = Node::Intent(corrected),
                    Node::Value {
                        literal: Literal::Str(word),
                    } if word.eq_ignore_ascii_case("retry") => *node = Node::Intent(intent.clone()),
                    _ => {
                        return Err(AnswerError::Invalid {
                            field: intent.name.clone(),
                            expected: "a corrected call, PROPAGATE_SLOT(...), `retry` or ABORT()"
                                .into(),
                            reason: "the reply is none of these".into(),
                        });
                    }
                }
                Ok(())
            }
            value => {
                let value = self.convert(interaction, value)?;
                if let Some(json) = value.to_json()
                    && !interaction.field.is_empty()
                {
                    plan.context.known.insert(interaction.field.clone(), json);
                }
                *node_at_mut(&mut plan.program, &interaction.path).ok_or_else(missing)? = value;
                Ok(())
            }
        }
    }

    fn convert(&self, interaction: &Interaction, value: Node) -> Result<Node, AnswerError> {
        let allowed = input_spec(self.schemas, &interaction.intent, &interaction.field)
            .map(|spec| spec.allowed.clone())
            .unwrap_or_default();
        convert(&interaction.field, interaction.expected, &allowed, value)
    }
}

/// A reply as DSL: one value, or one value with `PROPAGATE_SLOT(...)`s beside it
/// (the reference's reply form); anything else is the text as a string.
fn parse_reply(text: &str) -> (Node, Vec<Arg>) {
    if let Ok(node) = parser::parse_value(text) {
        return (node, Vec::new());
    }
    let as_text = || (Node::literal(Literal::Str(text.to_owned())), Vec::new());
    let Ok(program) = parser::parse(text) else {
        return as_text();
    };
    let mut slots = Vec::new();
    let mut values = Vec::new();
    for element in program.elements {
        match element {
            Node::PropagateSlots { args } => slots.extend(args),
            other => values.push(other),
        }
    }
    match (values.len(), slots.is_empty()) {
        (1, false) => (values.remove(0), slots),
        _ => as_text(),
    }
}

fn remember(context: &mut ResolutionContext, args: &[Arg]) {
    for arg in args {
        if let Some(value) = arg.value.to_json() {
            context.known.insert(arg.name.clone(), value);
        }
    }
}

impl Intent {
    /// A call with no arguments.
    pub fn named(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            args: Vec::new(),
        }
    }
}
