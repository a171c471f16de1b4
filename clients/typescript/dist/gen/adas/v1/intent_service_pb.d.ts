import type { GenFile, GenMessage, GenService } from "@bufbuild/protobuf/codegenv2";
import type { Decider } from "./gate_pb.js";
import type { ToolCallRecord } from "./job_pb.js";
import type { Diagnostic } from "./skill_pb.js";
import type { Value } from "@bufbuild/protobuf/wkt";
import type { JsonObject, Message } from "@bufbuild/protobuf";
/**
 * Describes the file adas/v1/intent_service.proto.
 */
export declare const file_adas_v1_intent_service: GenFile;
/**
 * Request of DetectIntent.
 *
 * @generated from message adas.v1.DetectIntentRequest
 */
export type DetectIntentRequest = Message<"adas.v1.DetectIntentRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string skill = 1;
     */
    skill: string;
    /**
     * The user message.
     *
     * @generated from field: string message = 2;
     */
    message: string;
    /**
     * Known facts that may resolve references in the message.
     *
     * @generated from field: google.protobuf.Struct context = 3;
     */
    context?: JsonObject | undefined;
};
/**
 * Describes the message adas.v1.DetectIntentRequest.
 * Use `create(DetectIntentRequestSchema)` to create a new message.
 */
export declare const DetectIntentRequestSchema: GenMessage<DetectIntentRequest>;
/**
 * Response of DetectIntent.
 *
 * @generated from message adas.v1.DetectIntentResponse
 */
export type DetectIntentResponse = Message<"adas.v1.DetectIntentResponse"> & {
    /**
     * The best intent id; empty when out of domain.
     *
     * @generated from field: string intent_id = 1;
     */
    intentId: string;
    /**
     * Score of the best intent in [0, 1].
     *
     * @generated from field: double confidence = 2;
     */
    confidence: number;
    /**
     * Entities extracted for the intent.
     *
     * @generated from field: repeated adas.v1.Entity entities = 3;
     */
    entities: Entity[];
    /**
     * Set when the message is out of domain.
     *
     * @generated from field: adas.v1.OutOfDomain out_of_domain = 4;
     */
    outOfDomain?: OutOfDomain | undefined;
    /**
     * Other intents considered, best first.
     *
     * @generated from field: repeated adas.v1.IntentCandidate candidates = 5;
     */
    candidates: IntentCandidate[];
    /**
     * How far the best intent's score leads the next candidate's.
     *
     * @generated from field: double margin = 6;
     */
    margin: number;
    /**
     * Whether the best intent may be acted on without asking (its score reached
     * the accept threshold with the margin); otherwise a job asks which intent
     * was meant.
     *
     * @generated from field: bool confident = 7;
     */
    confident: boolean;
};
/**
 * Describes the message adas.v1.DetectIntentResponse.
 * Use `create(DetectIntentResponseSchema)` to create a new message.
 */
export declare const DetectIntentResponseSchema: GenMessage<DetectIntentResponse>;
/**
 * An entity found in a message.
 *
 * @generated from message adas.v1.Entity
 */
export type Entity = Message<"adas.v1.Entity"> & {
    /**
     * Entity name from the intent's `entities`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * Its type: string, email, phone, number, integer, money, date, boolean, enum, identifier.
     *
     * @generated from field: string type = 2;
     */
    type: string;
    /**
     * The typed value.
     *
     * @generated from field: google.protobuf.Value value = 3;
     */
    value?: Value | undefined;
    /**
     * The text it was read from.
     *
     * @generated from field: string text = 4;
     */
    text: string;
    /**
     * Byte offset of `text` in the message.
     *
     * @generated from field: int32 start = 5;
     */
    start: number;
    /**
     * Byte offset just past `text`.
     *
     * @generated from field: int32 end = 6;
     */
    end: number;
    /**
     * Placed by its position in the message rather than matched by type,
     * pattern, enum or name: not evidence enough for a side-effecting call.
     *
     * @generated from field: bool guessed = 7;
     */
    guessed: boolean;
};
/**
 * Describes the message adas.v1.Entity.
 * Use `create(EntitySchema)` to create a new message.
 */
