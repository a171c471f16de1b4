import type { GenEnum, GenFile, GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { JsonObject, Message } from "@bufbuild/protobuf";
/**
 * Describes the file adas/v1/skill.proto.
 */
export declare const file_adas_v1_skill: GenFile;
/**
 * An operational skill: a DAL document bound to a slag (its namespace).
 *
 * @generated from message adas.v1.Skill
 */
export type Skill = Message<"adas.v1.Skill"> & {
    /**
     * Resource name, `skills/{slag}`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * The slag: 1-64 lowercase letters, digits, `-`, `_`, `.`, starting with a
     * letter or digit, no `..` (the rule is stated in shared/skill/src/slag.rs).
     *
     * @generated from field: string slag = 2;
     */
    slag: string;
    /**
     * Human-readable name from the document.
     *
     * @generated from field: string display_name = 3;
     */
    displayName: string;
    /**
     * The document as stored (YAML or JSON text).
     *
     * @generated from field: string source = 4;
     */
    source: string;
    /**
     * Format of `source`.
     *
     * @generated from field: adas.v1.SkillFormat format = 5;
     */
    format: SkillFormat;
    /**
     * The parsed document as JSON, unknown fields included.
     *
     * @generated from field: google.protobuf.Struct document = 6;
     */
    document?: JsonObject | undefined;
    /**
     * The template this skill was bootstrapped from; empty for the built-in minimal default.
     *
     * @generated from field: string template = 7;
     */
    template: string;
    /**
     * The skill's policy compiled for the gates and the planner.
     *
     * @generated from field: adas.v1.CompiledPolicy compiled_policy = 8;
     */
    compiledPolicy?: CompiledPolicy | undefined;
    /**
     * Resources the skill declares.
     *
     * @generated from field: repeated adas.v1.ResourceDeclaration resources = 9;
     */
    resources: ResourceDeclaration[];
    /**
     * MCP server URI providing the skill's tools, if any.
     *
     * @generated from field: string mcp_server = 10;
     */
    mcpServer: string;
    /**
     * Warnings found when the skill was loaded (unused fields and the like).
     *
     * @generated from field: repeated adas.v1.Diagnostic diagnostics = 11;
     */
    diagnostics: Diagnostic[];
    /**
     * When the operational skill was first written.
     *
     * @generated from field: google.protobuf.Timestamp create_time = 12;
     */
    createTime?: Timestamp | undefined;
    /**
     * When the operational skill last changed.
     *
     * @generated from field: google.protobuf.Timestamp update_time = 13;
     */
    updateTime?: Timestamp | undefined;
    /**
     * Content digest of `source`; pass it to PutSkill to refuse overwriting a newer edit.
     *
     * @generated from field: string etag = 14;
     */
    etag: string;
};
/**
 * Describes the message adas.v1.Skill.
 * Use `create(SkillSchema)` to create a new message.
 */
export declare const SkillSchema: GenMessage<Skill>;
/**
 * A problem or note about a skill document, positioned in its source.
 *
 * @generated from message adas.v1.Diagnostic
 */
export type Diagnostic = Message<"adas.v1.Diagnostic"> & {
    /**
     * How serious it is.
     *
     * @generated from field: adas.v1.Severity severity = 1;
     */
    severity: Severity;
    /**
     * Path of the offending field, e.g. `tools[2].inputs[0].type`.
     *
     * @generated from field: string path = 2;
     */
    path: string;
    /**
     * 1-based line in the source; 0 when unknown.
     *
     * @generated from field: int32 line = 3;
     */
    line: number;
    /**
     * 1-based column in the source; 0 when unknown.
     *
     * @generated from field: int32 column = 4;
     */
    column: number;
    /**
     * What is wrong, lowercase, without a trailing period.
     *
     * @generated from field: string message = 5;
     */
    message: string;
    /**
     * Stable machine-readable code, e.g. `duplicate_tool_id`, `unknown_field`.
     *
     * @generated from field: string code = 6;
     */
    code: string;
};
/**
 * Describes the message adas.v1.Diagnostic.
 * Use `create(DiagnosticSchema)` to create a new message.
 */
export declare const DiagnosticSchema: GenMessage<Diagnostic>;
/**
 * A resource a skill needs, bound per job (spec 002).
 *
 * @generated from message adas.v1.ResourceDeclaration
 */
export type ResourceDeclaration = Message<"adas.v1.ResourceDeclaration"> & {
    /**
     * Name the job binds, e.g. `codebase`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * Kind of resource.
     *
     * @generated from field: adas.v1.ResourceType type = 2;
     */
    type: ResourceType;
    /**
     * Whether a job must bind it.
     *
     * @generated from field: bool required = 3;
     */
    required: boolean;
    /**
     * What it is for.
     *
     * @generated from field: string description = 4;
     */
    description: string;
};
/**
 * Describes the message adas.v1.ResourceDeclaration.
 * Use `create(ResourceDeclarationSchema)` to create a new message.
 */
export declare const ResourceDeclarationSchema: GenMessage<ResourceDeclaration>;
/**
 * A skill template shipped in `skill-templates/`.
 *
 * @generated from message adas.v1.Template
 */
export type Template = Message<"adas.v1.Template"> & {
    /**
     * The slag an operational skill bootstrapped from it gets by default.
     *
     * @generated from field: string slag = 1;
     */
    slag: string;
    /**
     * Human-readable name.
     *
     * @generated from field: string display_name = 2;
     */
    displayName: string;
    /**
     * The problem statement of the template.
     *
     * @generated from field: string description = 3;
     */
    description: string;
};
/**
 * Describes the message adas.v1.Template.
 * Use `create(TemplateSchema)` to create a new message.
 */
export declare const TemplateSchema: GenMessage<Template>;
/**
 * What the gates and the planner need from a skill's policy (spec 004 §4.1, §4.6).
 *
 * @generated from message adas.v1.CompiledPolicy
 */
export type CompiledPolicy = Message<"adas.v1.CompiledPolicy"> & {
    /**
     * Guardrails compiled to mechanical checks.
     *
     * @generated from field: repeated adas.v1.CompiledGuardrail guardrails = 1;
     */
    guardrails: CompiledGuardrail[];
    /**
     * Guardrails kept as text for prompts (at most 10).
     *
     * @generated from field: repeated string text_guardrails = 2;
     */
    textGuardrails: string[];
    /**
     * Per-tool permissions.
     *
     * @generated from field: repeated adas.v1.ToolPermission tool_permissions = 3;
     */
    toolPermissions: ToolPermission[];
    /**
     * Approval rules.
     *
     * @generated from field: repeated adas.v1.ApprovalRule approvals = 4;
     */
    approvals: ApprovalRule[];
    /**
     * Workflows converted to sub-goals.
     *
     * @generated from field: repeated adas.v1.SubGoal sub_goals = 5;
     */
    subGoals: SubGoal[];
    /**
     * `policy.tools.allowed` patterns (`*` allowed).
     *
     * @generated from field: repeated string allowed_tools = 6;
     */
    allowedTools: string[];
    /**
     * `policy.tools.blocked` names.
     *
     * @generated from field: repeated string blocked_tools = 7;
     */
    blockedTools: string[];
};
/**
 * Describes the message adas.v1.CompiledPolicy.
 * Use `create(CompiledPolicySchema)` to create a new message.
 */
export declare const CompiledPolicySchema: GenMessage<CompiledPolicy>;
/**
 * A guardrail rule compiled to a mechanical check.
 *
 * @generated from message adas.v1.CompiledGuardrail
 */
export type CompiledGuardrail = Message<"adas.v1.CompiledGuardrail"> & {
    /**
     * Kind of check.
     *
     * @generated from field: adas.v1.GuardrailType type = 1;
     */
    type: GuardrailType;
    /**
     * Tool the rule applies to (tool_deny, requires_approval).
     *
     * @generated from field: string tool = 2;
     */
    tool: string;
    /**
     * Argument the threshold compares.
     *
     * @generated from field: string field = 3;
     */
    field: string;
    /**
     * Comparison operator: one of > < >= <= == !=.
     *
     * @generated from field: string operator = 4;
     */
    operator: string;
    /**
     * Threshold value.
     *
     * @generated from field: double value = 5;
     */
    value: number;
    /**
     * The rule's original text.
     *
     * @generated from field: string original = 6;
     */
    original: string;
};
/**
 * Describes the message adas.v1.CompiledGuardrail.
 * Use `create(CompiledGuardrailSchema)` to create a new message.
 */
export declare const CompiledGuardrailSchema: GenMessage<CompiledGuardrail>;
/**
 * The permission a skill gives one tool.
 *
 * @generated from message adas.v1.ToolPermission
 */
export type ToolPermission = Message<"adas.v1.ToolPermission"> & {
    /**
     * Tool name.
     *
     * @generated from field: string tool = 1;
     */
    tool: string;
    /**
     * `policy.allowed` of the tool.
     *
     * @generated from field: adas.v1.ToolAllowed allowed = 2;
     */
    allowed: ToolAllowed;
    /**
     * Whether calls need approval: `always`, `conditional` (see condition) or `never`.
     *
     * @generated from field: string requires_approval = 3;
     */
    requiresApproval: string;
    /**
     * Condition in the grammar `field op number`.
     *
     * @generated from field: string condition = 4;
     */
    condition: string;
};
/**
 * Describes the message adas.v1.ToolPermission.
 * Use `create(ToolPermissionSchema)` to create a new message.
 */
export declare const ToolPermissionSchema: GenMessage<ToolPermission>;
/**
 * An approval rule of `policy.approvals`.
 *
 * @generated from message adas.v1.ApprovalRule
 */
export type ApprovalRule = Message<"adas.v1.ApprovalRule"> & {
    /**
     * Tool the rule applies to.
     *
     * @generated from field: string tool = 1;
     */
    tool: string;
    /**
     * Condition, `field op number`; empty means every call.
     *
     * @generated from field: string when = 2;
     */
    when: string;
    /**
     * Action, e.g. `require_approval`.
     *
     * @generated from field: string action = 3;
     */
    action: string;
    /**
     * Role that must approve.
     *
     * @generated from field: string approver = 4;
     */
    approver: string;
};
/**
 * Describes the message adas.v1.ApprovalRule.
 * Use `create(ApprovalRuleSchema)` to create a new message.
 */
export declare const ApprovalRuleSchema: GenMessage<ApprovalRule>;
/**
 * One workflow step as a sub-goal `sg_<workflow>_<n>`.
 *
 * @generated from message adas.v1.SubGoal
 */
export type SubGoal = Message<"adas.v1.SubGoal"> & {
    /**
     * Id, `sg_<workflow>_<n>` with n from 1.
     *
     * @generated from field: string id = 1;
     */
    id: string;
    /**
     * The step (a tool name or intent).
     *
     * @generated from field: string intent = 2;
     */
    intent: string;
    /**
     * Ids this sub-goal depends on (the previous step).
     *
     * @generated from field: repeated string depends_on = 3;
     */
    dependsOn: string[];
    /**
     * Workflow name.
     *
     * @generated from field: string workflow = 4;
     */
    workflow: string;
    /**
     * Whether the workflow is required for goal coverage.
     *
     * @generated from field: bool required = 5;
     */
    required: boolean;
};
/**
 * Describes the message adas.v1.SubGoal.
 * Use `create(SubGoalSchema)` to create a new message.
 */
export declare const SubGoalSchema: GenMessage<SubGoal>;
/**
 * A tool a skill can call, with the inputs DalAgent checks before it runs.
 *
 * @generated from message adas.v1.ToolSpec
 */
export type ToolSpec = Message<"adas.v1.ToolSpec"> & {
    /**
     * Tool name, e.g. `process_refund` or `sys.echo`.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * What it does.
     *
     * @generated from field: string description = 2;
     */
    description: string;
    /**
     * Inputs, required ones first.
     *
     * @generated from field: repeated adas.v1.ToolInput inputs = 3;
     */
    inputs: ToolInput[];
    /**
     * The full JSON schema of the input, as the tool's server gave it.
     *
     * @generated from field: google.protobuf.Struct input_schema = 4;
     */
    inputSchema?: JsonObject | undefined;
    /**
     * Where the tool comes from.
     *
     * @generated from field: adas.v1.ToolSource source = 5;
     */
    source?: ToolSource | undefined;
    /**
     * Whether the tool can be called (false when declared by the skill but absent from its server).
     *
     * @generated from field: bool available = 6;
     */
    available: boolean;
    /**
     * Why it is unavailable.
     *
     * @generated from field: string unavailable_reason = 7;
     */
    unavailableReason: string;
    /**
     * What a job of the skill may do with the tool, and if not, why not.
     *
     * @generated from field: adas.v1.ToolAvailability availability = 8;
     */
    availability: ToolAvailability;
};
/**
 * Describes the message adas.v1.ToolSpec.
 * Use `create(ToolSpecSchema)` to create a new message.
 */
export declare const ToolSpecSchema: GenMessage<ToolSpec>;
/**
 * One input of a tool.
 *
 * @generated from message adas.v1.ToolInput
 */
export type ToolInput = Message<"adas.v1.ToolInput"> & {
    /**
     * Argument name.
     *
     * @generated from field: string name = 1;
     */
    name: string;
    /**
     * Type: string, number, integer, boolean, object, array.
     *
     * @generated from field: string type = 2;
     */
    type: string;
    /**
     * Whether a call needs it.
     *
     * @generated from field: bool required = 3;
     */
    required: boolean;
    /**
     * What it is.
     *
     * @generated from field: string description = 4;
     */
    description: string;
    /**
     * Allowed values, if restricted.
     *
     * @generated from field: repeated string enum_values = 5;
     */
    enumValues: string[];
};
/**
 * Describes the message adas.v1.ToolInput.
 * Use `create(ToolInputSchema)` to create a new message.
 */
export declare const ToolInputSchema: GenMessage<ToolInput>;
/**
 * Where a tool is implemented.
 *
 * @generated from message adas.v1.ToolSource
 */
export type ToolSource = Message<"adas.v1.ToolSource"> & {
    /**
     * Kind of source.
     *
     * @generated from field: adas.v1.ToolSourceKind kind = 1;
     */
    kind: ToolSourceKind;
    /**
     * The MCP server URI for MCP tools.
     *
     * @generated from field: string uri = 2;
     */
    uri: string;
};
/**
 * Describes the message adas.v1.ToolSource.
 * Use `create(ToolSourceSchema)` to create a new message.
 */
export declare const ToolSourceSchema: GenMessage<ToolSource>;
/**
 * Serialization of a skill document.
 *
 * @generated from enum adas.v1.SkillFormat
 */
export declare enum SkillFormat {
    /**
     * Not set; detected from the content.
     *
     * @generated from enum value: SKILL_FORMAT_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * YAML, as exported by the Skill Builder.
     *
     * @generated from enum value: SKILL_FORMAT_YAML = 1;
     */
    YAML = 1,
    /**
     * JSON, as stored by the Skill Builder's drafts.
     *
     * @generated from enum value: SKILL_FORMAT_JSON = 2;
     */
    JSON = 2
}
/**
 * Describes the enum adas.v1.SkillFormat.
 */
export declare const SkillFormatSchema: GenEnum<SkillFormat>;
/**
 * Severity of a diagnostic.
 *
 * @generated from enum adas.v1.Severity
 */
export declare enum Severity {
    /**
     * Not set.
     *
     * @generated from enum value: SEVERITY_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The document cannot be used.
     *
     * @generated from enum value: SEVERITY_ERROR = 1;
     */
    ERROR = 1,
    /**
     * The document is used; something in it is ignored or suspicious.
     *
     * @generated from enum value: SEVERITY_WARNING = 2;
     */
    WARNING = 2,
    /**
     * Informational.
     *
     * @generated from enum value: SEVERITY_INFO = 3;
     */
    INFO = 3
}
/**
 * Describes the enum adas.v1.Severity.
 */
export declare const SeveritySchema: GenEnum<Severity>;
/**
 * Kinds of resources (spec 002).
 *
 * @generated from enum adas.v1.ResourceType
 */
export declare enum ResourceType {
    /**
     * Not set.
     *
     * @generated from enum value: RESOURCE_TYPE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * A path to a directory or file that must exist.
     *
     * @generated from enum value: RESOURCE_TYPE_FILESYSTEM = 1;
     */
    FILESYSTEM = 1,
    /**
     * A database or service URI.
     *
     * @generated from enum value: RESOURCE_TYPE_CONNECTION_STRING = 2;
     */
    CONNECTION_STRING = 2,
    /**
     * An HTTP(S) API URL.
     *
     * @generated from enum value: RESOURCE_TYPE_API_ENDPOINT = 3;
     */
    API_ENDPOINT = 3,
    /**
     * A secret reference (never the secret); redacted in logs and errors.
     *
     * @generated from enum value: RESOURCE_TYPE_CREDENTIAL = 4;
     */
    CREDENTIAL = 4
}
/**
 * Describes the enum adas.v1.ResourceType.
 */
export declare const ResourceTypeSchema: GenEnum<ResourceType>;
/**
 * Kinds of compiled guardrails.
 *
 * @generated from enum adas.v1.GuardrailType
 */
export declare enum GuardrailType {
    /**
     * Not set.
     *
     * @generated from enum value: GUARDRAIL_TYPE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * "Never use X": the tool is denied.
     *
     * @generated from enum value: GUARDRAIL_TYPE_TOOL_DENY = 1;
     */
    TOOL_DENY = 1,
    /**
     * "field op number": calls whose argument matches the comparison are blocked.
     *
     * @generated from enum value: GUARDRAIL_TYPE_THRESHOLD = 2;
     */
    THRESHOLD = 2,
    /**
     * "X requires approval": calls need an approver's decision.
     *
     * @generated from enum value: GUARDRAIL_TYPE_REQUIRES_APPROVAL = 3;
     */
    REQUIRES_APPROVAL = 3
}
/**
 * Describes the enum adas.v1.GuardrailType.
 */
export declare const GuardrailTypeSchema: GenEnum<GuardrailType>;
/**
 * `tools[].policy.allowed` of a skill.
 *
 * @generated from enum adas.v1.ToolAllowed
 */
export declare enum ToolAllowed {
    /**
     * Not set; treated as ALWAYS.
     *
     * @generated from enum value: TOOL_ALLOWED_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The tool may be called.
     *
     * @generated from enum value: TOOL_ALLOWED_ALWAYS = 1;
     */
    ALWAYS = 1,
    /**
     * The tool may be called when its conditions hold.
     *
     * @generated from enum value: TOOL_ALLOWED_CONDITIONAL = 2;
     */
    CONDITIONAL = 2,
    /**
     * The tool is never called.
     *
     * @generated from enum value: TOOL_ALLOWED_NEVER = 3;
     */
    NEVER = 3
}
/**
 * Describes the enum adas.v1.ToolAllowed.
 */
export declare const ToolAllowedSchema: GenEnum<ToolAllowed>;
/**
 * What a job of a skill may do with a tool it resolved.
 *
 * @generated from enum adas.v1.ToolAvailability
 */
export declare enum ToolAvailability {
    /**
     * Never sent.
     *
     * @generated from enum value: TOOL_AVAILABILITY_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * Jobs may call it (the gate still judges each call).
     *
     * @generated from enum value: TOOL_AVAILABILITY_AVAILABLE = 1;
     */
    AVAILABLE = 1,
    /**
     * Declared by the skill, but its server does not offer it.
     *
     * @generated from enum value: TOOL_AVAILABILITY_NOT_SERVED = 2;
     */
    NOT_SERVED = 2,
    /**
     * Offered by the server, but new or changed since an admin accepted it.
     *
     * @generated from enum value: TOOL_AVAILABILITY_UNACCEPTED = 3;
     */
    UNACCEPTED = 3,
    /**
     * Offered by the server, but the skill does not declare it: never called.
     *
     * @generated from enum value: TOOL_AVAILABILITY_UNDECLARED = 4;
     */
    UNDECLARED = 4,
    /**
     * Never allowed by the skill's policy (`allowed: never`, `policy.tools.blocked`,
     * outside `policy.tools.allowed`, a "never use" guardrail): never called.
     *
     * @generated from enum value: TOOL_AVAILABILITY_NEVER_ALLOWED = 5;
     */
    NEVER_ALLOWED = 5,
    /**
     * Jobs may call it, and each call (or each call whose condition holds)
     * waits for an approver.
     *
     * @generated from enum value: TOOL_AVAILABILITY_NEEDS_APPROVAL = 6;
     */
    NEEDS_APPROVAL = 6,
    /**
     * Never called until the skill is mended: it asks for approval of this
     * tool and names no approver role (`unavailable_reason` says where).
     *
     * @generated from enum value: TOOL_AVAILABILITY_HELD = 7;
     */
    HELD = 7
}
/**
 * Describes the enum adas.v1.ToolAvailability.
 */
export declare const ToolAvailabilitySchema: GenEnum<ToolAvailability>;
/**
 * Kinds of tool sources.
 *
 * @generated from enum adas.v1.ToolSourceKind
 */
export declare enum ToolSourceKind {
    /**
     * Not set.
     *
     * @generated from enum value: TOOL_SOURCE_KIND_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * A built-in `sys.*` tool run in-process.
     *
     * @generated from enum value: TOOL_SOURCE_KIND_CORE = 1;
     */
    CORE = 1,
    /**
     * A tool served by the skill's MCP server.
     *
     * @generated from enum value: TOOL_SOURCE_KIND_MCP = 2;
     */
    MCP = 2
}
/**
 * Describes the enum adas.v1.ToolSourceKind.
 */
export declare const ToolSourceKindSchema: GenEnum<ToolSourceKind>;
