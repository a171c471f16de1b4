import type { GenFile, GenMessage, GenService } from "@bufbuild/protobuf/codegenv2";
import type { Job, JobSchema, JobView, Waiting, WaitingSchema } from "./job_pb.js";
import type { Value } from "@bufbuild/protobuf/wkt";
import type { JsonObject, Message } from "@bufbuild/protobuf";
/**
 * Describes the file adas/v1/dal_agent_service.proto.
 */
export declare const file_adas_v1_dal_agent_service: GenFile;
/**
 * Request of ResolveNext.
 *
 * @generated from message adas.v1.ResolveNextRequest
 */
export type ResolveNextRequest = Message<"adas.v1.ResolveNextRequest"> & {
    /**
     * Job name, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string job = 1;
     */
    job: string;
    /**
     * The job version the caller holds; a newer stored version fails with ABORTED.
     *
     * @generated from field: int64 expected_version = 2;
     */
    expectedVersion: bigint;
    /**
     * How much of the job the response carries; UNSPECIFIED means FULL.
     *
     * @generated from field: adas.v1.JobView view = 3;
     */
    view: JobView;
};
/**
 * Describes the message adas.v1.ResolveNextRequest.
 * Use `create(ResolveNextRequestSchema)` to create a new message.
 */
export declare const ResolveNextRequestSchema: GenMessage<ResolveNextRequest>;
/**
 * Response of ResolveNext.
 *
 * @generated from message adas.v1.ResolveNextResponse
 */
export type ResolveNextResponse = Message<"adas.v1.ResolveNextResponse"> & {
    /**
     * What the job does next.
     *
     * @generated from oneof adas.v1.ResolveNextResponse.next
     */
    next: {
        /**
         * A call whose inputs are all present: gate it, then run it.
         *
         * @generated from field: adas.v1.NextCall call = 1;
         */
        value: NextCall;
        case: "call";
    } | {
        /**
         * The job was paused; the job's `waiting` says for what.
         *
         * @generated from field: adas.v1.Waiting waiting = 2;
         */
        value: Waiting;
        case: "waiting";
    } | {
        /**
         * Every call of the plan has been evaluated.
         *
         * @generated from field: adas.v1.PlanDone done = 3;
         */
        value: PlanDone;
        case: "done";
    } | {
        /**
         * The plan was aborted by the user's answer.
         *
         * @generated from field: adas.v1.PlanAborted aborted = 4;
         */
        value: PlanAborted;
        case: "aborted";
    } | {
        case: undefined;
        value?: undefined;
    };
    /**
     * The job after resolution.
     *
     * @generated from field: adas.v1.Job job = 5;
     */
    job?: Job | undefined;
};
/**
 * Describes the message adas.v1.ResolveNextResponse.
 * Use `create(ResolveNextResponseSchema)` to create a new message.
 */
export declare const ResolveNextResponseSchema: GenMessage<ResolveNextResponse>;
/**
 * A fully resolved tool call.
 *
 * @generated from message adas.v1.NextCall
 */
export type NextCall = Message<"adas.v1.NextCall"> & {
    /**
     * Tool name.
     *
     * @generated from field: string tool = 1;
     */
    tool: string;
    /**
     * Arguments, every required input present.
     *
     * @generated from field: google.protobuf.Struct arguments = 2;
     */
    arguments?: JsonObject | undefined;
    /**
     * Path of the call in the plan tree.
     *
     * @generated from field: string call_path = 3;
     */
    callPath: string;
};
/**
 * Describes the message adas.v1.NextCall.
 * Use `create(NextCallSchema)` to create a new message.
 */
export declare const NextCallSchema: GenMessage<NextCall>;
/**
 * The plan finished.
 *
 * @generated from message adas.v1.PlanDone
 */
export type PlanDone = Message<"adas.v1.PlanDone"> & {
    /**
     * Value of the last call.
     *
     * @generated from field: google.protobuf.Value value = 1;
     */
    value?: Value | undefined;
};
/**
 * Describes the message adas.v1.PlanDone.
 * Use `create(PlanDoneSchema)` to create a new message.
 */
export declare const PlanDoneSchema: GenMessage<PlanDone>;
/**
 * The plan was aborted.
 *
 * @generated from message adas.v1.PlanAborted
 */
export type PlanAborted = Message<"adas.v1.PlanAborted"> & {
    /**
     * Why.
     *
     * @generated from field: string reason = 1;
     */
    reason: string;
    /**
     * New plan to run instead, as DIA text (ABORT_WITH_NEW_INTENTS); empty for a plain abort.
     *
     * @generated from field: string replacement_program = 2;
     */
    replacementProgram: string;
};
/**
 * Describes the message adas.v1.PlanAborted.
 * Use `create(PlanAbortedSchema)` to create a new message.
 */