export declare const EntitySchema: GenMessage<Entity>;
/**
 * The skill's out-of-domain handling.
 *
 * @generated from message adas.v1.OutOfDomain
 */
export type OutOfDomain = Message<"adas.v1.OutOfDomain"> & {
    /**
     * The skill's `out_of_domain.action`, e.g. `redirect`.
     *
     * @generated from field: string action = 1;
     */
    action: string;
    /**
     * The skill's `out_of_domain.message`.
     *
     * @generated from field: string message = 2;
     */
    message: string;
};
/**
 * Describes the message adas.v1.OutOfDomain.
 * Use `create(OutOfDomainSchema)` to create a new message.
 */
export declare const OutOfDomainSchema: GenMessage<OutOfDomain>;
/**
 * An intent and its score.
 *
 * @generated from message adas.v1.IntentCandidate
 */
export type IntentCandidate = Message<"adas.v1.IntentCandidate"> & {
    /**
     * Intent id.
     *
     * @generated from field: string intent_id = 1;
     */
    intentId: string;
    /**
     * Score in [0, 1].
     *
     * @generated from field: double score = 2;
     */
    score: number;
};
/**
 * Describes the message adas.v1.IntentCandidate.
 * Use `create(IntentCandidateSchema)` to create a new message.
 */
export declare const IntentCandidateSchema: GenMessage<IntentCandidate>;
/**
 * Request of Plan.
 *
 * @generated from message adas.v1.PlanRequest
 */
export type PlanRequest = Message<"adas.v1.PlanRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string skill = 1;
     */
    skill: string;
    /**
     * The user message to plan for.
     *
     * @generated from field: string message = 2;
     */
    message: string;
    /**
     * Facts that fill arguments by input name.
     *
     * @generated from field: google.protobuf.Struct context = 3;
     */
    context?: JsonObject | undefined;
    /**
     * The job being planned, `skills/{slag}/jobs/{job_id}`, when planning inside a job.
     * A model plans only for the suite's own steps of a job, within the job's
     * budget (read from the job, never from a request); any other plan is the
     * deterministic planner's.
     *
     * @generated from field: string job = 4;
     */
    job: string;
    /**
     * The intent the user chose (a clarification's answer): detection is skipped.
     *
     * @generated from field: string intent_id = 5;
     */
    intentId: string;
    /**
     * Plan only what comes next after `history` (`engine.loop: rv2`, or a replan
     * after a failed finalization), not the whole job. Without a model the
     * answer is always `done`.
     *
     * @generated from field: bool next_only = 6;
     */
    nextOnly: boolean;
    /**
     * The calls the job made so far, in order (with `next_only`).
     *
     * @generated from field: repeated adas.v1.ToolCallRecord history = 7;
     */
    history: ToolCallRecord[];
    /**
     * Why the last draft reply did not pass finalization (a replan).
     *
     * @generated from field: string feedback = 8;
     */
    feedback: string;
    /**
     * What the conversation's earlier turns hold, by input name: it fills an
     * input the message leaves open; a value the message names wins.
     *
     * @generated from field: google.protobuf.Struct conversation = 10;
     */
    conversation?: JsonObject | undefined;
    /**
     * The intent of the conversation's previous turn: a follow-up that names no
     * intent of its own ("and downtown?", "cancel it") continues it.
     *
     * @generated from field: string previous_intent_id = 11;
     */
    previousIntentId: string;
};
/**
 * Describes the message adas.v1.PlanRequest.
 * Use `create(PlanRequestSchema)` to create a new message.
 */
export declare const PlanRequestSchema: GenMessage<PlanRequest>;
/**
 * Response of Plan.
 *
 * @generated from message adas.v1.PlanResponse
 */
