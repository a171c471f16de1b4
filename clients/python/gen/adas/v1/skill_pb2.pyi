import datetime

from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.api import resource_pb2 as _resource_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SkillFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SKILL_FORMAT_UNSPECIFIED: _ClassVar[SkillFormat]
    SKILL_FORMAT_YAML: _ClassVar[SkillFormat]
    SKILL_FORMAT_JSON: _ClassVar[SkillFormat]

class Severity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEVERITY_UNSPECIFIED: _ClassVar[Severity]
    SEVERITY_ERROR: _ClassVar[Severity]
    SEVERITY_WARNING: _ClassVar[Severity]
    SEVERITY_INFO: _ClassVar[Severity]

class ResourceType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESOURCE_TYPE_UNSPECIFIED: _ClassVar[ResourceType]
    RESOURCE_TYPE_FILESYSTEM: _ClassVar[ResourceType]
    RESOURCE_TYPE_CONNECTION_STRING: _ClassVar[ResourceType]
    RESOURCE_TYPE_API_ENDPOINT: _ClassVar[ResourceType]
    RESOURCE_TYPE_CREDENTIAL: _ClassVar[ResourceType]

class GuardrailType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GUARDRAIL_TYPE_UNSPECIFIED: _ClassVar[GuardrailType]
    GUARDRAIL_TYPE_TOOL_DENY: _ClassVar[GuardrailType]
    GUARDRAIL_TYPE_THRESHOLD: _ClassVar[GuardrailType]
    GUARDRAIL_TYPE_REQUIRES_APPROVAL: _ClassVar[GuardrailType]