export declare const PlanAbortedSchema: GenMessage<PlanAborted>;
/**
 * Request of SubmitInput. Only the principal that started the job (or an
 * operator of its tenant) may answer; the audit trail records that principal.
 *
 * @generated from message adas.v1.SubmitInputRequest
 */
export type SubmitInputRequest = Message<"adas.v1.SubmitInputRequest"> & {
    /**
     * Job name, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string job = 1;
     */
    job: string;
    /**
     * The `waiting.correlation_id` being answered.
     *
     * @generated from field: string correlation_id = 2;
     */
    correlationId: string;
    /**
     * Answers by requested field name.
     *
     * @generated from field: map<string, google.protobuf.Value> fields = 3;
     */
    fields: {
        [key: string]: Value;
    };
    /**
     * Idempotency key.
     *
     * @generated from field: string request_id = 5;
     */
    requestId: string;
};
/**
 * Describes the message adas.v1.SubmitInputRequest.
 * Use `create(SubmitInputRequestSchema)` to create a new message.
 */
export declare const SubmitInputRequestSchema: GenMessage<SubmitInputRequest>;
/**
 * Request of GetWaiting.
 *
 * @generated from message adas.v1.GetWaitingRequest
 */
export type GetWaitingRequest = Message<"adas.v1.GetWaitingRequest"> & {
    /**
     * Job name, `skills/{slag}/jobs/{job_id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.GetWaitingRequest.
 * Use `create(GetWaitingRequestSchema)` to create a new message.
 */
export declare const GetWaitingRequestSchema: GenMessage<GetWaitingRequest>;
/**
 * Request of ListWaiting.
 *
 * @generated from message adas.v1.ListWaitingRequest
 */
export type ListWaitingRequest = Message<"adas.v1.ListWaitingRequest"> & {
    /**
     * Skill whose paused jobs to list, `skills/{slag}`.
     *
     * @generated from field: string parent = 1;
     */
    parent: string;
    /**
     * Maximum entries to return; 0 means 50, values above 1000 are capped.
     *
     * @generated from field: int32 page_size = 2;
     */
    pageSize: number;
    /**
     * Token from a previous response.
     *
     * @generated from field: string page_token = 3;
     */
    pageToken: string;
};
/**
 * Describes the message adas.v1.ListWaitingRequest.
 * Use `create(ListWaitingRequestSchema)` to create a new message.
 */
export declare const ListWaitingRequestSchema: GenMessage<ListWaitingRequest>;
/**
 * Response of ListWaiting.
 *
 * @generated from message adas.v1.ListWaitingResponse
 */
export type ListWaitingResponse = Message<"adas.v1.ListWaitingResponse"> & {
    /**
     * The paused jobs with their waiting objects.
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
 * Describes the message adas.v1.ListWaitingResponse.
 * Use `create(ListWaitingResponseSchema)` to create a new message.
 */
export declare const ListWaitingResponseSchema: GenMessage<ListWaitingResponse>;
/**
 * Owns user-input requirements: detects missing inputs before a tool runs,
 * pauses the job with the waiting contract, deduplicates asks and validates resumes.
 *
 * @generated from service adas.v1.DalAgentService
 */
export declare const DalAgentService: GenService<{
    /**
     * Finds the next call of a job's plan; pauses the job if a required input is missing.
     *
     * @generated from rpc adas.v1.DalAgentService.ResolveNext
     */
    resolveNext: {
        methodKind: "unary";
        input: typeof ResolveNextRequestSchema;
        output: typeof ResolveNextResponseSchema;
    };
    /**
     * Validates a user's answer to a waiting ask, fills the slots and re-queues the job.
     *
     * @generated from rpc adas.v1.DalAgentService.SubmitInput
     */
    submitInput: {
        methodKind: "unary";
        input: typeof SubmitInputRequestSchema;
        output: typeof JobSchema;
    };
    /**
     * Returns what a paused job waits for.
     *
     * @generated from rpc adas.v1.DalAgentService.GetWaiting
     */
    getWaiting: {
        methodKind: "unary";
        input: typeof GetWaitingRequestSchema;
        output: typeof WaitingSchema;
    };
    /**
     * Lists the paused jobs of a skill, oldest ask first.
     *
     * @generated from rpc adas.v1.DalAgentService.ListWaiting
     */
    listWaiting: {
        methodKind: "unary";
        input: typeof ListWaitingRequestSchema;
        output: typeof ListWaitingResponseSchema;
    };
}>;
