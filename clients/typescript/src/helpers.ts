// Hand-written helpers beside the generated code (src/gen is rewritten by
// clients/generate.sh, so nothing hand-written lives there): an API key on
// every call, waiting on a job's events, and the google.rpc details every
// error of the suite carries.
import { ConnectError, type CallOptions, type Client, type Interceptor } from "@connectrpc/connect";

import { type JobEvent, JobEventType, JobStatus } from "./gen/adas/v1/job_pb.js";
import type { OrchestratorService } from "./gen/adas/v1/orchestrator_service_pb.js";
import {
  type BadRequest_FieldViolation,
  BadRequestSchema,
  type ErrorInfo,
  ErrorInfoSchema,
  type RetryInfo,
  RetryInfoSchema,
} from "./gen/google/rpc/error_details_pb.js";

/**
 * Sends `authorization: Bearer <key>` on every call (how the suite reads an
 * API key): `createGrpcTransport({ baseUrl, interceptors: [apiKeyInterceptor(key)] })`.
 */
export function apiKeyInterceptor(key: string): Interceptor {
  const header = `Bearer ${key.trim()}`;
  return (next) => (request) => {
    request.header.set("authorization", header);
    return next(request);
  };
}

/** Where to start, and how long to wait. */
export interface WaitOptions {
  /** Read the events after this one; empty (the default) reads from the first. */
  afterEventId?: string;
  /** The call's deadline; DEADLINE_EXCEEDED after it. */
  timeoutMs?: number;
  /** Cancels the wait (CANCELED). */
  signal?: AbortSignal;
}

const ENDED = new Set([JobStatus.COMPLETED, JobStatus.FAILED, JobStatus.CANCELLED]);

/**
 * The first of job `name`'s events that satisfies `predicate`, or undefined
 * when the job ends without one. When the job has ended, the rest of the
 * stream is read to its end, as WatchJob's contract asks (a dropped stream is
 * reset, and the server's HTTP/2 closes a connection that resets too many);
 * a job still going has no end to read to, so that call is cancelled.
 */
export async function waitForJob(
  client: Pick<Client<typeof OrchestratorService>, "watchJob">,
  name: string,
  predicate: (event: JobEvent) => boolean,
  options: WaitOptions = {},
): Promise<JobEvent | undefined> {
  const abort = new AbortController();
  const stop = () => abort.abort(options.signal?.reason);
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener("abort", stop, { once: true });
  const call: CallOptions = { signal: abort.signal, timeoutMs: options.timeoutMs };
  let found: JobEvent | undefined;
  try {
    for await (const event of client.watchJob({ name, afterEventId: options.afterEventId ?? "" }, call)) {
      if (found !== undefined) continue; // the job ended: its status follows right after
      if (predicate(event)) {
        found = event;
        if (!ENDED.has(event.status)) {
          abort.abort();
          break;
        }
      }
    }
  } finally {
    options.signal?.removeEventListener("abort", stop);
  }
  return found;
}

const PAUSED_OR_DONE = new Set([
  JobEventType.PAUSED,
  JobEventType.COMPLETED,
  JobEventType.FAILED,
  JobEventType.CANCELLED,
]);

/**
 * The job's next PAUSED, COMPLETED, FAILED or CANCELLED event. After
 * answering a pause, pass that event's `eventId` as `afterEventId` (from the
 * first event it is the same pause again). Types, not statuses: every event
 * of the write that paused a job says PAUSED.
 */
export async function waitUntilPausedOrDone(
  client: Pick<Client<typeof OrchestratorService>, "watchJob">,
  name: string,
  options: WaitOptions = {},
): Promise<JobEvent> {
  const event = await waitForJob(client, name, (event) => PAUSED_OR_DONE.has(event.type), options);
  // The server ends the stream only after the job's last event.
  if (event === undefined) throw new Error(`${name}: the event stream ended without a pause or an end`);
  return event;
}

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
export function errorDetails(error: unknown): ErrorDetails {
  const connectError = ConnectError.from(error);
  return {
    fieldViolations: connectError.findDetails(BadRequestSchema).flatMap((badRequest) => badRequest.fieldViolations),
    errorInfo: connectError.findDetails(ErrorInfoSchema)[0],
    retryInfo: connectError.findDetails(RetryInfoSchema)[0],
  };
}
