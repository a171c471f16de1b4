import type { GenFile, GenMessage, GenService } from "@bufbuild/protobuf/codegenv2";
import type { Job, JobEventSchema, JobSchema, JobStatus, OutcomeClass } from "./job_pb.js";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { JsonObject, Message } from "@bufbuild/protobuf";
/**
 * Describes the file adas/v1/orchestrator_service.proto.
 */
export declare const file_adas_v1_orchestrator_service: GenFile;
/**
 * Request of GetCaller: the caller is the call's credentials.
 *
 * @generated from message adas.v1.GetCallerRequest
 */
export type GetCallerRequest = Message<"adas.v1.GetCallerRequest"> & {};
/**
 * Describes the message adas.v1.GetCallerRequest.
 * Use `create(GetCallerRequestSchema)` to create a new message.
 */
export declare const GetCallerRequestSchema: GenMessage<GetCallerRequest>;
/**
 * The authenticated principal of a call.
 *
 * @generated from message adas.v1.Caller
 */
export type Caller = Message<"adas.v1.Caller"> & {
    /**
     * Its name within its tenant (`dev` in dev mode).
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * Its tenant (`*` for the suite's own service keys).
     *
     * @generated from field: string tenant = 2;
     */
    tenant: string;
    /**
     * Its roles: platform roles (`admin`, `operator`, `user`, `service`) and
     * the approver roles skills name.
     *
     * @generated from field: repeated string roles = 3;
     */
    roles: string[];
    /**
     * Dev mode (no auth file): every caller is this one principal, holding
     * every role.
     *
     * @generated from field: bool dev_mode = 4;
     */
    devMode: boolean;
};
/**
 * Describes the message adas.v1.Caller.
 * Use `create(CallerSchema)` to create a new message.
 */
export declare const CallerSchema: GenMessage<Caller>;
/**
 * Request of StartJob.
 *
 * @generated from message adas.v1.StartJobRequest
 */
export type StartJobRequest = Message<"adas.v1.StartJobRequest"> & {
    /**
     * Skill name, `skills/{slag}`; empty means `skills/sw-dev-agent`.
     *
     * @generated from field: string skill = 1;
     */
    skill: string;
    /**
     * The user's goal or first message. Required unless `program` is given.
     *
     * @generated from field: string goal = 2;
     */
    goal: string;
    /**
     * Resource bindings by name.
     *
     * @generated from field: map<string, string> resources = 3;
     */
    resources: {
        [key: string]: string;
    };
    /**
     * Initial facts (never asked again).
     *
     * @generated from field: google.protobuf.Struct context = 4;
     */
    context?: JsonObject | undefined;
    /**
     * Idempotency key: a repeated request with the same id returns the first job.
     *
     * @generated from field: string request_id = 5;
     */
    requestId: string;
    /**
     * A DIA program to run instead of detecting the intent and planning, e.g.
     * `check_order_status(order_id="ORD-1"), process_refund(order_id="ORD-1",
     * amount=ASK("How much?"))`: for teams with their own planner, ADAS as the
     * safe executor. Every call is still resolved (a missing required input or
     * an ASK pauses the job) and gated by the skill's policy and approvals. At
     * most 64 KiB; a program that does not parse is INVALID_ARGUMENT with its
     * line:col.
     *
     * @generated from field: string program = 6;
     */
    program: string;
    /**
     * The conversation to continue, `skills/{slag}/conversations/{id}` (a
     * previous job's `conversation`): the new job starts with that conversation's
     * facts (entities and answers its earlier turns gave). Its previous job must
     * have ended (FAILED_PRECONDITION otherwise); an unknown or foreign
     * conversation is NOT_FOUND. Empty starts a new conversation.
     *
     * @generated from field: string conversation = 7;
     */
    conversation: string;
    /**
     * Start on a solution instead of a skill, `solutions/{id}` (`skill` must
     * then be empty): a new conversation begins at the channel's `routing`
     * default skill; a continued one (`conversation` =
     * `solutions/{id}/conversations/{cid}`) runs on the skill its last turn
     * handed off to. Grants pass between its skills only as its handoffs say.
     *
     * @generated from field: string solution = 8;
     */
    solution: string;
    /**
     * The channel of the solution's `routing` (`api`, `telegram`, …); empty
     * means `api`.
     *
     * @generated from field: string channel = 9;
     */
    channel: string;
};
/**
 * Describes the message adas.v1.StartJobRequest.
 * Use `create(StartJobRequestSchema)` to create a new message.
 */
