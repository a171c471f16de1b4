import type { GenEnum, GenFile, GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { ApprovalDecision, FinalizationResult, LlmUsage } from "./gate_pb.js";
import type { Timestamp, Value } from "@bufbuild/protobuf/wkt";
import type { Status } from "../../google/rpc/status_pb.js";
import type { JsonObject, Message } from "@bufbuild/protobuf";
/**
 * Describes the file adas/v1/job.proto.
 */
export declare const file_adas_v1_job: GenFile;
/**
 * A job: one conversation or task run by one skill. The record is the source of
 * truth for status, waiting state, context, plan and results; every write to it
 * is a compare-and-set on `version`.
 *
 * @generated from message adas.v1.Job
 */
export type Job = Message<"adas.v1.Job"> & {
    /**
     * Resource name, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * The job id alone (the last segment of `name`).
     *
     * @generated from field: string job_id = 2;
     */
    jobId: string;
    /**
     * The skill namespace (slag) the job runs in.
     *
     * @generated from field: string slag = 3;
     */
    slag: string;
    /**
     * The user's goal or first message, as given to StartJob.
     *
     * @generated from field: string goal = 4;
     */
    goal: string;
    /**
     * Lifecycle state.
     *
     * @generated from field: adas.v1.JobStatus status = 5;
     */
    status: JobStatus;
    /**
     * Why the job is in its current state (waiting for a user, finished, failed, ...).
     *
     * @generated from field: adas.v1.OutcomeClass outcome_class = 6;
     */
    outcomeClass: OutcomeClass;
    /**
     * Set exactly while the job is paused for a user or an approver.
     *
     * @generated from field: adas.v1.Waiting waiting = 7;
     */
    waiting?: Waiting | undefined;
    /**
     * Facts known about the conversation: detected entities, answers, tool results
     * keyed by field name. A field present here is never asked again.
     *
     * @generated from field: google.protobuf.Struct context = 8;
     */
    context?: JsonObject | undefined;
    /**
     * Resources bound to this job by name (see the skill's `resources`). Values of
     * `credential` resources are references, never secrets, and are redacted in logs.
     *
     * @generated from field: map<string, string> resources = 9;
     */
    resources: {
        [key: string]: string;
    };
    /**
     * The plan and its progress.
     *
     * @generated from field: adas.v1.Plan plan = 10;
     */
    plan?: Plan | undefined;
    /**
     * Tool calls made so far; each one is one iteration.
     *
     * @generated from field: int32 iteration = 11;
     */
    iteration: number;
    /**
     * The iteration budget (`engine.max_iterations` of the skill).
     *
     * @generated from field: int32 iteration_budget = 12;
     */
    iterationBudget: number;
    /**
     * The final reply and output fields, set when the job completes.
     *
     * @generated from field: adas.v1.JobResult result = 13;
     */
    result?: JobResult | undefined;
    /**
     * The platform error that failed the job, with `google.rpc` details. Empty
     * unless `outcome_class` is INTERNAL_ERROR or another failure class.
     *
     * @generated from field: google.rpc.Status error = 14;
     */
    error?: Status | undefined;
    /**
     * The intent detected for the goal.
     *
     * @generated from field: adas.v1.DetectedIntent intent = 15;
     */
    intent?: DetectedIntent | undefined;
    /**
     * When the job was created.
     *
     * @generated from field: google.protobuf.Timestamp create_time = 16;
     */
    createTime?: Timestamp | undefined;
    /**
     * When the job record last changed.
     *
     * @generated from field: google.protobuf.Timestamp update_time = 17;
     */
    updateTime?: Timestamp | undefined;
    /**
     * When the job reached a terminal status.
     *
     * @generated from field: google.protobuf.Timestamp end_time = 18;
     */
    endTime?: Timestamp | undefined;
    /**
     * Monotonic record version, bumped by every write (compare-and-set).
     *
     * @generated from field: int64 version = 19;
     */
    version: bigint;
    /**
     * Opaque concurrency token derived from `version`; pass it back on writes that
     * must not overwrite a newer state.
     *
     * @generated from field: string etag = 20;
     */
    etag: string;
    /**
     * The idempotency key the job was started with, if any.
     *
     * @generated from field: string request_id = 21;
     */
    requestId: string;
    /**
     * The conversation this job is a turn of, `skills/{slag}/conversations/{id}`.
     * Every job starts or continues one; pass it to the next StartJob so facts,
     * entities and answers given earlier are used later.
     *
     * @generated from field: string conversation = 22;
     */
    conversation: string;
    /**
     * The tool calls made so far, in call order (also while the job waits); the
     * same records as `result.tool_calls` once it completes.
     *
     * @generated from field: repeated adas.v1.ToolCallRecord tool_calls = 23;
     */
    toolCalls: ToolCallRecord[];
    /**
     * What the job's model calls cost so far, all services together (zero on
     * the deterministic path). Bounded by the operator's per-job token budget.
     *
     * @generated from field: adas.v1.LlmUsage llm_usage = 24;
     */
    llmUsage?: LlmUsage | undefined;
    /**
     * The grants the job's conversation holds (issued by a skill's
     * `grant_mappings` from a tool's result, never from a request), unexpired
     * when the job last changed. Values of classified tools are masked.
     *
     * @generated from field: repeated adas.v1.Grant grants = 25;
     */
    grants: Grant[];
    /**
     * The solution this turn ran under, `solutions/{id}`; empty for a job
     * started on a skill. `slag` is the skill that handled the turn.
     *
     * @generated from field: string solution = 26;
     */
    solution: string;
    /**
     * The skill (slag) the conversation was handed off from for this turn;
     * empty when the turn stayed on its skill.
     *
     * @generated from field: string handed_off_from = 27;
     */
    handedOffFrom: string;
    /**
     * The name of the principal that started it, within its tenant (empty:
     * started in dev mode).
     *
     * @generated from field: string owner = 28;
     */
    owner: string;
    /**
     * The approvers' decisions on its calls, oldest first, each with its
     * reason: the job's approval trail.
     *
     * @generated from field: repeated adas.v1.JobDecision decisions = 29;
     */
    decisions: JobDecision[];
    /**
     * The skill version the job runs (the skill's etag when it started): it
     * runs on that version to its end, whatever is published since.
     *
     * @generated from field: string skill_etag = 30;
     */
    skillEtag: string;
    /**
     * The W3C trace id of the job's one trace, from the StartJob call's
     * `traceparent` (every step on any worker continues it); empty when the
     * suite does not trace.
     *
     * @generated from field: string trace_id = 31;
     */
    traceId: string;
    /**
     * The job this one runs again (RetryJob), `skills/{slag}/jobs/{job_id}`;
     * empty when it is no retry.
     *
     * @generated from field: string retry_of = 32;
     */
    retryOf: string;
    /**
     * The job that runs this one again, once RetryJob was asked; empty until.
     *
     * @generated from field: string retried_by = 33;
     */
    retriedBy: string;
};
/**
 * Describes the message adas.v1.Job.
 * Use `create(JobSchema)` to create a new message.
 */
export declare const JobSchema: GenMessage<Job>;
/**
 * An approver's decision on one of a job's calls, as the job's audit keeps it.
 *
 * @generated from message adas.v1.JobDecision
 */
export type JobDecision = Message<"adas.v1.JobDecision"> & {
    /**
     * The approval ask it answered (`waiting.correlation_id`).
     *
     * @generated from field: string correlation_id = 1;
     */
    correlationId: string;
    /**
     * Approved, or rejected.
     *
     * @generated from field: adas.v1.ApprovalDecision decision = 2;
     */
    decision: ApprovalDecision;
    /**
     * The principal who decided.
     *
     * @generated from field: string approver = 3;
     */
    approver: string;
    /**
     * The role the approval rule asked of.
     *
     * @generated from field: string role = 4;
     */
    role: string;
    /**
     * The call's tool.
     *
     * @generated from field: string tool = 5;
     */
    tool: string;
    /**
     * The call's digest: the decision applies to this exact call only.
     *
     * @generated from field: string call_digest = 6;
     */
    callDigest: string;
    /**
     * Why, in the approver's words (empty: none given).
     *
     * @generated from field: string comment = 7;
     */
    comment: string;
    /**
     * When it was decided.
     *
     * @generated from field: google.protobuf.Timestamp decide_time = 8;
     */
    decideTime?: Timestamp | undefined;
};
/**
 * Describes the message adas.v1.JobDecision.
 * Use `create(JobDecisionSchema)` to create a new message.
 */
export declare const JobDecisionSchema: GenMessage<JobDecision>;
/**
 * A grant: a fact a skill's tool proved, bound to the principal and the
 * conversation it was issued in, until it expires.
 *
 * @generated from message adas.v1.Grant
 */
export type Grant = Message<"adas.v1.Grant"> & {
    /**
     * Grant key, e.g. `sched.user_id`.
     *
     * @generated from field: string key = 1;
     */
    key: string;
    /**
     * The value as JSON text, or `***` when the issuing tool is classified
     * (`security.classification: pii_*`).
     *
     * @generated from field: string value = 2;
     */
    value: string;
    /**
     * The skill whose grant mapping issued it (its slag).
     *
     * @generated from field: string issuer_skill = 3;
     */
    issuerSkill: string;
    /**
     * The tool whose successful result issued it.
     *
     * @generated from field: string issuer_tool = 4;
     */
    issuerTool: string;
    /**
     * The job whose call issued it, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string issuer_job = 5;
     */
    issuerJob: string;
    /**
     * The principal it is bound to.
     *
     * @generated from field: string principal = 6;
     */
    principal: string;
    /**
     * When it expires.
     *
     * @generated from field: google.protobuf.Timestamp expire_time = 7;
     */
    expireTime?: Timestamp | undefined;
};
/**
 * Describes the message adas.v1.Grant.
 * Use `create(GrantSchema)` to create a new message.
 */
export declare const GrantSchema: GenMessage<Grant>;
/**
 * The waiting contract of spec 000: present exactly while a job is paused. The
 * first six fields are the stable contract; the rest is detail for UIs.
 *
 * @generated from message adas.v1.Waiting
 */
export type Waiting = Message<"adas.v1.Waiting"> & {
    /**
     * Why the job waits: MISSING_REQUIRED_INPUT, IDENTITY_VERIFICATION_REQUIRED,
     * TOOL_ERROR_RECOVERY (a tool failed; the offending field is asked again),
     * USER_CONFIRMATION_REQUIRED (QUERY_USER), INTENT_CLARIFICATION_REQUIRED (the
     * request matched no intent confidently: field `intent`, one option per
     * candidate), ACTION_CONFIRMATION_REQUIRED (a side-effecting call rests on a
     * guess: field `confirm`, yes or no, the call in `approval`),
     * APPROVAL_REQUIRED, HUMAN_TAKEOVER_REQUIRED (escalated: an operator answers
     * field `reply`). A UI renders its input widget if and only if the job is
     * paused, its outcome is USER_ACTION_REQUIRED and this is set.
     *
     * @generated from field: string reason_code = 1;
     */
    reasonCode: string;
    /**
     * Names of the fields the user is asked for, in ask order.
     *
     * @generated from field: repeated string requested_fields = 2;
     */
    requestedFields: string[];
    /**
     * One message asking for all requested fields at once.
     *
     * @generated from field: string prompt_message = 3;
     */
    promptMessage: string;
    /**
     * Identifies this ask; SubmitInput and DecideApproval must echo it.
     *
     * @generated from field: string correlation_id = 4;
     */
    correlationId: string;
    /**
     * When this ask was first made.
     *
     * @generated from field: google.protobuf.Timestamp created_at = 5;
     */
    createdAt?: Timestamp | undefined;
    /**
     * When the user was last prompted for it (bumped when a repeated ask is deduplicated).
     *
     * @generated from field: google.protobuf.Timestamp last_prompt_at = 6;
     */
    lastPromptAt?: Timestamp | undefined;
    /**
     * Per-field detail, one entry per `requested_fields` item, same order.
     *
     * @generated from field: repeated adas.v1.WaitingField fields = 7;
     */
    fields: WaitingField[];
    /**
     * How many times this ask was prompted (1 for the first prompt).
     *
     * @generated from field: int32 prompt_count = 8;
     */
    promptCount: number;
    /**
     * How many answers to this ask were refused as invalid.
     *
     * @generated from field: int32 invalid_answer_count = 9;
     */
    invalidAnswerCount: number;
    /**
     * Set when `reason_code` is APPROVAL_REQUIRED or ACTION_CONFIRMATION_REQUIRED:
     * the call awaiting a decision (an approver's, or the user's yes).
     *
     * @generated from field: adas.v1.ApprovalRequest approval = 10;
     */
    approval?: ApprovalRequest | undefined;
};
/**
 * Describes the message adas.v1.Waiting.
 * Use `create(WaitingSchema)` to create a new message.
 */
export declare const WaitingSchema: GenMessage<Waiting>;
/**
 * How a UI should collect one requested field.
 *
 * @generated from message adas.v1.WaitingField
 */
export type WaitingField = Message<"adas.v1.WaitingField"> & {
    /**
     * Field name, as listed in `requested_fields`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * Expected value type: string, number, integer, boolean, date, email, phone, ...
     *
     * @generated from field: string type = 2;
     */
    type: string;
    /**
     * Question for this field (from `required_inputs` hints or a default).
     *
     * @generated from field: string prompt = 3;
     */
    prompt: string;
    /**
     * Widget to render.
     *
     * @generated from field: adas.v1.InputType input_type = 4;
     */
    inputType: InputType;
    /**
     * Allowed values when `input_type` is CHOICE or the field has an enum.
     *
     * @generated from field: repeated string options = 5;
     */
    options: string[];
    /**
     * Whether an answer must include this field.
     *
     * @generated from field: bool required = 6;
     */
    required: boolean;
    /**
     * The tool input this field fills, e.g. `process_refund.order_id`.
     *
     * @generated from field: string slot_path = 7;
     */
    slotPath: string;
    /**
     * A human-readable label per entry of `options`, same order (the intent's
     * description for a clarification).
     *
     * @generated from field: repeated string option_labels = 8;
     */
    optionLabels: string[];
};
/**
 * Describes the message adas.v1.WaitingField.
 * Use `create(WaitingFieldSchema)` to create a new message.
 */
export declare const WaitingFieldSchema: GenMessage<WaitingField>;
/**
 * A tool call held for an approver's decision.
 *
 * @generated from message adas.v1.ApprovalRequest
 */
export type ApprovalRequest = Message<"adas.v1.ApprovalRequest"> & {
    /**
     * Tool to be called.
     *
     * @generated from field: string tool = 1;
     */
    tool: string;
    /**
     * Arguments of the call, exactly as they will be passed.
     *
     * @generated from field: google.protobuf.Struct arguments = 2;
     */
    arguments?: JsonObject | undefined;
    /**
     * Digest of tool + arguments; the decision applies to this exact call only.
     *
     * @generated from field: string call_digest = 3;
     */
    callDigest: string;
    /**
     * Role that must decide, e.g. `supervisor`.
     *
     * @generated from field: string approver = 4;
     */
    approver: string;
    /**
     * Why approval is needed (the rule's text).
     *
     * @generated from field: string reason = 5;
     */
    reason: string;
    /**
     * The condition that matched, e.g. `amount > 500`.
     *
     * @generated from field: string condition = 6;
     */
    condition: string;
};
/**
 * Describes the message adas.v1.ApprovalRequest.
 * Use `create(ApprovalRequestSchema)` to create a new message.
 */
export declare const ApprovalRequestSchema: GenMessage<ApprovalRequest>;
/**
 * The plan of a job: a DIA program and its resolution/evaluation progress.
 *
 * @generated from message adas.v1.Plan
 */
export type Plan = Message<"adas.v1.Plan"> & {
    /**
     * The program as DIA text, with evaluated calls replaced by their results.
     *
     * @generated from field: string program = 1;
     */
    program: string;
    /**
     * The serialized plan tree (JSON), runtime nodes included, so any worker can continue it.
     *
     * @generated from field: string state_json = 2;
     */
    stateJson: string;
    /**
     * Whether every call of the plan has been evaluated.
     *
     * @generated from field: bool done = 3;
     */
    done: boolean;
};
/**
 * Describes the message adas.v1.Plan.
 * Use `create(PlanSchema)` to create a new message.
 */
export declare const PlanSchema: GenMessage<Plan>;
/**
 * The intent detected for a job's goal.
 *
 * @generated from message adas.v1.DetectedIntent
 */
export type DetectedIntent = Message<"adas.v1.DetectedIntent"> & {
    /**
     * Intent id from the skill's `intents.supported`; empty when out of domain.
     *
     * @generated from field: string intent_id = 1;
     */
    intentId: string;
    /**
     * Score in [0, 1].
     *
     * @generated from field: double confidence = 2;
     */
    confidence: number;
    /**
     * Whether the message fell outside every supported intent.
     *
     * @generated from field: bool out_of_domain = 3;
     */
    outOfDomain: boolean;
    /**
     * How far the intent's score leads the next candidate's.
     *
     * @generated from field: double margin = 4;
     */
    margin: number;
    /**
     * Whether the intent was acted on without asking: its score reached the
     * skill's accept threshold with the margin, or the user chose it. A
     * side-effecting call of a job whose intent is not confident is confirmed
     * with the user first.
     *
     * @generated from field: bool confident = 5;
     */
    confident: boolean;
};
/**
 * Describes the message adas.v1.DetectedIntent.
 * Use `create(DetectedIntentSchema)` to create a new message.
 */
export declare const DetectedIntentSchema: GenMessage<DetectedIntent>;
/**
 * What a completed job returns.
 *
 * @generated from message adas.v1.JobResult
 */
export type JobResult = Message<"adas.v1.JobResult"> & {
    /**
     * The polished reply shown to the user.
     *
     * @generated from field: string reply = 1;
     */
    reply: string;
    /**
     * The `output_contract.required_fields` and their values.
     *
     * @generated from field: google.protobuf.Struct output_fields = 2;
     */
    outputFields?: JsonObject | undefined;
    /**
     * Results of the tool calls, in call order.
     *
     * @generated from field: repeated adas.v1.ToolCallRecord tool_calls = 3;
     */
    toolCalls: ToolCallRecord[];
    /**
     * The finalization verdict the reply passed (or escalated with).
     *
     * @generated from field: adas.v1.FinalizationResult finalization = 4;
     */
    finalization?: FinalizationResult | undefined;
};
/**
 * Describes the message adas.v1.JobResult.
 * Use `create(JobResultSchema)` to create a new message.
 */
export declare const JobResultSchema: GenMessage<JobResult>;
/**
 * One tool call made by a job.
 *
 * @generated from message adas.v1.ToolCallRecord
 */
export type ToolCallRecord = Message<"adas.v1.ToolCallRecord"> & {
    /**
     * Tool name.
     *
     * @generated from field: string tool = 1;
     */
    tool: string;
    /**
     * Arguments passed.
     *
     * @generated from field: google.protobuf.Struct arguments = 2;
     */
    arguments?: JsonObject | undefined;
    /**
     * What the tool returned.
     *
     * @generated from field: google.protobuf.Value output = 3;
     */
    output?: Value | undefined;
    /**
     * Whether the tool reported an error.
     *
     * @generated from field: bool is_error = 4;
     */
    isError: boolean;
    /**
     * Iteration number this call consumed.
     *
     * @generated from field: int32 iteration = 5;
     */
    iteration: number;
    /**
     * When the call finished.
     *
     * @generated from field: google.protobuf.Timestamp finish_time = 6;
     */
    finishTime?: Timestamp | undefined;
};
/**
 * Describes the message adas.v1.ToolCallRecord.
 * Use `create(ToolCallRecordSchema)` to create a new message.
 */
export declare const ToolCallRecordSchema: GenMessage<ToolCallRecord>;
/**
 * One transition of a job, appended to its event log and streamed by WatchJob.
 *
 * @generated from message adas.v1.JobEvent
 */
export type JobEvent = Message<"adas.v1.JobEvent"> & {
    /**
     * Event id, ordered within the job; resume WatchJob after it.
     *
     * @generated from field: string event_id = 1;
     */
    eventId: string;
    /**
     * Resource name of the job.
     *
     * @generated from field: string job = 2;
     */
    job: string;
    /**
     * What happened.
     *
     * @generated from field: adas.v1.JobEventType type = 3;
     */
    type: JobEventType;
    /**
     * Job status after the event.
     *
     * @generated from field: adas.v1.JobStatus status = 4;
     */
    status: JobStatus;
    /**
     * Job outcome class after the event.
     *
     * @generated from field: adas.v1.OutcomeClass outcome_class = 5;
     */
    outcomeClass: OutcomeClass;
    /**
     * Human-readable summary.
     *
     * @generated from field: string message = 6;
     */
    message: string;
    /**
     * Event-specific detail (tool name and arguments, requested fields, decision, ...).
     *
     * @generated from field: google.protobuf.Struct data = 7;
     */
    data?: JsonObject | undefined;
    /**
     * When it happened.
     *
     * @generated from field: google.protobuf.Timestamp time = 8;
     */
    time?: Timestamp | undefined;
    /**
     * Job version after the event.
     *
     * @generated from field: int64 job_version = 9;
     */
    jobVersion: bigint;
};
/**
 * Describes the message adas.v1.JobEvent.
 * Use `create(JobEventSchema)` to create a new message.
 */
export declare const JobEventSchema: GenMessage<JobEvent>;
/**
 * Lifecycle state of a job.
 *
 * @generated from enum adas.v1.JobStatus
 */
export declare enum JobStatus {
    /**
     * Not set; never stored.
     *
     * @generated from enum value: JOB_STATUS_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * Stored and waiting in the ready queue for a worker.
     *
     * @generated from enum value: JOB_STATUS_QUEUED = 1;
     */
    QUEUED = 1,
    /**
     * Held by a worker that is advancing its plan.
     *
     * @generated from enum value: JOB_STATUS_RUNNING = 2;
     */
    RUNNING = 2,
    /**
     * Waiting for a user's input or an approver's decision; in no queue, burning no iteration.
     *
     * @generated from enum value: JOB_STATUS_PAUSED = 3;
     */
    PAUSED = 3,
    /**
     * Finished with a reply.
     *
     * @generated from enum value: JOB_STATUS_COMPLETED = 4;
     */
    COMPLETED = 4,
    /**
     * Finished without a reply; see `outcome_class` and `error`.
     *
     * @generated from enum value: JOB_STATUS_FAILED = 5;
     */
    FAILED = 5,
    /**
     * Cancelled by a client.
     *
     * @generated from enum value: JOB_STATUS_CANCELLED = 6;
     */
    CANCELLED = 6
}
/**
 * Describes the enum adas.v1.JobStatus.
 */
export declare const JobStatusSchema: GenEnum<JobStatus>;
/**
 * How much of a job a response carries (AIP-157 partial responses).
 *
 * @generated from enum adas.v1.JobView
 */
export declare enum JobView {
    /**
     * The method's default; for ResolveNext that is FULL.
     *
     * @generated from enum value: JOB_VIEW_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * Identity and state only: name, job_id, slag, status, outcome_class, waiting,
     * iteration, timestamps, version and etag. For callers that already hold the
     * rest and only need to know whether it changed.
     *
     * @generated from enum value: JOB_VIEW_BASIC = 1;
     */
    BASIC = 1,
    /**
     * Every field.
     *
     * @generated from enum value: JOB_VIEW_FULL = 2;
     */
    FULL = 2
}
/**
 * Describes the enum adas.v1.JobView.
 */
export declare const JobViewSchema: GenEnum<JobView>;
/**
 * Why a job is where it is. Waiting for a user is not an error (spec 000).
 *
 * @generated from enum adas.v1.OutcomeClass
 */
export declare enum OutcomeClass {
    /**
     * No outcome yet (queued or running).
     *
     * @generated from enum value: OUTCOME_CLASS_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * Completed and passed the finalization gate.
     *
     * @generated from enum value: OUTCOME_CLASS_SUCCESS = 1;
     */
    SUCCESS = 1,
    /**
     * Paused: a user must provide the fields in `waiting`.
     *
     * @generated from enum value: OUTCOME_CLASS_USER_ACTION_REQUIRED = 2;
     */
    USER_ACTION_REQUIRED = 2,
    /**
     * Paused: an approver must decide on the call in `waiting.approval`.
     *
     * @generated from enum value: OUTCOME_CLASS_APPROVAL_REQUIRED = 3;
     */
    APPROVAL_REQUIRED = 3,
    /**
     * Failed because of a platform failure (never because input was missing).
     *
     * @generated from enum value: OUTCOME_CLASS_INTERNAL_ERROR = 4;
     */
    INTERNAL_ERROR = 4,
    /**
     * Failed because the iteration budget or loop detection stopped it.
     *
     * @generated from enum value: OUTCOME_CLASS_ENGINE_BUDGET_EXHAUSTED = 5;
     */
    ENGINE_BUDGET_EXHAUSTED = 5,
    /**
     * Completed with the skill's out-of-domain message.
     *
     * @generated from enum value: OUTCOME_CLASS_OUT_OF_DOMAIN = 6;
     */
    OUT_OF_DOMAIN = 6,
    /**
     * Cancelled by a client.
     *
     * @generated from enum value: OUTCOME_CLASS_CANCELLED = 7;
     */
    CANCELLED = 7,
    /**
     * Ended because the user did not answer within the skill's wait timeout.
     *
     * @generated from enum value: OUTCOME_CLASS_EXPIRED = 8;
     */
    EXPIRED = 8,
    /**
     * Handed to a human: finalization did not pass or answers stayed invalid. The
     * job is paused in the skill's waiting queue (ListWaiting) with reason
     * HUMAN_TAKEOVER_REQUIRED until an operator replies in its place.
     *
     * @generated from enum value: OUTCOME_CLASS_ESCALATED = 9;
     */
    ESCALATED = 9,
    /**
     * A tool call was denied by policy or rejected by an approver.
     *
     * @generated from enum value: OUTCOME_CLASS_POLICY_DENIED = 10;
     */
    POLICY_DENIED = 10,
    /**
     * A tool failed and the failure could not be recovered.
     *
     * @generated from enum value: OUTCOME_CLASS_TOOL_FAILED = 11;
     */
    TOOL_FAILED = 11
}
/**
 * Describes the enum adas.v1.OutcomeClass.
 */
export declare const OutcomeClassSchema: GenEnum<OutcomeClass>;
/**
 * The widget a UI renders for a requested field.
 *
 * @generated from enum adas.v1.InputType
 */
export declare enum InputType {
    /**
     * Not set; treat as TEXT.
     *
     * @generated from enum value: INPUT_TYPE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * Free text.
     *
     * @generated from enum value: INPUT_TYPE_TEXT = 1;
     */
    TEXT = 1,
    /**
     * One of `options`.
     *
     * @generated from enum value: INPUT_TYPE_CHOICE = 2;
     */
    CHOICE = 2
}
/**
 * Describes the enum adas.v1.InputType.
 */
export declare const InputTypeSchema: GenEnum<InputType>;
/**
 * Kinds of job events.
 *
 * @generated from enum adas.v1.JobEventType
 */
export declare enum JobEventType {
    /**
     * Not set.
     *
     * @generated from enum value: JOB_EVENT_TYPE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The job was created and queued.
     *
     * @generated from enum value: JOB_EVENT_TYPE_CREATED = 1;
     */
    CREATED = 1,
    /**
     * A plan was made for the goal.
     *
     * @generated from enum value: JOB_EVENT_TYPE_PLANNED = 2;
     */
    PLANNED = 2,
    /**
     * The job paused for user input or approval. `data.reason_code` says why;
     * for a question, `data.correlation_id` and `data.requested_fields` are the
     * ask's, so a watcher can answer with SubmitInput without reading the job.
     *
     * @generated from enum value: JOB_EVENT_TYPE_PAUSED = 3;
     */
    PAUSED = 3,
    /**
     * An answer or decision was accepted and the job re-queued.
     *
     * @generated from enum value: JOB_EVENT_TYPE_RESUMED = 4;
     */
    RESUMED = 4,
    /**
     * A tool call passed the gate and is running.
     *
     * @generated from enum value: JOB_EVENT_TYPE_TOOL_STARTED = 5;
     */
    TOOL_STARTED = 5,
    /**
     * A tool call finished.
     *
     * @generated from enum value: JOB_EVENT_TYPE_TOOL_FINISHED = 6;
     */
    TOOL_FINISHED = 6,
    /**
     * The pre-tool gate denied a call.
     *
     * @generated from enum value: JOB_EVENT_TYPE_TOOL_DENIED = 7;
     */
    TOOL_DENIED = 7,
    /**
     * The finalization gate judged a draft reply.
     *
     * @generated from enum value: JOB_EVENT_TYPE_FINALIZED = 8;
     */
    FINALIZED = 8,
    /**
     * The job completed.
     *
     * @generated from enum value: JOB_EVENT_TYPE_COMPLETED = 9;
     */
    COMPLETED = 9,
    /**
     * The job failed.
     *
     * @generated from enum value: JOB_EVENT_TYPE_FAILED = 10;
     */
    FAILED = 10,
    /**
     * The job was cancelled.
     *
     * @generated from enum value: JOB_EVENT_TYPE_CANCELLED = 11;
     */
    CANCELLED = 11,
    /**
     * A crashed worker's job was reclaimed by another worker.
     *
     * @generated from enum value: JOB_EVENT_TYPE_RECLAIMED = 12;
     */
    RECLAIMED = 12,
    /**
     * A worker took the queued job.
     *
     * @generated from enum value: JOB_EVENT_TYPE_RUNNING = 13;
     */
    RUNNING = 13,
    /**
     * DalAgent resolved the plan: no required input is missing before the next call.
     *
     * @generated from enum value: JOB_EVENT_TYPE_RESOLVED = 14;
     */
    RESOLVED = 14,
    /**
     * An answer to the current ask was refused (the violations are in `data`);
     * the job still waits.
     *
     * @generated from enum value: JOB_EVENT_TYPE_ANSWER_REFUSED = 15;
     */
    ANSWER_REFUSED = 15,
    /**
     * A tool's result issued a grant (key, issuer, expiry in `data`).
     *
     * @generated from enum value: JOB_EVENT_TYPE_GRANT_ISSUED = 16;
     */
    GRANT_ISSUED = 16,
    /**
     * A grant the conversation held expired and was dropped.
     *
     * @generated from enum value: JOB_EVENT_TYPE_GRANT_EXPIRED = 17;
     */
    GRANT_EXPIRED = 17,
    /**
     * A grant was not issued (its condition did not hold), or a call was not
     * made for a grant it needs or an argument that conflicts with one.
     *
     * @generated from enum value: JOB_EVENT_TYPE_GRANT_DENIED = 18;
     */
    GRANT_DENIED = 18,
    /**
     * The conversation moved to another skill of its solution (from, to, the
     * grants passed in `data`).
     *
     * @generated from enum value: JOB_EVENT_TYPE_HANDOFF = 19;
     */
    HANDOFF = 19,
    /**
     * A call left the steps of the job's workflow and ran, recorded because
     * the workflow says `on_deviation: warn` (with `block` it is not made:
     * TOOL_DENIED).
     *
     * @generated from enum value: JOB_EVENT_TYPE_WORKFLOW_DEVIATED = 20;
     */
    WORKFLOW_DEVIATED = 20
}
/**
 * Describes the enum adas.v1.JobEventType.
 */
export declare const JobEventTypeSchema: GenEnum<JobEventType>;
