import datetime

from adas.v1 import gate_pb2 as _gate_pb2
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

class JobStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_STATUS_UNSPECIFIED: _ClassVar[JobStatus]
    JOB_STATUS_QUEUED: _ClassVar[JobStatus]
    JOB_STATUS_RUNNING: _ClassVar[JobStatus]
    JOB_STATUS_PAUSED: _ClassVar[JobStatus]
    JOB_STATUS_COMPLETED: _ClassVar[JobStatus]
    JOB_STATUS_FAILED: _ClassVar[JobStatus]
    JOB_STATUS_CANCELLED: _ClassVar[JobStatus]

class JobView(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_VIEW_UNSPECIFIED: _ClassVar[JobView]
    JOB_VIEW_BASIC: _ClassVar[JobView]
    JOB_VIEW_FULL: _ClassVar[JobView]

class OutcomeClass(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OUTCOME_CLASS_UNSPECIFIED: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_SUCCESS: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_USER_ACTION_REQUIRED: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_APPROVAL_REQUIRED: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_INTERNAL_ERROR: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_ENGINE_BUDGET_EXHAUSTED: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_OUT_OF_DOMAIN: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_CANCELLED: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_EXPIRED: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_ESCALATED: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_POLICY_DENIED: _ClassVar[OutcomeClass]
    OUTCOME_CLASS_TOOL_FAILED: _ClassVar[OutcomeClass]

class InputType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    INPUT_TYPE_UNSPECIFIED: _ClassVar[InputType]
    INPUT_TYPE_TEXT: _ClassVar[InputType]
    INPUT_TYPE_CHOICE: _ClassVar[InputType]

class JobEventType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_EVENT_TYPE_UNSPECIFIED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_CREATED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_PLANNED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_PAUSED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_RESUMED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_TOOL_STARTED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_TOOL_FINISHED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_TOOL_DENIED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_FINALIZED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_COMPLETED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_FAILED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_CANCELLED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_RECLAIMED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_RUNNING: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_RESOLVED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_ANSWER_REFUSED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_GRANT_ISSUED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_GRANT_EXPIRED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_GRANT_DENIED: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_HANDOFF: _ClassVar[JobEventType]
    JOB_EVENT_TYPE_WORKFLOW_DEVIATED: _ClassVar[JobEventType]
JOB_STATUS_UNSPECIFIED: JobStatus
JOB_STATUS_QUEUED: JobStatus
JOB_STATUS_RUNNING: JobStatus
JOB_STATUS_PAUSED: JobStatus
JOB_STATUS_COMPLETED: JobStatus
JOB_STATUS_FAILED: JobStatus
JOB_STATUS_CANCELLED: JobStatus
JOB_VIEW_UNSPECIFIED: JobView
JOB_VIEW_BASIC: JobView
JOB_VIEW_FULL: JobView
OUTCOME_CLASS_UNSPECIFIED: OutcomeClass
OUTCOME_CLASS_SUCCESS: OutcomeClass
OUTCOME_CLASS_USER_ACTION_REQUIRED: OutcomeClass
OUTCOME_CLASS_APPROVAL_REQUIRED: OutcomeClass
OUTCOME_CLASS_INTERNAL_ERROR: OutcomeClass
OUTCOME_CLASS_ENGINE_BUDGET_EXHAUSTED: OutcomeClass
OUTCOME_CLASS_OUT_OF_DOMAIN: OutcomeClass
OUTCOME_CLASS_CANCELLED: OutcomeClass
OUTCOME_CLASS_EXPIRED: OutcomeClass
OUTCOME_CLASS_ESCALATED: OutcomeClass
OUTCOME_CLASS_POLICY_DENIED: OutcomeClass
OUTCOME_CLASS_TOOL_FAILED: OutcomeClass
INPUT_TYPE_UNSPECIFIED: InputType
INPUT_TYPE_TEXT: InputType
INPUT_TYPE_CHOICE: InputType
JOB_EVENT_TYPE_UNSPECIFIED: JobEventType
JOB_EVENT_TYPE_CREATED: JobEventType
JOB_EVENT_TYPE_PLANNED: JobEventType
JOB_EVENT_TYPE_PAUSED: JobEventType
JOB_EVENT_TYPE_RESUMED: JobEventType
JOB_EVENT_TYPE_TOOL_STARTED: JobEventType
JOB_EVENT_TYPE_TOOL_FINISHED: JobEventType
JOB_EVENT_TYPE_TOOL_DENIED: JobEventType
JOB_EVENT_TYPE_FINALIZED: JobEventType
JOB_EVENT_TYPE_COMPLETED: JobEventType
JOB_EVENT_TYPE_FAILED: JobEventType
JOB_EVENT_TYPE_CANCELLED: JobEventType
JOB_EVENT_TYPE_RECLAIMED: JobEventType
JOB_EVENT_TYPE_RUNNING: JobEventType
JOB_EVENT_TYPE_RESOLVED: JobEventType
JOB_EVENT_TYPE_ANSWER_REFUSED: JobEventType
JOB_EVENT_TYPE_GRANT_ISSUED: JobEventType
JOB_EVENT_TYPE_GRANT_EXPIRED: JobEventType
JOB_EVENT_TYPE_GRANT_DENIED: JobEventType
JOB_EVENT_TYPE_HANDOFF: JobEventType
JOB_EVENT_TYPE_WORKFLOW_DEVIATED: JobEventType

class Job(_message.Message):
    __slots__ = ("name", "job_id", "slag", "goal", "status", "outcome_class", "waiting", "context", "resources", "plan", "iteration", "iteration_budget", "result", "intent", "create_time", "update_time", "end_time", "version", "etag", "request_id", "conversation", "tool_calls", "llm_usage", "grants", "solution", "handed_off_from", "owner", "decisions", "skill_etag", "trace_id", "retry_of", "retried_by")
    class ResourcesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    SLAG_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_CLASS_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    ITERATION_FIELD_NUMBER: _ClassVar[int]
    ITERATION_BUDGET_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    INTENT_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
    LLM_USAGE_FIELD_NUMBER: _ClassVar[int]
    GRANTS_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_FIELD_NUMBER: _ClassVar[int]
    HANDED_OFF_FROM_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    SKILL_ETAG_FIELD_NUMBER: _ClassVar[int]
    TRACE_ID_FIELD_NUMBER: _ClassVar[int]
    RETRY_OF_FIELD_NUMBER: _ClassVar[int]
    RETRIED_BY_FIELD_NUMBER: _ClassVar[int]
    name: str
    job_id: str
    slag: str
    goal: str
    status: JobStatus
    outcome_class: OutcomeClass
    waiting: Waiting
    context: _struct_pb2.Struct
    resources: _containers.ScalarMap[str, str]
    plan: Plan
    iteration: int
    iteration_budget: int
    result: JobResult
    intent: DetectedIntent
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    version: int
    etag: str
    request_id: str
    conversation: str
    tool_calls: _containers.RepeatedCompositeFieldContainer[ToolCallRecord]
    llm_usage: _gate_pb2.LlmUsage
    grants: _containers.RepeatedCompositeFieldContainer[Grant]
    solution: str
    handed_off_from: str
    owner: str
    decisions: _containers.RepeatedCompositeFieldContainer[JobDecision]
    skill_etag: str
    trace_id: str
    retry_of: str
    retried_by: str
    def __init__(self, name: _Optional[str] = ..., job_id: _Optional[str] = ..., slag: _Optional[str] = ..., goal: _Optional[str] = ..., status: _Optional[_Union[JobStatus, str]] = ..., outcome_class: _Optional[_Union[OutcomeClass, str]] = ..., waiting: _Optional[_Union[Waiting, _Mapping]] = ..., context: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., resources: _Optional[_Mapping[str, str]] = ..., plan: _Optional[_Union[Plan, _Mapping]] = ..., iteration: _Optional[int] = ..., iteration_budget: _Optional[int] = ..., result: _Optional[_Union[JobResult, _Mapping]] = ..., intent: _Optional[_Union[DetectedIntent, _Mapping]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ..., conversation: _Optional[str] = ..., tool_calls: _Optional[_Iterable[_Union[ToolCallRecord, _Mapping]]] = ..., llm_usage: _Optional[_Union[_gate_pb2.LlmUsage, _Mapping]] = ..., grants: _Optional[_Iterable[_Union[Grant, _Mapping]]] = ..., solution: _Optional[str] = ..., handed_off_from: _Optional[str] = ..., owner: _Optional[str] = ..., decisions: _Optional[_Iterable[_Union[JobDecision, _Mapping]]] = ..., skill_etag: _Optional[str] = ..., trace_id: _Optional[str] = ..., retry_of: _Optional[str] = ..., retried_by: _Optional[str] = ...) -> None: ...

class JobDecision(_message.Message):
    __slots__ = ("correlation_id", "decision", "approver", "role", "tool", "call_digest", "comment", "decide_time")
    CORRELATION_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    APPROVER_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    CALL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    DECIDE_TIME_FIELD_NUMBER: _ClassVar[int]
    correlation_id: str
    decision: _gate_pb2.ApprovalDecision
    approver: str
    role: str
    tool: str
    call_digest: str
    comment: str
    decide_time: _timestamp_pb2.Timestamp
    def __init__(self, correlation_id: _Optional[str] = ..., decision: _Optional[_Union[_gate_pb2.ApprovalDecision, str]] = ..., approver: _Optional[str] = ..., role: _Optional[str] = ..., tool: _Optional[str] = ..., call_digest: _Optional[str] = ..., comment: _Optional[str] = ..., decide_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Grant(_message.Message):
    __slots__ = ("key", "value", "issuer_skill", "issuer_tool", "issuer_job", "principal", "expire_time")
    KEY_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    ISSUER_SKILL_FIELD_NUMBER: _ClassVar[int]
    ISSUER_TOOL_FIELD_NUMBER: _ClassVar[int]
    ISSUER_JOB_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    key: str
    value: str
    issuer_skill: str
    issuer_tool: str
    issuer_job: str
    principal: str
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ..., issuer_skill: _Optional[str] = ..., issuer_tool: _Optional[str] = ..., issuer_job: _Optional[str] = ..., principal: _Optional[str] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Waiting(_message.Message):
    __slots__ = ("reason_code", "requested_fields", "prompt_message", "correlation_id", "created_at", "last_prompt_at", "fields", "prompt_count", "invalid_answer_count", "approval")
    REASON_CODE_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_FIELDS_FIELD_NUMBER: _ClassVar[int]
    PROMPT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CORRELATION_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_PROMPT_AT_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    PROMPT_COUNT_FIELD_NUMBER: _ClassVar[int]
    INVALID_ANSWER_COUNT_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_FIELD_NUMBER: _ClassVar[int]
    reason_code: str
    requested_fields: _containers.RepeatedScalarFieldContainer[str]
    prompt_message: str
    correlation_id: str
    created_at: _timestamp_pb2.Timestamp
    last_prompt_at: _timestamp_pb2.Timestamp
    fields: _containers.RepeatedCompositeFieldContainer[WaitingField]
    prompt_count: int
    invalid_answer_count: int
    approval: ApprovalRequest
    def __init__(self, reason_code: _Optional[str] = ..., requested_fields: _Optional[_Iterable[str]] = ..., prompt_message: _Optional[str] = ..., correlation_id: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_prompt_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., fields: _Optional[_Iterable[_Union[WaitingField, _Mapping]]] = ..., prompt_count: _Optional[int] = ..., invalid_answer_count: _Optional[int] = ..., approval: _Optional[_Union[ApprovalRequest, _Mapping]] = ...) -> None: ...

class WaitingField(_message.Message):
    __slots__ = ("name", "type", "prompt", "input_type", "options", "required", "slot_path", "option_labels")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    INPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    SLOT_PATH_FIELD_NUMBER: _ClassVar[int]
    OPTION_LABELS_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    prompt: str
    input_type: InputType
    options: _containers.RepeatedScalarFieldContainer[str]
    required: bool
    slot_path: str
    option_labels: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., prompt: _Optional[str] = ..., input_type: _Optional[_Union[InputType, str]] = ..., options: _Optional[_Iterable[str]] = ..., required: _Optional[bool] = ..., slot_path: _Optional[str] = ..., option_labels: _Optional[_Iterable[str]] = ...) -> None: ...

class ApprovalRequest(_message.Message):
    __slots__ = ("tool", "arguments", "call_digest", "approver", "reason", "condition")
    TOOL_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    CALL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    APPROVER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CONDITION_FIELD_NUMBER: _ClassVar[int]
    tool: str
    arguments: _struct_pb2.Struct
    call_digest: str
    approver: str
    reason: str
    condition: str
    def __init__(self, tool: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., call_digest: _Optional[str] = ..., approver: _Optional[str] = ..., reason: _Optional[str] = ..., condition: _Optional[str] = ...) -> None: ...

class Plan(_message.Message):
    __slots__ = ("program", "state_json", "done")
    PROGRAM_FIELD_NUMBER: _ClassVar[int]
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    program: str
    state_json: str
    done: bool
    def __init__(self, program: _Optional[str] = ..., state_json: _Optional[str] = ..., done: _Optional[bool] = ...) -> None: ...

class DetectedIntent(_message.Message):
    __slots__ = ("intent_id", "confidence", "out_of_domain", "margin", "confident")
    INTENT_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    OUT_OF_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    MARGIN_FIELD_NUMBER: _ClassVar[int]
    CONFIDENT_FIELD_NUMBER: _ClassVar[int]
    intent_id: str
    confidence: float
    out_of_domain: bool
    margin: float
    confident: bool
    def __init__(self, intent_id: _Optional[str] = ..., confidence: _Optional[float] = ..., out_of_domain: _Optional[bool] = ..., margin: _Optional[float] = ..., confident: _Optional[bool] = ...) -> None: ...

class JobResult(_message.Message):
    __slots__ = ("reply", "output_fields", "tool_calls", "finalization")
    REPLY_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELDS_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
    FINALIZATION_FIELD_NUMBER: _ClassVar[int]
    reply: str
    output_fields: _struct_pb2.Struct
    tool_calls: _containers.RepeatedCompositeFieldContainer[ToolCallRecord]
    finalization: _gate_pb2.FinalizationResult
    def __init__(self, reply: _Optional[str] = ..., output_fields: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., tool_calls: _Optional[_Iterable[_Union[ToolCallRecord, _Mapping]]] = ..., finalization: _Optional[_Union[_gate_pb2.FinalizationResult, _Mapping]] = ...) -> None: ...

class ToolCallRecord(_message.Message):
    __slots__ = ("tool", "arguments", "output", "is_error", "iteration", "finish_time")
    TOOL_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    IS_ERROR_FIELD_NUMBER: _ClassVar[int]
    ITERATION_FIELD_NUMBER: _ClassVar[int]
    FINISH_TIME_FIELD_NUMBER: _ClassVar[int]
    tool: str
    arguments: _struct_pb2.Struct
    output: _struct_pb2.Value
    is_error: bool
    iteration: int
    finish_time: _timestamp_pb2.Timestamp
    def __init__(self, tool: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., is_error: _Optional[bool] = ..., iteration: _Optional[int] = ..., finish_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class JobEvent(_message.Message):
    __slots__ = ("event_id", "job", "type", "status", "outcome_class", "message", "data", "time", "job_version")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_CLASS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    JOB_VERSION_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    job: str
    type: JobEventType
    status: JobStatus
    outcome_class: OutcomeClass
    message: str
    data: _struct_pb2.Struct
    time: _timestamp_pb2.Timestamp
    job_version: int
    def __init__(self, event_id: _Optional[str] = ..., job: _Optional[str] = ..., type: _Optional[_Union[JobEventType, str]] = ..., status: _Optional[_Union[JobStatus, str]] = ..., outcome_class: _Optional[_Union[OutcomeClass, str]] = ..., message: _Optional[str] = ..., data: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., job_version: _Optional[int] = ...) -> None: ...
