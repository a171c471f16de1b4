// The TypeScript client generated from proto/ (buf + protoc-gen-es) drives a
// whole job over gRPC (connect-node, gzip both ways): start, watch, answer,
// approve, list with paging, and error details decoded from google.rpc.Status.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { create } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { compressionGzip, createGrpcTransport } from "@connectrpc/connect-node";

import {
  ApprovalDecision,
  DalAgentService,
  GateService,
  type Job,
  JobEventType,
  JobStatus,
  OrchestratorService,
  OutcomeClass,
  errorDetails,
  rpc,
  waitUntilPausedOrDone,
} from "@adas/client";
import { adasUp, type Running } from "./suite.js";

let suite: Running;
let orchestrator: Client<typeof OrchestratorService>;
let dal: Client<typeof DalAgentService>;
let gate: Client<typeof GateService>;

before(async () => {
  suite = await adasUp();
  const transport = createGrpcTransport({
    baseUrl: `http://${suite.address}`,
    sendCompression: compressionGzip,
    acceptCompression: [compressionGzip],
  });
  orchestrator = createClient(OrchestratorService, transport);
  dal = createClient(DalAgentService, transport);
  gate = createClient(GateService, transport);
});

after(async () => {
  assert.equal(await suite.stop(), 0, "adas up exits 0 on SIGTERM");
});

/** Follows the job's events (WatchJob) until one satisfies `until`; the job then. */
async function watchUntil(job: Job, after: string, until: (type: JobEventType, status: JobStatus) => boolean) {
  const abort = new AbortController();
  let last = after;
  for await (const event of orchestrator.watchJob({ name: job.name, afterEventId: after }, { signal: abort.signal })) {
    assert.notEqual(event.type, JobEventType.UNSPECIFIED, "every event on the wire has a real type");
    last = event.eventId;
    if (until(event.type, event.status)) {
      abort.abort();
      break;
    }
  }
  return { job: await orchestrator.getJob({ name: job.name }), last };
}

// The job paused: its PAUSED event. (Every event of the write that paused it,
// and a refused answer's, also carries status PAUSED: stopping at one of those
// would leave the pause itself to be read as the next one.)
const paused = (type: JobEventType, _: JobStatus) => type === JobEventType.PAUSED;

test("a refund job from start to completion", async () => {
  let job = await orchestrator.startJob({ skill: "skills/cs-tier-1", goal: "I want a refund", requestId: "ts-refund-1" });
  assert.equal(job.slag, "cs-tier-1");
  // A retried StartJob with the same request id is the same job.
  const again = await orchestrator.startJob({ skill: "skills/cs-tier-1", goal: "I want a refund", requestId: "ts-refund-1" });
  assert.equal(again.name, job.name);

  let seen = await watchUntil(job, "", paused);
  job = seen.job;
  assert.equal(job.status, JobStatus.PAUSED);
  assert.equal(job.outcomeClass, OutcomeClass.USER_ACTION_REQUIRED);
  assert.deepEqual(job.waiting?.requestedFields, ["order_id"]);
  assert.equal(job.waiting?.reasonCode, "MISSING_REQUIRED_INPUT");

  await dal.submitInput({
    job: job.name,
    correlationId: job.waiting!.correlationId,
    fields: { order_id: create(ValueSchema, { kind: { case: "stringValue", value: "ORD-1" } }) },
  });
  seen = await watchUntil(job, seen.last, paused);
  job = seen.job;
  assert.deepEqual(job.waiting?.requestedFields, ["amount"]);
  // A refused answer is INVALID_ARGUMENT naming the field; the job still waits.
  const refused = await dal
    .submitInput({
      job: job.name,
      correlationId: job.waiting!.correlationId,
      fields: { amount: create(ValueSchema, { kind: { case: "stringValue", value: "lots" } }) },
    })
    .catch((error: unknown) => ConnectError.from(error));
  assert.ok(refused instanceof ConnectError);
  assert.equal(refused.code, Code.InvalidArgument);
  assert.equal(refused.findDetails(rpc.BadRequestSchema)[0]?.fieldViolations[0]?.field, "fields.amount");

  await dal.submitInput({
    job: job.name,
    correlationId: job.waiting!.correlationId,
    fields: { amount: create(ValueSchema, { kind: { case: "numberValue", value: 700 } }) },
  });
  seen = await watchUntil(job, seen.last, paused);
  job = seen.job;
  assert.equal(job.outcomeClass, OutcomeClass.APPROVAL_REQUIRED);
  const approval = job.waiting!.approval!;
  assert.equal(approval.tool, "process_refund");
  assert.equal(approval.arguments?.amount, 700);

  const decided = await gate.decideApproval({
    job: job.name,
    correlationId: job.waiting!.correlationId,
    decision: ApprovalDecision.APPROVE,
    comment: "from TypeScript",
  });
  assert.equal(decided.callDigest, approval.callDigest);
  seen = await watchUntil(job, seen.last, (_, status) => status === JobStatus.COMPLETED || status === JobStatus.FAILED);
  job = seen.job;
  assert.equal(job.status, JobStatus.COMPLETED, job.error?.message);
  assert.equal(job.outcomeClass, OutcomeClass.SUCCESS);
  assert.deepEqual(job.toolCalls.map((call) => call.tool), ["check_order_status", "process_refund"]);
});

