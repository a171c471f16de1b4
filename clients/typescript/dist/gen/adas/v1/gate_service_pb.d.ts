import type { GenFile, GenMessage, GenService } from "@bufbuild/protobuf/codegenv2";
import type { ApprovalDecision, ApprovalSchema, Decider, FinalizationResultSchema, GateDecisionSchema } from "./gate_pb.js";
import type { JsonObject, Message } from "@bufbuild/protobuf";
/**
 * Describes the file adas/v1/gate_service.proto.
 */
export declare const file_adas_v1_gate_service: GenFile;
/**
 * Request of CheckToolCall.
 *
 * @generated from message adas.v1.CheckToolCallRequest
 */
export type CheckToolCallRequest = Message<"adas.v1.CheckToolCallRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string skill = 1;
     */
    skill: string;
    /**
     * The job making the call, `skills/{slag}/jobs/{job_id}`; approvals are looked up on it.
     *
     * @generated from field: string job = 2;
     */
    job: string;
    /**
     * Tool name.
     *
     * @generated from field: string tool = 3;
     */
    tool: string;
    /**
     * Arguments of the call.
     *
     * @generated from field: google.protobuf.Struct arguments = 4;
     */
    arguments?: JsonObject | undefined;
    /**
     * Job context the rules may read.
     *
     * @generated from field: google.protobuf.Struct context = 5;
     */
    context?: JsonObject | undefined;
};
/**
 * Describes the message adas.v1.CheckToolCallRequest.
 * Use `create(CheckToolCallRequestSchema)` to create a new message.
 */
export declare const CheckToolCallRequestSchema: GenMessage<CheckToolCallRequest>;
/**
 * Request of DecideApproval. The decider is the authenticated caller: it must
 * hold the rule's approver role and, unless the rule allows self-approval, must
 * not be the principal that started the job.
 *
 * @generated from message adas.v1.DecideApprovalRequest
 */
export type DecideApprovalRequest = Message<"adas.v1.DecideApprovalRequest"> & {
    /**
     * Job name, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string job = 1;
     */
    job: string;
    /**
     * The `waiting.correlation_id` of the approval ask.
     *
     * @generated from field: string correlation_id = 2;
     */
    correlationId: string;
    /**
     * Approve or reject.
     *
     * @generated from field: adas.v1.ApprovalDecision decision = 4;
     */
    decision: ApprovalDecision;
    /**
     * Why, in the decider's words (at most 4 KiB): kept with the decision and
     * shown wherever it is — the `resumed` or `failed` event's `data.comment`,
     * the job's `decisions`, the approval record.
     *
     * @generated from field: string comment = 5;
     */
    comment: string;
    /**
     * Idempotency key.
     *
     * @generated from field: string request_id = 6;
     */
    requestId: string;
};
/**
 * Describes the message adas.v1.DecideApprovalRequest.
 * Use `create(DecideApprovalRequestSchema)` to create a new message.
 */
export declare const DecideApprovalRequestSchema: GenMessage<DecideApprovalRequest>;
/**
 * Request of Finalize.
 *
 * @generated from message adas.v1.FinalizeRequest
 */
export type FinalizeRequest = Message<"adas.v1.FinalizeRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string skill = 1;
     */
    skill: string;
    /**
     * The job's goal.
     *
     * @generated from field: string goal = 2;
     */
    goal: string;
    /**
     * The draft reply.
     *
     * @generated from field: string draft_reply = 3;
     */
    draftReply: string;
    /**
     * Collected results (tool outputs and context) by field name.
     *
     * @generated from field: google.protobuf.Struct results = 4;
     */
    results?: JsonObject | undefined;
    /**
     * Intent the job was planned for; its workflow's required steps define goal coverage.
     *
     * @generated from field: string intent_id = 5;
     */
    intentId: string;
    /**
     * Tools that ran successfully, in order.
     *
     * @generated from field: repeated string succeeded_tools = 6;
     */
    succeededTools: string[];
    /**
     * The job judged, `skills/{slag}/jobs/{job_id}`: a model judges only for the
     * suite's own steps of a job, within the job's budget (read from the job);
     * otherwise the mechanical checks alone decide.
     *
     * @generated from field: string job = 8;
     */
    job: string;
};
/**
 * Describes the message adas.v1.FinalizeRequest.
 * Use `create(FinalizeRequestSchema)` to create a new message.
 */
