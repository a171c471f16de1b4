from adas.v1 import gate_pb2 as _gate_pb2
from adas.v1 import job_pb2 as _job_pb2
from adas.v1 import skill_pb2 as _skill_pb2
from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DetectIntentRequest(_message.Message):
    __slots__ = ("skill", "message", "context")
    SKILL_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    skill: str
    message: str
    context: _struct_pb2.Struct
    def __init__(self, skill: _Optional[str] = ..., message: _Optional[str] = ..., context: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class DetectIntentResponse(_message.Message):
    __slots__ = ("intent_id", "confidence", "entities", "out_of_domain", "candidates", "margin", "confident")
    INTENT_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    ENTITIES_FIELD_NUMBER: _ClassVar[int]
    OUT_OF_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    MARGIN_FIELD_NUMBER: _ClassVar[int]
    CONFIDENT_FIELD_NUMBER: _ClassVar[int]
    intent_id: str
    confidence: float
    entities: _containers.RepeatedCompositeFieldContainer[Entity]
    out_of_domain: OutOfDomain
    candidates: _containers.RepeatedCompositeFieldContainer[IntentCandidate]
    margin: float
    confident: bool
    def __init__(self, intent_id: _Optional[str] = ..., confidence: _Optional[float] = ..., entities: _Optional[_Iterable[_Union[Entity, _Mapping]]] = ..., out_of_domain: _Optional[_Union[OutOfDomain, _Mapping]] = ..., candidates: _Optional[_Iterable[_Union[IntentCandidate, _Mapping]]] = ..., margin: _Optional[float] = ..., confident: _Optional[bool] = ...) -> None: ...

class Entity(_message.Message):
    __slots__ = ("name", "type", "value", "text", "start", "end", "guessed")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    GUESSED_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    value: _struct_pb2.Value
    text: str
    start: int
    end: int
    guessed: bool
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., text: _Optional[str] = ..., start: _Optional[int] = ..., end: _Optional[int] = ..., guessed: _Optional[bool] = ...) -> None: ...

class OutOfDomain(_message.Message):
    __slots__ = ("action", "message")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    action: str
    message: str
    def __init__(self, action: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class IntentCandidate(_message.Message):
    __slots__ = ("intent_id", "score")
    INTENT_ID_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    intent_id: str
    score: float
    def __init__(self, intent_id: _Optional[str] = ..., score: _Optional[float] = ...) -> None: ...

class PlanRequest(_message.Message):
    __slots__ = ("skill", "message", "context", "job", "intent_id", "next_only", "history", "feedback", "conversation", "previous_intent_id")
    SKILL_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    INTENT_ID_FIELD_NUMBER: _ClassVar[int]
    NEXT_ONLY_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    FEEDBACK_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_INTENT_ID_FIELD_NUMBER: _ClassVar[int]
    skill: str
    message: str
    context: _struct_pb2.Struct
    job: str
    intent_id: str
    next_only: bool
    history: _containers.RepeatedCompositeFieldContainer[_job_pb2.ToolCallRecord]
    feedback: str
    conversation: _struct_pb2.Struct
    previous_intent_id: str
    def __init__(self, skill: _Optional[str] = ..., message: _Optional[str] = ..., context: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., job: _Optional[str] = ..., intent_id: _Optional[str] = ..., next_only: _Optional[bool] = ..., history: _Optional[_Iterable[_Union[_job_pb2.ToolCallRecord, _Mapping]]] = ..., feedback: _Optional[str] = ..., conversation: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., previous_intent_id: _Optional[str] = ...) -> None: ...

class PlanResponse(_message.Message):
    __slots__ = ("program", "intent", "workflow", "facts", "decider", "done")
    PROGRAM_FIELD_NUMBER: _ClassVar[int]
    INTENT_FIELD_NUMBER: _ClassVar[int]
    WORKFLOW_FIELD_NUMBER: _ClassVar[int]
    FACTS_FIELD_NUMBER: _ClassVar[int]
    DECIDER_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    program: str
    intent: DetectIntentResponse
    workflow: str
    facts: _containers.RepeatedCompositeFieldContainer[Entity]
    decider: _gate_pb2.Decider
    done: bool
    def __init__(self, program: _Optional[str] = ..., intent: _Optional[_Union[DetectIntentResponse, _Mapping]] = ..., workflow: _Optional[str] = ..., facts: _Optional[_Iterable[_Union[Entity, _Mapping]]] = ..., decider: _Optional[_Union[_gate_pb2.Decider, _Mapping]] = ..., done: _Optional[bool] = ...) -> None: ...

class ParsePlanRequest(_message.Message):
    __slots__ = ("program",)
    PROGRAM_FIELD_NUMBER: _ClassVar[int]
    program: str
    def __init__(self, program: _Optional[str] = ...) -> None: ...

class ParsePlanResponse(_message.Message):
    __slots__ = ("tree_json", "canonical", "errors")
    TREE_JSON_FIELD_NUMBER: _ClassVar[int]
    CANONICAL_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    tree_json: str
    canonical: str
    errors: _containers.RepeatedCompositeFieldContainer[_skill_pb2.Diagnostic]
    def __init__(self, tree_json: _Optional[str] = ..., canonical: _Optional[str] = ..., errors: _Optional[_Iterable[_Union[_skill_pb2.Diagnostic, _Mapping]]] = ...) -> None: ...