test("jobs are listed page by page", async () => {
  for (const order of ["ORD-2", "ORD-3", "ORD-4"]) {
    await orchestrator.startJob({ skill: "skills/cs-tier-1", goal: `where is my order ${order}` });
  }
  const names: string[] = [];
  let pageToken = "";
  let pages = 0;
  do {
    const page = await orchestrator.listJobs({ parent: "skills/cs-tier-1", pageSize: 2, pageToken });
    assert.ok(page.jobs.length <= 2);
    names.push(...page.jobs.map((job) => job.name));
    pageToken = page.nextPageToken;
    pages += 1;
  } while (pageToken !== "");
  assert.ok(names.length >= 4, `${names.length} jobs listed`);
  assert.equal(new Set(names).size, names.length, "no job twice across pages");
  assert.ok(pages >= 2);
});

test("errors carry google.rpc details", async () => {
  const error = await orchestrator.getJob({ name: "not-a-job-name" }).catch((e: unknown) => ConnectError.from(e));
  assert.ok(error instanceof ConnectError);
  assert.equal(error.code, Code.InvalidArgument);
  const info = error.findDetails(rpc.ErrorInfoSchema)[0];
  assert.equal(info?.domain, "adas.dev");
  assert.ok(info?.reason);
  assert.equal(error.findDetails(rpc.BadRequestSchema)[0]?.fieldViolations[0]?.field, "name");

  const missing = await orchestrator
    .getJob({ name: "skills/cs-tier-1/jobs/nope" })
    .catch((e: unknown) => ConnectError.from(e));
  assert.equal((missing as ConnectError).code, Code.NotFound);
  assert.equal((missing as ConnectError).findDetails(rpc.ErrorInfoSchema)[0]?.domain, "adas.dev");
});

test("the package's helpers wait on a job and read an error's details", async () => {
  const job = await orchestrator.startJob({ skill: "skills/cs-tier-1", goal: "I want a refund" });
  const pause = await waitUntilPausedOrDone(orchestrator, job.name, { timeoutMs: 10_000 });
  assert.equal(pause.type, JobEventType.PAUSED);
  const cancelled = await orchestrator.cancelJob({ name: job.name, reason: "helpers test" });
  assert.equal(cancelled.status, JobStatus.CANCELLED);
  // Read after the pause: the job's end.
  const end = await waitUntilPausedOrDone(orchestrator, job.name, { afterEventId: pause.eventId, timeoutMs: 10_000 });
  assert.equal(end.type, JobEventType.CANCELLED);

  const refused = await orchestrator.getJob({ name: "not-a-job-name" }).catch((e: unknown) => e);
  const details = errorDetails(refused);
  assert.equal(details.fieldViolations[0]?.field, "name");
  assert.equal(details.errorInfo?.domain, "adas.dev");
});
