from adas.v1 import gate_pb2 as _gate_pb2
from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CheckToolCallRequest(_message.Message):
    __slots__ = ("skill", "job", "tool", "arguments", "context")
    SKILL_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    skill: str
    job: str
    tool: str
    arguments: _struct_pb2.Struct
    context: _struct_pb2.Struct
    def __init__(self, skill: _Optional[str] = ..., job: _Optional[str] = ..., tool: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., context: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class DecideApprovalRequest(_message.Message):
    __slots__ = ("job", "correlation_id", "decision", "comment", "request_id")
    JOB_FIELD_NUMBER: _ClassVar[int]
    CORRELATION_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    job: str
    correlation_id: str
    decision: _gate_pb2.ApprovalDecision
    comment: str
    request_id: str
    def __init__(self, job: _Optional[str] = ..., correlation_id: _Optional[str] = ..., decision: _Optional[_Union[_gate_pb2.ApprovalDecision, str]] = ..., comment: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class FinalizeRequest(_message.Message):
    __slots__ = ("skill", "goal", "draft_reply", "results", "intent_id", "succeeded_tools", "job")
    SKILL_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    DRAFT_REPLY_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    INTENT_ID_FIELD_NUMBER: _ClassVar[int]
    SUCCEEDED_TOOLS_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    skill: str
    goal: str
    draft_reply: str
    results: _struct_pb2.Struct
    intent_id: str
    succeeded_tools: _containers.RepeatedScalarFieldContainer[str]
    job: str
    def __init__(self, skill: _Optional[str] = ..., goal: _Optional[str] = ..., draft_reply: _Optional[str] = ..., results: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., intent_id: _Optional[str] = ..., succeeded_tools: _Optional[_Iterable[str]] = ..., job: _Optional[str] = ...) -> None: ...

class PolishReplyRequest(_message.Message):
    __slots__ = ("skill", "reply", "results", "resources", "user_waited", "job")
    class ResourcesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    SKILL_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    USER_WAITED_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    skill: str
    reply: str
    results: _struct_pb2.Struct
    resources: _containers.ScalarMap[str, str]
    user_waited: bool
    job: str
    def __init__(self, skill: _Optional[str] = ..., reply: _Optional[str] = ..., results: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., resources: _Optional[_Mapping[str, str]] = ..., user_waited: _Optional[bool] = ..., job: _Optional[str] = ...) -> None: ...

class PolishReplyResponse(_message.Message):
    __slots__ = ("text", "decider")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DECIDER_FIELD_NUMBER: _ClassVar[int]
    text: str
    decider: _gate_pb2.Decider
    def __init__(self, text: _Optional[str] = ..., decider: _Optional[_Union[_gate_pb2.Decider, _Mapping]] = ...) -> None: ...
