import { type Client, type Interceptor } from "@connectrpc/connect";
import { type JobEvent } from "./gen/adas/v1/job_pb.js";
import type { OrchestratorService } from "./gen/adas/v1/orchestrator_service_pb.js";
import { type BadRequest_FieldViolation, type ErrorInfo, type RetryInfo } from "./gen/google/rpc/error_details_pb.js";
/**
 * Sends `authorization: Bearer <key>` on every call (how the suite reads an
 * API key): `createGrpcTransport({ baseUrl, interceptors: [apiKeyInterceptor(key)] })`.
 */
export declare function apiKeyInterceptor(key: string): Interceptor;
/** Where to start, and how long to wait. */
export interface WaitOptions {
    /** Read the events after this one; empty (the default) reads from the first. */
    afterEventId?: string;
    /** The call's deadline; DEADLINE_EXCEEDED after it. */
    timeoutMs?: number;
    /** Cancels the wait (CANCELED). */
    signal?: AbortSignal;
}
/**
 * The first of job `name`'s events that satisfies `predicate`, or undefined
 * when the job ends without one. When the job has ended, the rest of the
 * stream is read to its end, as WatchJob's contract asks (a dropped stream is
 * reset, and the server's HTTP/2 closes a connection that resets too many);
 * a job still going has no end to read to, so that call is cancelled.
 */
export declare function waitForJob(client: Pick<Client<typeof OrchestratorService>, "watchJob">, name: string, predicate: (event: JobEvent) => boolean, options?: WaitOptions): Promise<JobEvent | undefined>;
/**
 * The job's next PAUSED, COMPLETED, FAILED or CANCELLED event. After
 * answering a pause, pass that event's `eventId` as `afterEventId` (from the
 * first event it is the same pause again). Types, not statuses: every event
 * of the write that paused a job says PAUSED.
 */
export declare function waitUntilPausedOrDone(client: Pick<Client<typeof OrchestratorService>, "watchJob">, name: string, options?: WaitOptions): Promise<JobEvent>;
/** The google.rpc details of a failed call (empty when it has none). */
export interface ErrorDetails {
    /** A refused request's fields (from every BadRequest), and why. */
    fieldViolations: BadRequest_FieldViolation[];
    /** The machine-readable reason (`reason`, `domain`, `metadata`). */
    errorInfo?: ErrorInfo;
    /** When to try again (rate limits, active-job quotas). */
    retryInfo?: RetryInfo;
}
/** The google.rpc details of `error` (any thrown value: ConnectError.from wraps it). */
export declare function errorDetails(error: unknown): ErrorDetails;