export declare const StartJobRequestSchema: GenMessage<StartJobRequest>;
/**
 * Request of GetJob.
 *
 * @generated from message adas.v1.GetJobRequest
 */
export type GetJobRequest = Message<"adas.v1.GetJobRequest"> & {
    /**
     * Job name, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.GetJobRequest.
 * Use `create(GetJobRequestSchema)` to create a new message.
 */
export declare const GetJobRequestSchema: GenMessage<GetJobRequest>;
/**
 * Request of ListJobs.
 *
 * @generated from message adas.v1.ListJobsRequest
 */
export type ListJobsRequest = Message<"adas.v1.ListJobsRequest"> & {
    /**
     * Skill whose jobs to list, `skills/{slag}`, or `skills/-` for the jobs of
     * every skill of the caller's tenant (AIP-159), newest first.
     *
     * @generated from field: string parent = 1;
     */
    parent: string;
    /**
     * Only jobs in this status; UNSPECIFIED means all. With PAUSED on one
     * skill in the default order, the jobs come in the order they paused
     * (ListWaiting's order), not by creation.
     *
     * @generated from field: adas.v1.JobStatus status = 2;
     */
    status: JobStatus;
    /**
     * Maximum jobs to return; 0 means 50, values above 1000 are capped. A page
     * may hold fewer jobs than asked when many are filtered out; only an empty
     * `next_page_token` ends the list.
     *
     * @generated from field: int32 page_size = 3;
     */
    pageSize: number;
    /**
     * Token from a previous response (of the same parent and order).
     *
     * @generated from field: string page_token = 4;
     */
    pageToken: string;
    /**
     * Only jobs with this outcome; UNSPECIFIED means any.
     *
     * @generated from field: adas.v1.OutcomeClass outcome_class = 5;
     */
    outcomeClass: OutcomeClass;
    /**
     * Only jobs started by this principal (`Job.owner`); empty means anyone's.
     *
     * @generated from field: string owner = 6;
     */
    owner: string;
    /**
     * Only jobs created at or after this time; unset means any time.
     *
     * @generated from field: google.protobuf.Timestamp create_time_after = 7;
     */
    createTimeAfter?: Timestamp | undefined;
    /**
     * `create_time` (oldest first; the default of one skill) or
     * `create_time desc` (newest first; the default and only order of
     * `skills/-`). Anything else is INVALID_ARGUMENT.
     *
     * @generated from field: string order_by = 8;
     */
    orderBy: string;
};
/**
 * Describes the message adas.v1.ListJobsRequest.
 * Use `create(ListJobsRequestSchema)` to create a new message.
 */
export declare const ListJobsRequestSchema: GenMessage<ListJobsRequest>;
/**
 * Response of ListJobs.
 *
 * @generated from message adas.v1.ListJobsResponse
 */
export type ListJobsResponse = Message<"adas.v1.ListJobsResponse"> & {
    /**
     * The jobs, in the request's order.
     *
     * @generated from field: repeated adas.v1.Job jobs = 1;
     */
    jobs: Job[];
    /**
     * Token for the next page; empty on the last page.
     *
     * @generated from field: string next_page_token = 2;
     */
    nextPageToken: string;
};
/**
 * Describes the message adas.v1.ListJobsResponse.
 * Use `create(ListJobsResponseSchema)` to create a new message.
 */
export declare const ListJobsResponseSchema: GenMessage<ListJobsResponse>;
/**
 * Request of WatchJob.
 *
 * @generated from message adas.v1.WatchJobRequest
 */
export type WatchJobRequest = Message<"adas.v1.WatchJobRequest"> & {
    /**
     * Job name, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * Stream events after this id; empty streams from the first event. A client
     * that reconnects with its last event id misses nothing.
     *
     * @generated from field: string after_event_id = 2;
     */
    afterEventId: string;
};
/**
 * Describes the message adas.v1.WatchJobRequest.
 * Use `create(WatchJobRequestSchema)` to create a new message.
 */
export declare const WatchJobRequestSchema: GenMessage<WatchJobRequest>;
/**
 * Request of CancelJob.
 *
 * @generated from message adas.v1.CancelJobRequest
 */
export type CancelJobRequest = Message<"adas.v1.CancelJobRequest"> & {
    /**
     * Job name, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * Why, recorded in the job's events and audit (at most 4 KiB).
     *
     * @generated from field: string reason = 2;
     */
    reason: string;
    /**
     * Idempotency key.
     *
     * @generated from field: string request_id = 3;
     */
    requestId: string;
};
/**
 * Describes the message adas.v1.CancelJobRequest.
 * Use `create(CancelJobRequestSchema)` to create a new message.
 */
export declare const CancelJobRequestSchema: GenMessage<CancelJobRequest>;
/**
 * Request of RetryJob. Idempotent by itself: a job is retried once.
 *
 * @generated from message adas.v1.RetryJobRequest
 */
export type RetryJobRequest = Message<"adas.v1.RetryJobRequest"> & {
    /**
     * The job to run again, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.RetryJobRequest.
 * Use `create(RetryJobRequestSchema)` to create a new message.
 */
export declare const RetryJobRequestSchema: GenMessage<RetryJobRequest>;
/**
 * Owns the job lifecycle: queue, workers, iteration budget, loop breaking,
 * tool execution and the event log.
 *
 * @generated from service adas.v1.OrchestratorService
 */
export declare const OrchestratorService: GenService<{
    /**
     * Starts a job: bootstraps the skill, validates resources, stores and queues it.
     * A repeated `request_id` returns the first job.
     *
     * @generated from rpc adas.v1.OrchestratorService.StartJob
     */
    startJob: {
        methodKind: "unary";
        input: typeof StartJobRequestSchema;
        output: typeof JobSchema;
    };
    /**
     * Returns a job.
     *
     * @generated from rpc adas.v1.OrchestratorService.GetJob
     */
    getJob: {
        methodKind: "unary";
        input: typeof GetJobRequestSchema;
        output: typeof JobSchema;
    };
    /**
     * Lists the jobs of a skill (oldest first unless `order_by` says
     * otherwise), or of every skill the caller may read (`skills/-`, newest
     * first), filtered by status, outcome, owner and creation time. A skill
     * the tenant has neither stored nor a template of, with no kept jobs, is
     * NOT_FOUND.
     *
     * @generated from rpc adas.v1.OrchestratorService.ListJobs
     */
    listJobs: {
        methodKind: "unary";
        input: typeof ListJobsRequestSchema;
        output: typeof ListJobsResponseSchema;
    };
    /**
     * Streams a job's events from a given point; ends when the job ends, with
     * the call's status right after the event that ends the job. Read the
     * stream to that end rather than dropping it at the event: a dropped stream
     * is reset, and an HTTP/2 client that has forgotten a reset stream when its
     * last frame arrives may count it as an error (hyper's h2 closes the
     * connection after 1,024).
     *
     * @generated from rpc adas.v1.OrchestratorService.WatchJob
     */
    watchJob: {
        methodKind: "server_streaming";
        input: typeof WatchJobRequestSchema;
        output: typeof JobEventSchema;
    };
    /**
     * Cancels a job that has not ended.
     *
     * @generated from rpc adas.v1.OrchestratorService.CancelJob
     */
    cancelJob: {
        methodKind: "unary";
        input: typeof CancelJobRequestSchema;
        output: typeof JobSchema;
    };
    /**
     * Runs a failed job, or one handed to a human (cancelled once the new job
     * stands), again as a new job of the same owner (with the roles and claims
     * it started with, whoever asks): the same skill, goal, the context the
     * client gave and resources, continuing the same conversation (a
     * solution's turn is started again on the solution instead:
     * FAILED_PRECONDITION). The new job's `retry_of` names the old one and the
     * old one's `retried_by` the new one. A job is retried once: asking again
     * returns the same new job (retry the new one if it fails too). Its owner,
     * or an operator or admin of its tenant, may ask (PERMISSION_DENIED
     * otherwise); any other state is FAILED_PRECONDITION.
     *
     * @generated from rpc adas.v1.OrchestratorService.RetryJob
     */
    retryJob: {
        methodKind: "unary";
        input: typeof RetryJobRequestSchema;
        output: typeof JobSchema;
    };
    /**
     * Returns who the call is authenticated as: the principal's name, tenant
     * and roles (what a console or CLI shows as "signed in as"). Any
     * authenticated caller may ask; it reads nothing stored.
     *
     * @generated from rpc adas.v1.OrchestratorService.GetCaller
     */
    getCaller: {
        methodKind: "unary";
        input: typeof GetCallerRequestSchema;
        output: typeof CallerSchema;
    };
}>;
