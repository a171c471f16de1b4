//! adas-e2e: end-to-end tests live in `tests/` (and `python/`); `adas-bench`
//! (`src/bin/adas-bench.rs`) measures the job path against its floor. The
//! library holds only what the bench and the tests share: the bench's job and
//! the invariant checker every suite runs when it stops ([`invariants`]).

pub mod invariants;

/// The bench's skill (a template): a refund in three tool calls with one
/// question, on the demo MCP server.
pub const BENCH_SKILL: &str = r#"id: bench-refund
name: "Bench: refund"
version: 1.0.0
description: A refund in three tool calls with one question, for adas-bench.
problem:
  statement: Refund a customer's order
mcp_server: "${ADAS_DEMO_MCP_URL}"
intents:
  supported:
    - id: intent_refund
      description: Customer wants a refund for an order
      examples:
        - I'd like a refund for order ORD-12345
        - Refund my order please
      entities:
        - name: order_id
          type: identifier
          required: true
        - name: amount
          type: money
          required: true
  out_of_domain:
    action: redirect
    message: I can only help with refunds
tools:
  - name: check_order_status
    description: Look up the status of an order
    read_only: true
    inputs:
      - name: order_id
        type: string
        required: true
        description: Order number
  - name: process_refund
    description: Process a customer refund
    inputs:
      - name: order_id
        type: string
        required: true
        description: Order to refund
      - name: amount
        type: number
        required: true
        description: Amount to refund
policy:
  workflows:
    - name: Refund
      trigger: intent_refund
      steps:
        - check_order_status
        - process_refund
        - check_order_status
      required: true
output_contract:
  required_fields:
    - order_id
    - status
required_inputs:
  - path: amount
    prompt: How much should be refunded?
engine:
  max_iterations: 10
"#;

/// The bench skill's resource name.
pub const SKILL: &str = "skills/bench-refund";
/// A goal that plans the three calls and asks for the amount.
pub const GOAL: &str = "I'd like a refund for order ORD-12345";
/// The bench job as a LangGraph peer (issue 17's comparison), which
/// `adas-bench` runs in the same run when its Python can import LangGraph.
pub const LANGGRAPH_PEER: &str = include_str!("../peer/langgraph_refund.py");
