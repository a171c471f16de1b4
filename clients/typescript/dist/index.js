// The TypeScript client of the ADAS gRPC API: the adas.v1 messages and
// service descriptors (generated into src/gen by clients/generate.sh), for
// @connectrpc/connect's createClient with any gRPC transport, the google.rpc
// messages every error's details are made of, and the hand-written helpers
// (helpers.ts: API key, waiting on a job, error details).
export * from "./gen/adas/v1/dal_agent_service_pb.js";
export * from "./gen/adas/v1/gate_pb.js";
export * from "./gen/adas/v1/gate_service_pb.js";
export * from "./gen/adas/v1/intent_service_pb.js";
export * from "./gen/adas/v1/job_pb.js";
export * from "./gen/adas/v1/orchestrator_service_pb.js";
export * from "./gen/adas/v1/skill_pb.js";
export * from "./gen/adas/v1/skill_registry_service_pb.js";
export * as rpc from "./gen/google/rpc/error_details_pb.js";
export * as rpcStatus from "./gen/google/rpc/status_pb.js";
export * as rpcCode from "./gen/google/rpc/code_pb.js";
export * from "./helpers.js";