export declare const FinalizeRequestSchema: GenMessage<FinalizeRequest>;
/**
 * Request of PolishReply.
 *
 * @generated from message adas.v1.PolishReplyRequest
 */
export type PolishReplyRequest = Message<"adas.v1.PolishReplyRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string skill = 1;
     */
    skill: string;
    /**
     * The reply to format.
     *
     * @generated from field: string reply = 2;
     */
    reply: string;
    /**
     * The results the reply may state.
     *
     * @generated from field: google.protobuf.Struct results = 3;
     */
    results?: JsonObject | undefined;
    /**
     * Resource bindings for persona templating.
     *
     * @generated from field: map<string, string> resources = 4;
     */
    resources: {
        [key: string]: string;
    };
    /**
     * Whether the user answered an ask during the job: a thank-you for their
     * patience fits only then.
     *
     * @generated from field: bool user_waited = 5;
     */
    userWaited: boolean;
    /**
     * The job replied for, `skills/{slag}/jobs/{job_id}`: a model polishes only
     * for the suite's own steps of a job, within the job's budget (read from
     * the job); otherwise the template does.
     *
     * @generated from field: string job = 7;
     */
    job: string;
};
/**
 * Describes the message adas.v1.PolishReplyRequest.
 * Use `create(PolishReplyRequestSchema)` to create a new message.
 */
export declare const PolishReplyRequestSchema: GenMessage<PolishReplyRequest>;
/**
 * Response of PolishReply.
 *
 * @generated from message adas.v1.PolishReplyResponse
 */
export type PolishReplyResponse = Message<"adas.v1.PolishReplyResponse"> & {
    /**
     * The formatted reply.
     *
     * @generated from field: string text = 1;
     */
    text: string;
    /**
     * Who formatted it, and what it cost.
     *
     * @generated from field: adas.v1.Decider decider = 2;
     */
    decider?: Decider | undefined;
};
/**
 * Describes the message adas.v1.PolishReplyResponse.
 * Use `create(PolishReplyResponseSchema)` to create a new message.
 */
export declare const PolishReplyResponseSchema: GenMessage<PolishReplyResponse>;
/**
 * Decides what may happen and what may be said: the pre-tool gate with
 * approvals, the finalization gate and the reply polisher.
 *
 * @generated from service adas.v1.GateService
 */
export declare const GateService: GenService<{
    /**
     * Checks one fully resolved tool call against the skill's policy.
     *
     * @generated from rpc adas.v1.GateService.CheckToolCall
     */
    checkToolCall: {
        methodKind: "unary";
        input: typeof CheckToolCallRequestSchema;
        output: typeof GateDecisionSchema;
    };
    /**
     * Records an approver's decision on a call held for approval (the job resumes
     * or the call fails); returns the audit record.
     *
     * @generated from rpc adas.v1.GateService.DecideApproval
     */
    decideApproval: {
        methodKind: "unary";
        input: typeof DecideApprovalRequestSchema;
        output: typeof ApprovalSchema;
    };
    /**
     * Judges a draft reply: goal coverage, guardrails, required output fields.
     *
     * @generated from rpc adas.v1.GateService.Finalize
     */
    finalize: {
        methodKind: "unary";
        input: typeof FinalizeRequestSchema;
        output: typeof FinalizationResultSchema;
    };
    /**
     * Formats a reply in the skill's persona without adding facts.
     *
     * @generated from rpc adas.v1.GateService.PolishReply
     */
    polishReply: {
        methodKind: "unary";
        input: typeof PolishReplyRequestSchema;
        output: typeof PolishReplyResponseSchema;
    };
}>;
