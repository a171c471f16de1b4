import type { GenFile, GenMessage, GenService } from "@bufbuild/protobuf/codegenv2";
import type { Diagnostic, Skill, SkillFormat, SkillSchema, Template, ToolSpec } from "./skill_pb.js";
import type { Message } from "@bufbuild/protobuf";
/**
 * Describes the file adas/v1/skill_registry_service.proto.
 */
export declare const file_adas_v1_skill_registry_service: GenFile;
/**
 * A solution: skills of one tenant working as one agent.
 *
 * @generated from message adas.v1.Solution
 */
export type Solution = Message<"adas.v1.Solution"> & {
    /**
     * Resource name, `solutions/{id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * The document text (the Skill Builder's `*.solution.json`, or YAML).
     *
     * @generated from field: string source = 2;
     */
    source: string;
    /**
     * Content digest; pass it back to PutSolution or DeleteSolution to refuse
     * overwriting a newer version.
     *
     * @generated from field: string etag = 3;
     */
    etag: string;
    /**
     * Its skills' slags.
     *
     * @generated from field: repeated string skills = 4;
     */
    skills: string[];
    /**
     * Warnings of the stored document.
     *
     * @generated from field: repeated adas.v1.Diagnostic diagnostics = 5;
     */
    diagnostics: Diagnostic[];
};
/**
 * Describes the message adas.v1.Solution.
 * Use `create(SolutionSchema)` to create a new message.
 */
export declare const SolutionSchema: GenMessage<Solution>;
/**
 * Request of PutSolution.
 *
 * @generated from message adas.v1.PutSolutionRequest
 */
export type PutSolutionRequest = Message<"adas.v1.PutSolutionRequest"> & {
    /**
     * Solution name, `solutions/{id}`; the document's `id` must match.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * The document text.
     *
     * @generated from field: string source = 2;
     */
    source: string;
    /**
     * When set, the write succeeds only if the stored solution still has this etag.
     *
     * @generated from field: string etag = 3;
     */
    etag: string;
};
/**
 * Describes the message adas.v1.PutSolutionRequest.
 * Use `create(PutSolutionRequestSchema)` to create a new message.
 */
export declare const PutSolutionRequestSchema: GenMessage<PutSolutionRequest>;
/**
 * Request of GetSolution.
 *
 * @generated from message adas.v1.GetSolutionRequest
 */