export type PlanResponse = Message<"adas.v1.PlanResponse"> & {
    /**
     * The plan as DIA text; empty when out of domain.
     *
     * @generated from field: string program = 1;
     */
    program: string;
    /**
     * The detected intent.
     *
     * @generated from field: adas.v1.DetectIntentResponse intent = 2;
     */
    intent?: DetectIntentResponse | undefined;
    /**
     * Workflow the plan follows, if any.
     *
     * @generated from field: string workflow = 3;
     */
    workflow: string;
    /**
     * Every value read from the message for the plan's calls — the intent's
     * entities and any tool input whose type, pattern or enum a value matched —
     * each marked matched or guessed.
     *
     * @generated from field: repeated adas.v1.Entity facts = 4;
     */
    facts: Entity[];
    /**
     * Who planned, and what it cost.
     *
     * @generated from field: adas.v1.Decider decider = 5;
     */
    decider?: Decider | undefined;
    /**
     * With `next_only`: nothing more to call.
     *
     * @generated from field: bool done = 6;
     */
    done: boolean;
};
/**
 * Describes the message adas.v1.PlanResponse.
 * Use `create(PlanResponseSchema)` to create a new message.
 */
export declare const PlanResponseSchema: GenMessage<PlanResponse>;
/**
 * Request of ParsePlan.
 *
 * @generated from message adas.v1.ParsePlanRequest
 */
export type ParsePlanRequest = Message<"adas.v1.ParsePlanRequest"> & {
    /**
     * DIA program text.
     *
     * @generated from field: string program = 1;
     */
    program: string;
};
/**
 * Describes the message adas.v1.ParsePlanRequest.
 * Use `create(ParsePlanRequestSchema)` to create a new message.
 */
export declare const ParsePlanRequestSchema: GenMessage<ParsePlanRequest>;
/**
 * Response of ParsePlan.
 *
 * @generated from message adas.v1.ParsePlanResponse
 */
export type ParsePlanResponse = Message<"adas.v1.ParsePlanResponse"> & {
    /**
     * The tree as JSON; empty when there are errors.
     *
     * @generated from field: string tree_json = 1;
     */
    treeJson: string;
    /**
     * The program printed back in canonical form.
     *
     * @generated from field: string canonical = 2;
     */
    canonical: string;
    /**
     * Parse errors with positions; empty when the program parses.
     *
     * @generated from field: repeated adas.v1.Diagnostic errors = 3;
     */
    errors: Diagnostic[];
};
/**
 * Describes the message adas.v1.ParsePlanResponse.
 * Use `create(ParsePlanResponseSchema)` to create a new message.
 */
export declare const ParsePlanResponseSchema: GenMessage<ParsePlanResponse>;
/**
 * Detects intent and entities in a user message and turns it into a plan (a DIA program).
 *
 * @generated from service adas.v1.IntentService
 */
export declare const IntentService: GenService<{
    /**
     * Detects the intent and entities of a message, or that it is out of domain.
     *
     * @generated from rpc adas.v1.IntentService.DetectIntent
     */
    detectIntent: {
        methodKind: "unary";
        input: typeof DetectIntentRequestSchema;
        output: typeof DetectIntentResponseSchema;
    };
    /**
     * Makes a plan for a message or a job's context.
     *
     * @generated from rpc adas.v1.IntentService.Plan
     */
    plan: {
        methodKind: "unary";
        input: typeof PlanRequestSchema;
        output: typeof PlanResponseSchema;
    };
    /**
     * Parses a DIA program into its tree, or returns positioned errors.
     *
     * @generated from rpc adas.v1.IntentService.ParsePlan
     */
    parsePlan: {
        methodKind: "unary";
        input: typeof ParsePlanRequestSchema;
        output: typeof ParsePlanResponseSchema;
    };
}>;
