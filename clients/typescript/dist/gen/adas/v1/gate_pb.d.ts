import type { GenEnum, GenFile, GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { JsonObject, Message } from "@bufbuild/protobuf";
/**
 * Describes the file adas/v1/gate.proto.
 */
export declare const file_adas_v1_gate: GenFile;
/**
 * The pre-tool gate's decision on one fully resolved tool call (spec 004 §4.3).
 *
 * @generated from message adas.v1.GateDecision
 */
export type GateDecision = Message<"adas.v1.GateDecision"> & {
    /**
     * Allow, deny or hold for approval.
     *
     * @generated from field: adas.v1.GateVerdict verdict = 1;
     */
    verdict: GateVerdict;
    /**
     * Why, lowercase, for logs and users.
     *
     * @generated from field: string reason = 2;
     */
    reason: string;
    /**
     * The original text of the rule that decided (guardrail, tool policy, approval rule).
     *
     * @generated from field: string rule = 3;
     */
    rule: string;
    /**
     * Kind of rule that decided.
     *
     * @generated from field: adas.v1.GateRuleKind rule_kind = 4;
     */
    ruleKind: GateRuleKind;
    /**
     * Role that must approve, for REQUIRE_APPROVAL.
     *
     * @generated from field: string approver = 5;
     */
    approver: string;
    /**
     * The condition that matched, e.g. `amount > 500`.
     *
     * @generated from field: string condition = 6;
     */
    condition: string;
    /**
     * Digest of tool + arguments; approvals are bound to it.
     *
     * @generated from field: string call_digest = 7;
     */
    callDigest: string;
    /**
     * Identifies the approval request of a REQUIRE_APPROVAL decision made for a
     * job; pass it to DecideApproval. Stable: the same call asks the same request.
     *
     * @generated from field: string correlation_id = 8;
     */
    correlationId: string;
};
/**
 * Describes the message adas.v1.GateDecision.
 * Use `create(GateDecisionSchema)` to create a new message.
 */
export declare const GateDecisionSchema: GenMessage<GateDecision>;
/**
 * An approval request and, once decided, its decision: the audit record of who
 * decided what about which exact call, and when.
 *
 * @generated from message adas.v1.Approval
 */
export type Approval = Message<"adas.v1.Approval"> & {
    /**
     * Resource name, `skills/{slag}/jobs/{job_id}/approvals/{correlation_id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * The request's correlation id.
     *
     * @generated from field: string correlation_id = 2;
     */
    correlationId: string;
    /**
     * The job, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string job = 3;
     */
    job: string;
    /**
     * The tool of the call.
     *
     * @generated from field: string tool = 4;
     */
    tool: string;
    /**
     * The call's arguments, exactly as they will run.
     *
     * @generated from field: google.protobuf.Struct arguments = 5;
     */
    arguments?: JsonObject | undefined;
    /**
     * Digest of tool + arguments; the decision applies to this exact call only.
     *
     * @generated from field: string call_digest = 6;
     */
    callDigest: string;
    /**
     * Role that must decide.
     *
     * @generated from field: string approver = 7;
     */
    approver: string;
    /**
     * Why approval is needed.
     *
     * @generated from field: string reason = 8;
     */
    reason: string;
    /**
     * The condition that matched.
     *
     * @generated from field: string condition = 9;
     */
    condition: string;
    /**
     * The decision.
     *
     * @generated from field: adas.v1.ApprovalDecision decision = 10;
     */
    decision: ApprovalDecision;
    /**
     * Who decided (`role` or `role:name`).
     *
     * @generated from field: string decided_by = 11;
     */
    decidedBy: string;
    /**
     * The decider's note.
     *
     * @generated from field: string comment = 12;
     */
    comment: string;
    /**
     * When approval was requested.
     *
     * @generated from field: google.protobuf.Timestamp request_time = 13;
     */
    requestTime?: Timestamp | undefined;
    /**
     * When it was decided.
     *
     * @generated from field: google.protobuf.Timestamp decide_time = 14;
     */
    decideTime?: Timestamp | undefined;
};
/**
 * Describes the message adas.v1.Approval.
 * Use `create(ApprovalSchema)` to create a new message.
 */
export declare const ApprovalSchema: GenMessage<Approval>;
/**
 * The finalization gate's verdict on a draft reply (spec 004 §4.4).
 *
 * @generated from message adas.v1.FinalizationResult
 */
export type FinalizationResult = Message<"adas.v1.FinalizationResult"> & {
    /**
     * Whether the reply may be sent.
     *
     * @generated from field: bool passed = 1;
     */
    passed: boolean;
    /**
     * True when `engine.finalization_gate.enabled` is false and nothing was checked.
     *
     * @generated from field: bool skipped = 2;
     */
    skipped: boolean;
    /**
     * Confidence in [0, 1].
     *
     * @generated from field: double score = 3;
     */
    score: number;
    /**
     * Why it failed, one entry per problem.
     *
     * @generated from field: repeated adas.v1.FinalizationReason reasons = 4;
     */
    reasons: FinalizationReason[];
    /**
     * `output_contract.required_fields` absent from the results and the reply.
     *
     * @generated from field: repeated string missing_fields = 5;
     */
    missingFields: string[];
    /**
     * What should happen next.
     *
     * @generated from field: adas.v1.SuggestedAction suggested_action = 6;
     */
    suggestedAction: SuggestedAction;
    /**
     * Text guardrails nothing checked: without a model, every text guardrail;
     * with one, those past the ten a prompt carries.
     *
     * @generated from field: repeated string unchecked_guardrails = 7;
     */
    uncheckedGuardrails: string[];
    /**
     * Who judged: the mechanical checks alone, or with a model.
     *
     * @generated from field: adas.v1.Decider decider = 8;
     */
    decider?: Decider | undefined;
};
/**
 * Describes the message adas.v1.FinalizationResult.
 * Use `create(FinalizationResultSchema)` to create a new message.
 */
export declare const FinalizationResultSchema: GenMessage<FinalizationResult>;
/**
 * Model tokens and cost.
 *
 * @generated from message adas.v1.LlmUsage
 */
export type LlmUsage = Message<"adas.v1.LlmUsage"> & {
    /**
     * Model calls made (each retry is billed and counted).
     *
     * @generated from field: int64 calls = 1;
     */
    calls: bigint;
    /**
     * Input tokens.
     *
     * @generated from field: int64 input_tokens = 2;
     */
    inputTokens: bigint;
    /**
     * Output tokens.
     *
     * @generated from field: int64 output_tokens = 3;
     */
    outputTokens: bigint;
    /**
     * Cost in USD, from the operator's configured prices (0 when none are set).
     *
     * @generated from field: double cost_usd = 4;
     */
    costUsd: number;
};
/**
 * Describes the message adas.v1.LlmUsage.
 * Use `create(LlmUsageSchema)` to create a new message.
 */
export declare const LlmUsageSchema: GenMessage<LlmUsage>;
/**
 * Who made a decision the suite can make with or without a model (intent and
 * plan, finalization, polishing).
 *
 * @generated from message adas.v1.Decider
 */
export type Decider = Message<"adas.v1.Decider"> & {
    /**
     * `deterministic`, or `model:<name>` with the operator's name of the model.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * What the model calls of this decision cost.
     *
     * @generated from field: adas.v1.LlmUsage usage = 2;
     */
    usage?: LlmUsage | undefined;
    /**
     * Why a model's answer was not used and the deterministic result was
     * (refusal, truncation, malformed answer, rejected program, budget, outage).
     *
     * @generated from field: string fallback_reason = 3;
     */
    fallbackReason: string;
};
/**
 * Describes the message adas.v1.Decider.
 * Use `create(DeciderSchema)` to create a new message.
 */
export declare const DeciderSchema: GenMessage<Decider>;
/**
 * One problem the finalization gate found.
 *
 * @generated from message adas.v1.FinalizationReason
 */
export type FinalizationReason = Message<"adas.v1.FinalizationReason"> & {
    /**
     * Reason code.
     *
     * @generated from field: adas.v1.FinalizationReasonCode code = 1;
     */
    code: FinalizationReasonCode;
    /**
     * Specific explanation.
     *
     * @generated from field: string detail = 2;
     */
    detail: string;
};
/**
 * Describes the message adas.v1.FinalizationReason.
 * Use `create(FinalizationReasonSchema)` to create a new message.
 */
export declare const FinalizationReasonSchema: GenMessage<FinalizationReason>;
/**
 * Verdicts of the pre-tool gate.
 *
 * @generated from enum adas.v1.GateVerdict
 */
export declare enum GateVerdict {
    /**
     * Not set.
     *
     * @generated from enum value: GATE_VERDICT_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The call may run.
     *
     * @generated from enum value: GATE_VERDICT_ALLOW = 1;
     */
    ALLOW = 1,
    /**
     * The call must not run.
     *
     * @generated from enum value: GATE_VERDICT_DENY = 2;
     */
    DENY = 2,
    /**
     * The call runs only after an approver approves this exact call.
     *
     * @generated from enum value: GATE_VERDICT_REQUIRE_APPROVAL = 3;
     */
    REQUIRE_APPROVAL = 3
}
/**
 * Describes the enum adas.v1.GateVerdict.
 */
export declare const GateVerdictSchema: GenEnum<GateVerdict>;
/**
 * Kinds of rules the pre-tool gate applies.
 *
 * @generated from enum adas.v1.GateRuleKind
 */
export declare enum GateRuleKind {
    /**
     * Never sent: a decision names the kind of rule behind it, or NO_RULE.
     *
     * @generated from enum value: GATE_RULE_KIND_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * `tools[].policy.allowed: never`.
     *
     * @generated from enum value: GATE_RULE_KIND_TOOL_POLICY = 1;
     */
    TOOL_POLICY = 1,
    /**
     * A compiled `tool_deny` guardrail.
     *
     * @generated from enum value: GATE_RULE_KIND_TOOL_DENY = 2;
     */
    TOOL_DENY = 2,
    /**
     * A compiled threshold guardrail.
     *
     * @generated from enum value: GATE_RULE_KIND_THRESHOLD = 3;
     */
    THRESHOLD = 3,
    /**
     * `policy.approvals` or `requires_approval`.
     *
     * @generated from enum value: GATE_RULE_KIND_APPROVAL = 4;
     */
    APPROVAL = 4,
    /**
     * `policy.tools.blocked` or not in `policy.tools.allowed`.
     *
     * @generated from enum value: GATE_RULE_KIND_BLOCKED_TOOL = 5;
     */
    BLOCKED_TOOL = 5,
    /**
     * An approval already granted for this exact call.
     *
     * @generated from enum value: GATE_RULE_KIND_APPROVAL_GRANTED = 6;
     */
    APPROVAL_GRANTED = 6,
    /**
     * No rule matched: the call is allowed by default.
     *
     * @generated from enum value: GATE_RULE_KIND_NO_RULE = 7;
     */
    NO_RULE = 7,
    /**
     * The skill does not declare the tool (its server may offer it, a program or
     * a model may name it): denied by default, whatever else the skill says.
     *
     * @generated from enum value: GATE_RULE_KIND_UNDECLARED_TOOL = 8;
     */
    UNDECLARED_TOOL = 8,
    /**
     * The skill's `access_policy`: a `deny` rule, a grant the job's
     * conversation does not hold (or not with the required value), or an
     * argument that differs from the grant it is injected from.
     *
     * @generated from enum value: GATE_RULE_KIND_ACCESS_POLICY = 9;
     */
    ACCESS_POLICY = 9
}
/**
 * Describes the enum adas.v1.GateRuleKind.
 */
export declare const GateRuleKindSchema: GenEnum<GateRuleKind>;
/**
 * An approver's decision.
 *
 * @generated from enum adas.v1.ApprovalDecision
 */
export declare enum ApprovalDecision {
    /**
     * Not set.
     *
     * @generated from enum value: APPROVAL_DECISION_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * Run the call.
     *
     * @generated from enum value: APPROVAL_DECISION_APPROVE = 1;
     */
    APPROVE = 1,
    /**
     * Do not run the call.
     *
     * @generated from enum value: APPROVAL_DECISION_REJECT = 2;
     */
    REJECT = 2
}
/**
 * Describes the enum adas.v1.ApprovalDecision.
 */
export declare const ApprovalDecisionSchema: GenEnum<ApprovalDecision>;
/**
 * Reason codes of the finalization gate (spec 004 §4.4).
 *
 * @generated from enum adas.v1.FinalizationReasonCode
 */
export declare enum FinalizationReasonCode {
    /**
     * Not set.
     *
     * @generated from enum value: FINALIZATION_REASON_CODE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The reply does not address the goal.
     *
     * @generated from enum value: FINALIZATION_REASON_CODE_GOAL_NOT_MET = 1;
     */
    GOAL_NOT_MET = 1,
    /**
     * The reply or the calls broke a guardrail.
     *
     * @generated from enum value: FINALIZATION_REASON_CODE_GUARDRAIL_VIOLATED = 2;
     */
    GUARDRAIL_VIOLATED = 2,
    /**
     * A field of the output contract is absent.
     *
     * @generated from enum value: FINALIZATION_REASON_CODE_MISSING_REQUIRED_FIELD = 3;
     */
    MISSING_REQUIRED_FIELD = 3,
    /**
     * The reply is incomplete.
     *
     * @generated from enum value: FINALIZATION_REASON_CODE_OUTPUT_INCOMPLETE = 4;
     */
    OUTPUT_INCOMPLETE = 4,
    /**
     * The reply does not match the persona's tone.
     *
     * @generated from enum value: FINALIZATION_REASON_CODE_TONE_MISMATCH = 5;
     */
    TONE_MISMATCH = 5
}
/**
 * Describes the enum adas.v1.FinalizationReasonCode.
 */
export declare const FinalizationReasonCodeSchema: GenEnum<FinalizationReasonCode>;
/**
 * Action codes of the finalization gate (spec 004 §4.4).
 *
 * @generated from enum adas.v1.SuggestedAction
 */
export declare enum SuggestedAction {
    /**
     * No action (the reply passed).
     *
     * @generated from enum value: SUGGESTED_ACTION_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * Call a tool to gather the missing evidence.
     *
     * @generated from enum value: SUGGESTED_ACTION_TOOL_CALL = 1;
     */
    TOOL_CALL = 1,
    /**
     * Ask the user.
     *
     * @generated from enum value: SUGGESTED_ACTION_CLARIFY_USER = 2;
     */
    CLARIFY_USER = 2,
    /**
     * Rewrite the reply from the evidence already gathered.
     *
     * @generated from enum value: SUGGESTED_ACTION_REWRITE = 3;
     */
    REWRITE = 3,
    /**
     * Hand the job to a human.
     *
     * @generated from enum value: SUGGESTED_ACTION_ESCALATE = 4;
     */
    ESCALATE = 4
}
/**
 * Describes the enum adas.v1.SuggestedAction.
 */
export declare const SuggestedActionSchema: GenEnum<SuggestedAction>;