export type GetSolutionRequest = Message<"adas.v1.GetSolutionRequest"> & {
    /**
     * Solution name, `solutions/{id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.GetSolutionRequest.
 * Use `create(GetSolutionRequestSchema)` to create a new message.
 */
export declare const GetSolutionRequestSchema: GenMessage<GetSolutionRequest>;
/**
 * Request of ListSolutions.
 *
 * @generated from message adas.v1.ListSolutionsRequest
 */
export type ListSolutionsRequest = Message<"adas.v1.ListSolutionsRequest"> & {};
/**
 * Describes the message adas.v1.ListSolutionsRequest.
 * Use `create(ListSolutionsRequestSchema)` to create a new message.
 */
export declare const ListSolutionsRequestSchema: GenMessage<ListSolutionsRequest>;
/**
 * Response of ListSolutions.
 *
 * @generated from message adas.v1.ListSolutionsResponse
 */
export type ListSolutionsResponse = Message<"adas.v1.ListSolutionsResponse"> & {
    /**
     * The solutions, by id.
     *
     * @generated from field: repeated adas.v1.Solution solutions = 1;
     */
    solutions: Solution[];
};
/**
 * Describes the message adas.v1.ListSolutionsResponse.
 * Use `create(ListSolutionsResponseSchema)` to create a new message.
 */
export declare const ListSolutionsResponseSchema: GenMessage<ListSolutionsResponse>;
/**
 * Request of DeleteSolution.
 *
 * @generated from message adas.v1.DeleteSolutionRequest
 */
export type DeleteSolutionRequest = Message<"adas.v1.DeleteSolutionRequest"> & {
    /**
     * Solution name, `solutions/{id}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * When set, the delete succeeds only if the stored solution still has this etag.
     *
     * @generated from field: string etag = 2;
     */
    etag: string;
};
/**
 * Describes the message adas.v1.DeleteSolutionRequest.
 * Use `create(DeleteSolutionRequestSchema)` to create a new message.
 */
export declare const DeleteSolutionRequestSchema: GenMessage<DeleteSolutionRequest>;
/**
 * Response of DeleteSolution.
 *
 * @generated from message adas.v1.DeleteSolutionResponse
 */
export type DeleteSolutionResponse = Message<"adas.v1.DeleteSolutionResponse"> & {
    /**
     * The deleted solution's name.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.DeleteSolutionResponse.
 * Use `create(DeleteSolutionResponseSchema)` to create a new message.
 */
export declare const DeleteSolutionResponseSchema: GenMessage<DeleteSolutionResponse>;
/**
 * A connection id mapped to an MCP server.
 *
 * @generated from message adas.v1.Connector
 */
export type Connector = Message<"adas.v1.Connector"> & {
    /**
     * Resource name, `connectors/{connector}` (`connectors/gcal-mcp`).
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * The server, `http(s)://…` or `stdio:NAME`.
     *
     * @generated from field: string url = 2;
     */
    url: string;
    /**
     * Set by the deployment (`--connector`) for every tenant, not by PutConnector.
     *
     * @generated from field: bool deployment = 3;
     */
    deployment: boolean;
};
/**
 * Describes the message adas.v1.Connector.
 * Use `create(ConnectorSchema)` to create a new message.
 */
export declare const ConnectorSchema: GenMessage<Connector>;
/**
 * Request of PutConnector.
 *
 * @generated from message adas.v1.PutConnectorRequest
 */
export type PutConnectorRequest = Message<"adas.v1.PutConnectorRequest"> & {
    /**
     * The connector, with `name` and `url`.
     *
     * @generated from field: adas.v1.Connector connector = 1;
     */
    connector?: Connector | undefined;
};
/**
 * Describes the message adas.v1.PutConnectorRequest.
 * Use `create(PutConnectorRequestSchema)` to create a new message.
 */
export declare const PutConnectorRequestSchema: GenMessage<PutConnectorRequest>;
/**
 * Request of GetConnector.
 *
 * @generated from message adas.v1.GetConnectorRequest
 */
export type GetConnectorRequest = Message<"adas.v1.GetConnectorRequest"> & {
    /**
     * Connector name, `connectors/{connector}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.GetConnectorRequest.
 * Use `create(GetConnectorRequestSchema)` to create a new message.
 */
export declare const GetConnectorRequestSchema: GenMessage<GetConnectorRequest>;
/**
 * Request of ListConnectors.
 *
 * @generated from message adas.v1.ListConnectorsRequest
 */
export type ListConnectorsRequest = Message<"adas.v1.ListConnectorsRequest"> & {};
/**
 * Describes the message adas.v1.ListConnectorsRequest.
 * Use `create(ListConnectorsRequestSchema)` to create a new message.
 */
export declare const ListConnectorsRequestSchema: GenMessage<ListConnectorsRequest>;
/**
 * Response of ListConnectors.
 *
 * @generated from message adas.v1.ListConnectorsResponse
 */
export type ListConnectorsResponse = Message<"adas.v1.ListConnectorsResponse"> & {
    /**
     * The connectors, by name.
     *
     * @generated from field: repeated adas.v1.Connector connectors = 1;
     */
    connectors: Connector[];
};
/**
 * Describes the message adas.v1.ListConnectorsResponse.
 * Use `create(ListConnectorsResponseSchema)` to create a new message.
 */
export declare const ListConnectorsResponseSchema: GenMessage<ListConnectorsResponse>;
/**
 * Request of DeleteConnector.
 *
 * @generated from message adas.v1.DeleteConnectorRequest
 */
export type DeleteConnectorRequest = Message<"adas.v1.DeleteConnectorRequest"> & {
    /**
     * Connector name, `connectors/{connector}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.DeleteConnectorRequest.
 * Use `create(DeleteConnectorRequestSchema)` to create a new message.
 */
export declare const DeleteConnectorRequestSchema: GenMessage<DeleteConnectorRequest>;
/**
 * Response of DeleteConnector.
 *
 * @generated from message adas.v1.DeleteConnectorResponse
 */
export type DeleteConnectorResponse = Message<"adas.v1.DeleteConnectorResponse"> & {
    /**
     * The deleted connector's name.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.DeleteConnectorResponse.
 * Use `create(DeleteConnectorResponseSchema)` to create a new message.
 */
export declare const DeleteConnectorResponseSchema: GenMessage<DeleteConnectorResponse>;
/**
 * Request of GetSkill.
 *
 * @generated from message adas.v1.GetSkillRequest
 */
export type GetSkillRequest = Message<"adas.v1.GetSkillRequest"> & {
    /**
     * Skill name, `skills/{slag}`. A bare slag is accepted; empty means the default `sw-dev-agent`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.GetSkillRequest.
 * Use `create(GetSkillRequestSchema)` to create a new message.
 */
export declare const GetSkillRequestSchema: GenMessage<GetSkillRequest>;
/**
 * Request of ListSkills.
 *
 * @generated from message adas.v1.ListSkillsRequest
 */
export type ListSkillsRequest = Message<"adas.v1.ListSkillsRequest"> & {
    /**
     * Maximum skills to return; 0 means 50, values above 1000 are capped.
     *
     * @generated from field: int32 page_size = 1;
     */
    pageSize: number;
    /**
     * Token from a previous response's `next_page_token`.
     *
     * @generated from field: string page_token = 2;
     */
    pageToken: string;
};
/**
 * Describes the message adas.v1.ListSkillsRequest.
 * Use `create(ListSkillsRequestSchema)` to create a new message.
 */
export declare const ListSkillsRequestSchema: GenMessage<ListSkillsRequest>;
/**
 * Response of ListSkills.
 *
 * @generated from message adas.v1.ListSkillsResponse
 */
export type ListSkillsResponse = Message<"adas.v1.ListSkillsResponse"> & {
    /**
     * The skills, ordered by slag.
     *
     * @generated from field: repeated adas.v1.Skill skills = 1;
     */
    skills: Skill[];
    /**
     * Token for the next page; empty on the last page.
     *
     * @generated from field: string next_page_token = 2;
     */
    nextPageToken: string;
};
/**
 * Describes the message adas.v1.ListSkillsResponse.
 * Use `create(ListSkillsResponseSchema)` to create a new message.
 */
export declare const ListSkillsResponseSchema: GenMessage<ListSkillsResponse>;
/**
 * Request of ValidateSkill.
 *
 * @generated from message adas.v1.ValidateSkillRequest
 */
export type ValidateSkillRequest = Message<"adas.v1.ValidateSkillRequest"> & {
    /**
     * The document text.
     *
     * @generated from field: string source = 1;
     */
    source: string;
    /**
     * Its format; UNSPECIFIED detects it from `file_name` and content.
     *
     * @generated from field: adas.v1.SkillFormat format = 2;
     */
    format: SkillFormat;
    /**
     * File name used in diagnostics and format detection, e.g. `cs-tier-1.yaml`.
     *
     * @generated from field: string file_name = 3;
     */
    fileName: string;
};
/**
 * Describes the message adas.v1.ValidateSkillRequest.
 * Use `create(ValidateSkillRequestSchema)` to create a new message.
 */
export declare const ValidateSkillRequestSchema: GenMessage<ValidateSkillRequest>;
/**
 * Response of ValidateSkill.
 *
 * @generated from message adas.v1.ValidateSkillResponse
 */
export type ValidateSkillResponse = Message<"adas.v1.ValidateSkillResponse"> & {
    /**
     * True when no diagnostic is an error.
     *
     * @generated from field: bool valid = 1;
     */
    valid: boolean;
    /**
     * Every diagnostic, in source order.
     *
     * @generated from field: repeated adas.v1.Diagnostic diagnostics = 2;
     */
    diagnostics: Diagnostic[];
};
/**
 * Describes the message adas.v1.ValidateSkillResponse.
 * Use `create(ValidateSkillResponseSchema)` to create a new message.
 */
export declare const ValidateSkillResponseSchema: GenMessage<ValidateSkillResponse>;
/**
 * Request of PutSkill.
 *
 * @generated from message adas.v1.PutSkillRequest
 */
export type PutSkillRequest = Message<"adas.v1.PutSkillRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * The document text.
     *
     * @generated from field: string source = 2;
     */
    source: string;
    /**
     * Its format; UNSPECIFIED detects it from the content.
     *
     * @generated from field: adas.v1.SkillFormat format = 3;
     */
    format: SkillFormat;
    /**
     * When set, the write succeeds only if the stored skill still has this etag.
     *
     * @generated from field: string etag = 4;
     */
    etag: string;
    /**
     * Idempotency key: a repeated request with the same id returns the first result.
     *
     * @generated from field: string request_id = 5;
     */
    requestId: string;
};
/**
 * Describes the message adas.v1.PutSkillRequest.
 * Use `create(PutSkillRequestSchema)` to create a new message.
 */
export declare const PutSkillRequestSchema: GenMessage<PutSkillRequest>;
/**
 * Request of DeleteSkill.
 *
 * @generated from message adas.v1.DeleteSkillRequest
 */
export type DeleteSkillRequest = Message<"adas.v1.DeleteSkillRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * When set, the delete succeeds only if the stored skill still has this etag.
     *
     * @generated from field: string etag = 2;
     */
    etag: string;
};
/**
 * Describes the message adas.v1.DeleteSkillRequest.
 * Use `create(DeleteSkillRequestSchema)` to create a new message.
 */
export declare const DeleteSkillRequestSchema: GenMessage<DeleteSkillRequest>;
/**
 * Response of DeleteSkill.
 *
 * @generated from message adas.v1.DeleteSkillResponse
 */
export type DeleteSkillResponse = Message<"adas.v1.DeleteSkillResponse"> & {
    /**
     * The deleted skill's name.
     *
     * @generated from field: string name = 1;
     */
    name: string;
};
/**
 * Describes the message adas.v1.DeleteSkillResponse.
 * Use `create(DeleteSkillResponseSchema)` to create a new message.
 */
export declare const DeleteSkillResponseSchema: GenMessage<DeleteSkillResponse>;
/**
 * Request of BootstrapSkill.
 *
 * @generated from message adas.v1.BootstrapSkillRequest
 */
export type BootstrapSkillRequest = Message<"adas.v1.BootstrapSkillRequest"> & {
    /**
     * Slag to create.
     *
     * @generated from field: string slag = 1;
     */
    slag: string;
    /**
     * Template slag to copy; empty means the template named like `slag` (for the
     * default slag only, the minimal skill when it has no template).
     *
     * @generated from field: string template = 2;
     */
    template: string;
    /**
     * Idempotency key.
     *
     * @generated from field: string request_id = 3;
     */
    requestId: string;
};
/**
 * Describes the message adas.v1.BootstrapSkillRequest.
 * Use `create(BootstrapSkillRequestSchema)` to create a new message.
 */
export declare const BootstrapSkillRequestSchema: GenMessage<BootstrapSkillRequest>;
/**
 * Request of ListTemplates.
 *
 * @generated from message adas.v1.ListTemplatesRequest
 */
export type ListTemplatesRequest = Message<"adas.v1.ListTemplatesRequest"> & {
    /**
     * Maximum templates to return; 0 means 50.
     *
     * @generated from field: int32 page_size = 1;
     */
    pageSize: number;
    /**
     * Token from a previous response.
     *
     * @generated from field: string page_token = 2;
     */
    pageToken: string;
};
/**
 * Describes the message adas.v1.ListTemplatesRequest.
 * Use `create(ListTemplatesRequestSchema)` to create a new message.
 */
export declare const ListTemplatesRequestSchema: GenMessage<ListTemplatesRequest>;
/**
 * Response of ListTemplates.
 *
 * @generated from message adas.v1.ListTemplatesResponse
 */
export type ListTemplatesResponse = Message<"adas.v1.ListTemplatesResponse"> & {
    /**
     * The templates, ordered by slag.
     *
     * @generated from field: repeated adas.v1.Template templates = 1;
     */
    templates: Template[];
    /**
     * Token for the next page; empty on the last page.
     *
     * @generated from field: string next_page_token = 2;
     */
    nextPageToken: string;
};
/**
 * Describes the message adas.v1.ListTemplatesResponse.
 * Use `create(ListTemplatesResponseSchema)` to create a new message.
 */
export declare const ListTemplatesResponseSchema: GenMessage<ListTemplatesResponse>;
/**
 * Request of BindResources.
 *
 * @generated from message adas.v1.BindResourcesRequest
 */
export type BindResourcesRequest = Message<"adas.v1.BindResourcesRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string skill = 1;
     */
    skill: string;
    /**
     * Bindings by resource name.
     *
     * @generated from field: map<string, string> resources = 2;
     */
    resources: {
        [key: string]: string;
    };
};
/**
 * Describes the message adas.v1.BindResourcesRequest.
 * Use `create(BindResourcesRequestSchema)` to create a new message.
 */
export declare const BindResourcesRequestSchema: GenMessage<BindResourcesRequest>;
/**
 * Response of BindResources. Invalid bindings are reported as INVALID_ARGUMENT
 * with one field violation per problem, never here.
 *
 * @generated from message adas.v1.BindResourcesResponse
 */
export type BindResourcesResponse = Message<"adas.v1.BindResourcesResponse"> & {
    /**
     * The accepted bindings, credentials redacted.
     *
     * @generated from field: map<string, string> resources = 1;
     */
    resources: {
        [key: string]: string;
    };
    /**
     * Optional declared resources that were not bound.
     *
     * @generated from field: repeated string unbound_optional = 2;
     */
    unboundOptional: string[];
};
/**
 * Describes the message adas.v1.BindResourcesResponse.
 * Use `create(BindResourcesResponseSchema)` to create a new message.
 */
export declare const BindResourcesResponseSchema: GenMessage<BindResourcesResponse>;
/**
 * Request of ResolveTools.
 *
 * @generated from message adas.v1.ResolveToolsRequest
 */
export type ResolveToolsRequest = Message<"adas.v1.ResolveToolsRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string skill = 1;
     */
    skill: string;
};
/**
 * Describes the message adas.v1.ResolveToolsRequest.
 * Use `create(ResolveToolsRequestSchema)` to create a new message.
 */
export declare const ResolveToolsRequestSchema: GenMessage<ResolveToolsRequest>;
/**
 * Response of ResolveTools.
 *
 * @generated from message adas.v1.ResolveToolsResponse
 */
export type ResolveToolsResponse = Message<"adas.v1.ResolveToolsResponse"> & {
    /**
     * The merged, policy-filtered tool set, ordered by name.
     *
     * @generated from field: repeated adas.v1.ToolSpec tools = 1;
     */
    tools: ToolSpec[];
    /**
     * True when at least one source was served from an expired cache entry
     * because its server was unreachable.
     *
     * @generated from field: bool stale = 2;
     */
    stale: boolean;
    /**
     * URIs of the servers whose entries were served stale.
     *
     * @generated from field: repeated string stale_sources = 3;
     */
    staleSources: string[];
    /**
     * Server tools whose current definition is not the accepted one (new or
     * changed): unavailable until AcceptTools.
     *
     * @generated from field: repeated string unaccepted_tools = 4;
     */
    unacceptedTools: string[];
};
/**
 * Describes the message adas.v1.ResolveToolsResponse.
 * Use `create(ResolveToolsResponseSchema)` to create a new message.
 */
export declare const ResolveToolsResponseSchema: GenMessage<ResolveToolsResponse>;
/**
 * Request of AcceptTools.
 *
 * @generated from message adas.v1.AcceptToolsRequest
 */
export type AcceptToolsRequest = Message<"adas.v1.AcceptToolsRequest"> & {
    /**
     * Skill name, `skills/{slag}`.
     *
     * @generated from field: string skill = 1;
     */
    skill: string;
    /**
     * Tools to accept as the server defines them now; empty accepts all.
     *
     * @generated from field: repeated string tools = 2;
     */
    tools: string[];
};
/**
 * Describes the message adas.v1.AcceptToolsRequest.
 * Use `create(AcceptToolsRequestSchema)` to create a new message.
 */
export declare const AcceptToolsRequestSchema: GenMessage<AcceptToolsRequest>;
/**
 * Request of InvalidateToolCache.
 *
 * @generated from message adas.v1.InvalidateToolCacheRequest
 */
export type InvalidateToolCacheRequest = Message<"adas.v1.InvalidateToolCacheRequest"> & {
    /**
     * What to invalidate.
     *
     * @generated from oneof adas.v1.InvalidateToolCacheRequest.target
     */
    target: {
        /**
         * The MCP server entry of this skill and its tool selections.
         *
         * @generated from field: string skill = 1;
         */
        value: string;
        case: "skill";
    } | {
        /**
         * One MCP server's entry, shared by every skill using it.
         *
         * @generated from field: string server_uri = 2;
         */
        value: string;
        case: "serverUri";
    } | {
        /**
         * Every tool cache entry, core tools included.
         *
         * @generated from field: bool all = 3;
         */
        value: boolean;
        case: "all";
    } | {
        case: undefined;
        value?: undefined;
    };
    /**
     * Idempotency key.
     *
     * @generated from field: string request_id = 4;
     */
    requestId: string;
};
/**
 * Describes the message adas.v1.InvalidateToolCacheRequest.
 * Use `create(InvalidateToolCacheRequestSchema)` to create a new message.
 */
export declare const InvalidateToolCacheRequestSchema: GenMessage<InvalidateToolCacheRequest>;
/**
 * Response of InvalidateToolCache.
 *
 * @generated from message adas.v1.InvalidateToolCacheResponse
 */
export type InvalidateToolCacheResponse = Message<"adas.v1.InvalidateToolCacheResponse"> & {
    /**
     * How many cache entries were dropped.
     *
     * @generated from field: int32 invalidated_entries = 1;
     */
    invalidatedEntries: number;
};
/**
 * Describes the message adas.v1.InvalidateToolCacheResponse.
 * Use `create(InvalidateToolCacheResponseSchema)` to create a new message.
 */
export declare const InvalidateToolCacheResponseSchema: GenMessage<InvalidateToolCacheResponse>;
/**
 * Loads, validates and bootstraps skills, binds resources and resolves each
 * skill's tool set (core tools + the skill's MCP server tools, cached per server).
 *
 * @generated from service adas.v1.SkillRegistryService
 */
export declare const SkillRegistryService: GenService<{
    /**
     * Returns an operational skill with its compiled policy; the first use of a
     * slag bootstraps it from its template (the default slag, without a template,
     * from the minimal skill). Any other slag without a skill or a template is
     * NOT_FOUND, naming the known skills and templates.
     *
     * @generated from rpc adas.v1.SkillRegistryService.GetSkill
     */
    getSkill: {
        methodKind: "unary";
        input: typeof GetSkillRequestSchema;
        output: typeof SkillSchema;
    };
    /**
     * Lists operational skills under the memory root, by slag.
     *
     * @generated from rpc adas.v1.SkillRegistryService.ListSkills
     */
    listSkills: {
        methodKind: "unary";
        input: typeof ListSkillsRequestSchema;
        output: typeof ListSkillsResponseSchema;
    };
    /**
     * Validates a skill document and returns its diagnostics; stores nothing.
     * `${NAME}` variables are expanded as PutSkill does; an unknown one is an error.
     *
     * @generated from rpc adas.v1.SkillRegistryService.ValidateSkill
     */
    validateSkill: {
        methodKind: "unary";
        input: typeof ValidateSkillRequestSchema;
        output: typeof ValidateSkillResponseSchema;
    };
    /**
     * Validates and atomically writes an operational skill, its `${NAME}`
     * variables expanded as at bootstrap; a document with errors is refused with
     * INVALID_ARGUMENT (a BadRequest violation per diagnostic, with line:col) and
     * the stored skill is untouched.
     *
     * @generated from rpc adas.v1.SkillRegistryService.PutSkill
     */
    putSkill: {
        methodKind: "unary";
        input: typeof PutSkillRequestSchema;
        output: typeof SkillSchema;
    };
    /**
     * Deletes an operational skill (its archived jobs stay). A slag with a
     * template is bootstrapped again on its next use.
     *
     * @generated from rpc adas.v1.SkillRegistryService.DeleteSkill
     */
    deleteSkill: {
        methodKind: "unary";
        input: typeof DeleteSkillRequestSchema;
        output: typeof DeleteSkillResponseSchema;
    };
    /**
     * Creates an operational skill from a template (idempotent: an existing slag is returned as is).
     *
     * @generated from rpc adas.v1.SkillRegistryService.BootstrapSkill
     */
    bootstrapSkill: {
        methodKind: "unary";
        input: typeof BootstrapSkillRequestSchema;
        output: typeof SkillSchema;
    };
    /**
     * Lists the templates shipped in `skill-templates/`.
     *
     * @generated from rpc adas.v1.SkillRegistryService.ListTemplates
     */
    listTemplates: {
        methodKind: "unary";
        input: typeof ListTemplatesRequestSchema;
        output: typeof ListTemplatesResponseSchema;
    };
    /**
     * Validates resource bindings against a skill's declarations.
     *
     * @generated from rpc adas.v1.SkillRegistryService.BindResources
     */
    bindResources: {
        methodKind: "unary";
        input: typeof BindResourcesRequestSchema;
        output: typeof BindResourcesResponseSchema;
    };
    /**
     * Returns the skill's tool set: core tools merged with its MCP server's tools, filtered by policy.
     *
     * @generated from rpc adas.v1.SkillRegistryService.ResolveTools
     */
    resolveTools: {
        methodKind: "unary";
        input: typeof ResolveToolsRequestSchema;
        output: typeof ResolveToolsResponseSchema;
    };
    /**
     * Accepts the current definitions (name, description, input schema) of a
     * skill's MCP tools (admin). A server tool that is new or changed since it was
     * accepted is unavailable — in ResolveTools and to jobs — until then; the
     * first resolution of a skill's server accepts what it offers.
     *
     * @generated from rpc adas.v1.SkillRegistryService.AcceptTools
     */
    acceptTools: {
        methodKind: "unary";
        input: typeof AcceptToolsRequestSchema;
        output: typeof ResolveToolsResponseSchema;
    };
    /**
     * Drops cached tool lists so the next ResolveTools asks the servers again.
     *
     * @generated from rpc adas.v1.SkillRegistryService.InvalidateToolCache
     */
    invalidateToolCache: {
        methodKind: "unary";
        input: typeof InvalidateToolCacheRequestSchema;
        output: typeof InvalidateToolCacheResponseSchema;
    };
    /**
     * Maps a connection id of skill exports (`tools[].source.connection_id`)
     * to an MCP server for the caller's tenant (admin or operator). The URL
     * must pass the deployment's egress policy (else PERMISSION_DENIED, naming
     * the rule); every skill routing through the id uses it at once.
     *
     * @generated from rpc adas.v1.SkillRegistryService.PutConnector
     */
    putConnector: {
        methodKind: "unary";
        input: typeof PutConnectorRequestSchema;
        output: typeof ConnectorSchema;
    };
    /**
     * Returns the server a connection id maps to for the caller's tenant (its
     * own mapping, else the deployment's `--connector`); NOT_FOUND otherwise.
     *
     * @generated from rpc adas.v1.SkillRegistryService.GetConnector
     */
    getConnector: {
        methodKind: "unary";
        input: typeof GetConnectorRequestSchema;
        output: typeof ConnectorSchema;
    };
    /**
     * Lists the caller's tenant's connectors and the deployment's, by id.
     *
     * @generated from rpc adas.v1.SkillRegistryService.ListConnectors
     */
    listConnectors: {
        methodKind: "unary";
        input: typeof ListConnectorsRequestSchema;
        output: typeof ListConnectorsResponseSchema;
    };
    /**
     * Removes the tenant's mapping of a connection id (admin or operator): its
     * tools become unavailable unless the deployment maps the id.
     *
     * @generated from rpc adas.v1.SkillRegistryService.DeleteConnector
     */
    deleteConnector: {
        methodKind: "unary";
        input: typeof DeleteConnectorRequestSchema;
        output: typeof DeleteConnectorResponseSchema;
    };
    /**
     * Validates and stores a solution (admin): several skills of the tenant
     * with the grants they pass, handoffs, routing per channel and security
     * contracts. A document with errors is INVALID_ARGUMENT with a BadRequest
     * violation per diagnostic (line:col) and nothing is stored: every
     * handoff, route, contract and grant names one of its skills, every grant
     * consumed has an issuer, and each contract is kept by its consumer's
     * access policy (when that skill exists).
     *
     * @generated from rpc adas.v1.SkillRegistryService.PutSolution
     */
    putSolution: {
        methodKind: "unary";
        input: typeof PutSolutionRequestSchema;
        output: typeof SolutionSchema;
    };
    /**
     * Returns a stored solution.
     *
     * @generated from rpc adas.v1.SkillRegistryService.GetSolution
     */
    getSolution: {
        methodKind: "unary";
        input: typeof GetSolutionRequestSchema;
        output: typeof SolutionSchema;
    };
    /**
     * Lists the tenant's solutions, by id.
     *
     * @generated from rpc adas.v1.SkillRegistryService.ListSolutions
     */
    listSolutions: {
        methodKind: "unary";
        input: typeof ListSolutionsRequestSchema;
        output: typeof ListSolutionsResponseSchema;
    };
    /**
     * Deletes a solution (admin); its conversations end with it.
     *
     * @generated from rpc adas.v1.SkillRegistryService.DeleteSolution
     */
    deleteSolution: {
        methodKind: "unary";
        input: typeof DeleteSolutionRequestSchema;
        output: typeof DeleteSolutionResponseSchema;
    };
}>;