class ToolAllowed(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOOL_ALLOWED_UNSPECIFIED: _ClassVar[ToolAllowed]
    TOOL_ALLOWED_ALWAYS: _ClassVar[ToolAllowed]
    TOOL_ALLOWED_CONDITIONAL: _ClassVar[ToolAllowed]
    TOOL_ALLOWED_NEVER: _ClassVar[ToolAllowed]

class ToolAvailability(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOOL_AVAILABILITY_UNSPECIFIED: _ClassVar[ToolAvailability]
    TOOL_AVAILABILITY_AVAILABLE: _ClassVar[ToolAvailability]
    TOOL_AVAILABILITY_NOT_SERVED: _ClassVar[ToolAvailability]
    TOOL_AVAILABILITY_UNACCEPTED: _ClassVar[ToolAvailability]
    TOOL_AVAILABILITY_UNDECLARED: _ClassVar[ToolAvailability]
    TOOL_AVAILABILITY_NEVER_ALLOWED: _ClassVar[ToolAvailability]
    TOOL_AVAILABILITY_NEEDS_APPROVAL: _ClassVar[ToolAvailability]
    TOOL_AVAILABILITY_HELD: _ClassVar[ToolAvailability]

class ToolSourceKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOOL_SOURCE_KIND_UNSPECIFIED: _ClassVar[ToolSourceKind]
    TOOL_SOURCE_KIND_CORE: _ClassVar[ToolSourceKind]
    TOOL_SOURCE_KIND_MCP: _ClassVar[ToolSourceKind]
SKILL_FORMAT_UNSPECIFIED: SkillFormat
SKILL_FORMAT_YAML: SkillFormat
SKILL_FORMAT_JSON: SkillFormat
SEVERITY_UNSPECIFIED: Severity
SEVERITY_ERROR: Severity
SEVERITY_WARNING: Severity
SEVERITY_INFO: Severity
RESOURCE_TYPE_UNSPECIFIED: ResourceType
RESOURCE_TYPE_FILESYSTEM: ResourceType
RESOURCE_TYPE_CONNECTION_STRING: ResourceType
RESOURCE_TYPE_API_ENDPOINT: ResourceType
RESOURCE_TYPE_CREDENTIAL: ResourceType
GUARDRAIL_TYPE_UNSPECIFIED: GuardrailType
GUARDRAIL_TYPE_TOOL_DENY: GuardrailType
GUARDRAIL_TYPE_THRESHOLD: GuardrailType
GUARDRAIL_TYPE_REQUIRES_APPROVAL: GuardrailType
TOOL_ALLOWED_UNSPECIFIED: ToolAllowed
TOOL_ALLOWED_ALWAYS: ToolAllowed
TOOL_ALLOWED_CONDITIONAL: ToolAllowed
TOOL_ALLOWED_NEVER: ToolAllowed
TOOL_AVAILABILITY_UNSPECIFIED: ToolAvailability
TOOL_AVAILABILITY_AVAILABLE: ToolAvailability
TOOL_AVAILABILITY_NOT_SERVED: ToolAvailability
TOOL_AVAILABILITY_UNACCEPTED: ToolAvailability
TOOL_AVAILABILITY_UNDECLARED: ToolAvailability
TOOL_AVAILABILITY_NEVER_ALLOWED: ToolAvailability
TOOL_AVAILABILITY_NEEDS_APPROVAL: ToolAvailability
TOOL_AVAILABILITY_HELD: ToolAvailability
TOOL_SOURCE_KIND_UNSPECIFIED: ToolSourceKind
TOOL_SOURCE_KIND_CORE: ToolSourceKind
TOOL_SOURCE_KIND_MCP: ToolSourceKind

class Skill(_message.Message):
    __slots__ = ("name", "slag", "display_name", "source", "format", "document", "template", "compiled_policy", "resources", "mcp_server", "diagnostics", "create_time", "update_time", "etag")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SLAG_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    DOCUMENT_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    COMPILED_POLICY_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    MCP_SERVER_FIELD_NUMBER: _ClassVar[int]
    DIAGNOSTICS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    name: str
    slag: str
    display_name: str
    source: str
    format: SkillFormat
    document: _struct_pb2.Struct
    template: str
    compiled_policy: CompiledPolicy
    resources: _containers.RepeatedCompositeFieldContainer[ResourceDeclaration]
    mcp_server: str
    diagnostics: _containers.RepeatedCompositeFieldContainer[Diagnostic]
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    etag: str
    def __init__(self, name: _Optional[str] = ..., slag: _Optional[str] = ..., display_name: _Optional[str] = ..., source: _Optional[str] = ..., format: _Optional[_Union[SkillFormat, str]] = ..., document: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., template: _Optional[str] = ..., compiled_policy: _Optional[_Union[CompiledPolicy, _Mapping]] = ..., resources: _Optional[_Iterable[_Union[ResourceDeclaration, _Mapping]]] = ..., mcp_server: _Optional[str] = ..., diagnostics: _Optional[_Iterable[_Union[Diagnostic, _Mapping]]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., etag: _Optional[str] = ...) -> None: ...

class Diagnostic(_message.Message):
    __slots__ = ("severity", "path", "line", "column", "message", "code")
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    severity: Severity
    path: str
    line: int
    column: int
    message: str
    code: str
    def __init__(self, severity: _Optional[_Union[Severity, str]] = ..., path: _Optional[str] = ..., line: _Optional[int] = ..., column: _Optional[int] = ..., message: _Optional[str] = ..., code: _Optional[str] = ...) -> None: ...

class ResourceDeclaration(_message.Message):
    __slots__ = ("name", "type", "required", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: ResourceType
    required: bool
    description: str
    def __init__(self, name: _Optional[str] = ..., type: _Optional[_Union[ResourceType, str]] = ..., required: _Optional[bool] = ..., description: _Optional[str] = ...) -> None: ...

class Template(_message.Message):
    __slots__ = ("slag", "display_name", "description")
    SLAG_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    slag: str
    display_name: str
    description: str
    def __init__(self, slag: _Optional[str] = ..., display_name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class CompiledPolicy(_message.Message):
    __slots__ = ("guardrails", "text_guardrails", "tool_permissions", "approvals", "sub_goals", "allowed_tools", "blocked_tools")
    GUARDRAILS_FIELD_NUMBER: _ClassVar[int]
    TEXT_GUARDRAILS_FIELD_NUMBER: _ClassVar[int]
    TOOL_PERMISSIONS_FIELD_NUMBER: _ClassVar[int]
    APPROVALS_FIELD_NUMBER: _ClassVar[int]
    SUB_GOALS_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_TOOLS_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_TOOLS_FIELD_NUMBER: _ClassVar[int]
    guardrails: _containers.RepeatedCompositeFieldContainer[CompiledGuardrail]
    text_guardrails: _containers.RepeatedScalarFieldContainer[str]
    tool_permissions: _containers.RepeatedCompositeFieldContainer[ToolPermission]
    approvals: _containers.RepeatedCompositeFieldContainer[ApprovalRule]
    sub_goals: _containers.RepeatedCompositeFieldContainer[SubGoal]
    allowed_tools: _containers.RepeatedScalarFieldContainer[str]
    blocked_tools: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, guardrails: _Optional[_Iterable[_Union[CompiledGuardrail, _Mapping]]] = ..., text_guardrails: _Optional[_Iterable[str]] = ..., tool_permissions: _Optional[_Iterable[_Union[ToolPermission, _Mapping]]] = ..., approvals: _Optional[_Iterable[_Union[ApprovalRule, _Mapping]]] = ..., sub_goals: _Optional[_Iterable[_Union[SubGoal, _Mapping]]] = ..., allowed_tools: _Optional[_Iterable[str]] = ..., blocked_tools: _Optional[_Iterable[str]] = ...) -> None: ...

class CompiledGuardrail(_message.Message):
    __slots__ = ("type", "tool", "field", "operator", "value", "original")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    ORIGINAL_FIELD_NUMBER: _ClassVar[int]
    type: GuardrailType
    tool: str
    field: str
    operator: str
    value: float
    original: str
    def __init__(self, type: _Optional[_Union[GuardrailType, str]] = ..., tool: _Optional[str] = ..., field: _Optional[str] = ..., operator: _Optional[str] = ..., value: _Optional[float] = ..., original: _Optional[str] = ...) -> None: ...

class ToolPermission(_message.Message):
    __slots__ = ("tool", "allowed", "requires_approval", "condition")
    TOOL_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    REQUIRES_APPROVAL_FIELD_NUMBER: _ClassVar[int]
    CONDITION_FIELD_NUMBER: _ClassVar[int]
    tool: str
    allowed: ToolAllowed
    requires_approval: str
    condition: str
    def __init__(self, tool: _Optional[str] = ..., allowed: _Optional[_Union[ToolAllowed, str]] = ..., requires_approval: _Optional[str] = ..., condition: _Optional[str] = ...) -> None: ...

class ApprovalRule(_message.Message):
    __slots__ = ("tool", "when", "action", "approver")
    TOOL_FIELD_NUMBER: _ClassVar[int]
    WHEN_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    APPROVER_FIELD_NUMBER: _ClassVar[int]
    tool: str
    when: str
    action: str
    approver: str
    def __init__(self, tool: _Optional[str] = ..., when: _Optional[str] = ..., action: _Optional[str] = ..., approver: _Optional[str] = ...) -> None: ...

class SubGoal(_message.Message):
    __slots__ = ("id", "intent", "depends_on", "workflow", "required")
    ID_FIELD_NUMBER: _ClassVar[int]
    INTENT_FIELD_NUMBER: _ClassVar[int]
    DEPENDS_ON_FIELD_NUMBER: _ClassVar[int]
    WORKFLOW_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    id: str
    intent: str
    depends_on: _containers.RepeatedScalarFieldContainer[str]
    workflow: str
    required: bool
    def __init__(self, id: _Optional[str] = ..., intent: _Optional[str] = ..., depends_on: _Optional[_Iterable[str]] = ..., workflow: _Optional[str] = ..., required: _Optional[bool] = ...) -> None: ...

class ToolSpec(_message.Message):
    __slots__ = ("name", "description", "inputs", "input_schema", "source", "available", "unavailable_reason", "availability")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    INPUTS_FIELD_NUMBER: _ClassVar[int]
    INPUT_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_REASON_FIELD_NUMBER: _ClassVar[int]
    AVAILABILITY_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    inputs: _containers.RepeatedCompositeFieldContainer[ToolInput]
    input_schema: _struct_pb2.Struct
    source: ToolSource
    available: bool
    unavailable_reason: str
    availability: ToolAvailability
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., inputs: _Optional[_Iterable[_Union[ToolInput, _Mapping]]] = ..., input_schema: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., source: _Optional[_Union[ToolSource, _Mapping]] = ..., available: _Optional[bool] = ..., unavailable_reason: _Optional[str] = ..., availability: _Optional[_Union[ToolAvailability, str]] = ...) -> None: ...

class ToolInput(_message.Message):
    __slots__ = ("name", "type", "required", "description", "enum_values")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    ENUM_VALUES_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    required: bool
    description: str
    enum_values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., required: _Optional[bool] = ..., description: _Optional[str] = ..., enum_values: _Optional[_Iterable[str]] = ...) -> None: ...

class ToolSource(_message.Message):
    __slots__ = ("kind", "uri")
    KIND_FIELD_NUMBER: _ClassVar[int]
    URI_FIELD_NUMBER: _ClassVar[int]
    kind: ToolSourceKind
    uri: str
    def __init__(self, kind: _Optional[_Union[ToolSourceKind, str]] = ..., uri: _Optional[str] = ...) -> None: ...
