import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GateVerdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GATE_VERDICT_UNSPECIFIED: _ClassVar[GateVerdict]
    GATE_VERDICT_ALLOW: _ClassVar[GateVerdict]
    GATE_VERDICT_DENY: _ClassVar[GateVerdict]
    GATE_VERDICT_REQUIRE_APPROVAL: _ClassVar[GateVerdict]

class GateRuleKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GATE_RULE_KIND_UNSPECIFIED: _ClassVar[GateRuleKind]
    GATE_RULE_KIND_TOOL_POLICY: _ClassVar[GateRuleKind]
    GATE_RULE_KIND_TOOL_DENY: _ClassVar[GateRuleKind]
    GATE_RULE_KIND_THRESHOLD: _ClassVar[GateRuleKind]
    GATE_RULE_KIND_APPROVAL: _ClassVar[GateRuleKind]
    GATE_RULE_KIND_BLOCKED_TOOL: _ClassVar[GateRuleKind]
    GATE_RULE_KIND_APPROVAL_GRANTED: _ClassVar[GateRuleKind]
    GATE_RULE_KIND_NO_RULE: _ClassVar[GateRuleKind]
    GATE_RULE_KIND_UNDECLARED_TOOL: _ClassVar[GateRuleKind]
    GATE_RULE_KIND_ACCESS_POLICY: _ClassVar[GateRuleKind]

class ApprovalDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    APPROVAL_DECISION_UNSPECIFIED: _ClassVar[ApprovalDecision]
    APPROVAL_DECISION_APPROVE: _ClassVar[ApprovalDecision]
    APPROVAL_DECISION_REJECT: _ClassVar[ApprovalDecision]

class FinalizationReasonCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FINALIZATION_REASON_CODE_UNSPECIFIED: _ClassVar[FinalizationReasonCode]
    FINALIZATION_REASON_CODE_GOAL_NOT_MET: _ClassVar[FinalizationReasonCode]
    FINALIZATION_REASON_CODE_GUARDRAIL_VIOLATED: _ClassVar[FinalizationReasonCode]
    FINALIZATION_REASON_CODE_MISSING_REQUIRED_FIELD: _ClassVar[FinalizationReasonCode]
    FINALIZATION_REASON_CODE_OUTPUT_INCOMPLETE: _ClassVar[FinalizationReasonCode]
    FINALIZATION_REASON_CODE_TONE_MISMATCH: _ClassVar[FinalizationReasonCode]

class SuggestedAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SUGGESTED_ACTION_UNSPECIFIED: _ClassVar[SuggestedAction]
    SUGGESTED_ACTION_TOOL_CALL: _ClassVar[SuggestedAction]
    SUGGESTED_ACTION_CLARIFY_USER: _ClassVar[SuggestedAction]
    SUGGESTED_ACTION_REWRITE: _ClassVar[SuggestedAction]
    SUGGESTED_ACTION_ESCALATE: _ClassVar[SuggestedAction]
GATE_VERDICT_UNSPECIFIED: GateVerdict
GATE_VERDICT_ALLOW: GateVerdict
GATE_VERDICT_DENY: GateVerdict
GATE_VERDICT_REQUIRE_APPROVAL: GateVerdict
GATE_RULE_KIND_UNSPECIFIED: GateRuleKind
GATE_RULE_KIND_TOOL_POLICY: GateRuleKind
GATE_RULE_KIND_TOOL_DENY: GateRuleKind
GATE_RULE_KIND_THRESHOLD: GateRuleKind
GATE_RULE_KIND_APPROVAL: GateRuleKind
GATE_RULE_KIND_BLOCKED_TOOL: GateRuleKind
GATE_RULE_KIND_APPROVAL_GRANTED: GateRuleKind
GATE_RULE_KIND_NO_RULE: GateRuleKind
GATE_RULE_KIND_UNDECLARED_TOOL: GateRuleKind
GATE_RULE_KIND_ACCESS_POLICY: GateRuleKind
APPROVAL_DECISION_UNSPECIFIED: ApprovalDecision
APPROVAL_DECISION_APPROVE: ApprovalDecision
APPROVAL_DECISION_REJECT: ApprovalDecision
FINALIZATION_REASON_CODE_UNSPECIFIED: FinalizationReasonCode
FINALIZATION_REASON_CODE_GOAL_NOT_MET: FinalizationReasonCode
FINALIZATION_REASON_CODE_GUARDRAIL_VIOLATED: FinalizationReasonCode
FINALIZATION_REASON_CODE_MISSING_REQUIRED_FIELD: FinalizationReasonCode
FINALIZATION_REASON_CODE_OUTPUT_INCOMPLETE: FinalizationReasonCode
FINALIZATION_REASON_CODE_TONE_MISMATCH: FinalizationReasonCode
SUGGESTED_ACTION_UNSPECIFIED: SuggestedAction
SUGGESTED_ACTION_TOOL_CALL: SuggestedAction
SUGGESTED_ACTION_CLARIFY_USER: SuggestedAction
SUGGESTED_ACTION_REWRITE: SuggestedAction
SUGGESTED_ACTION_ESCALATE: SuggestedAction

class GateDecision(_message.Message):
    __slots__ = ("verdict", "reason", "rule", "rule_kind", "approver", "condition", "call_digest", "correlation_id")
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    RULE_KIND_FIELD_NUMBER: _ClassVar[int]
    APPROVER_FIELD_NUMBER: _ClassVar[int]
    CONDITION_FIELD_NUMBER: _ClassVar[int]
    CALL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    CORRELATION_ID_FIELD_NUMBER: _ClassVar[int]
    verdict: GateVerdict
    reason: str
    rule: str
    rule_kind: GateRuleKind
    approver: str
    condition: str
    call_digest: str
    correlation_id: str
    def __init__(self, verdict: _Optional[_Union[GateVerdict, str]] = ..., reason: _Optional[str] = ..., rule: _Optional[str] = ..., rule_kind: _Optional[_Union[GateRuleKind, str]] = ..., approver: _Optional[str] = ..., condition: _Optional[str] = ..., call_digest: _Optional[str] = ..., correlation_id: _Optional[str] = ...) -> None: ...

class Approval(_message.Message):
    __slots__ = ("name", "correlation_id", "job", "tool", "arguments", "call_digest", "approver", "reason", "condition", "decision", "decided_by", "comment", "request_time", "decide_time")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CORRELATION_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    CALL_DIGEST_FIELD_NUMBER: _ClassVar[int]
    APPROVER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CONDITION_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_TIME_FIELD_NUMBER: _ClassVar[int]
    DECIDE_TIME_FIELD_NUMBER: _ClassVar[int]
    name: str
    correlation_id: str
    job: str
    tool: str
    arguments: _struct_pb2.Struct
    call_digest: str
    approver: str
    reason: str
    condition: str
    decision: ApprovalDecision
    decided_by: str
    comment: str
    request_time: _timestamp_pb2.Timestamp
    decide_time: _timestamp_pb2.Timestamp
    def __init__(self, name: _Optional[str] = ..., correlation_id: _Optional[str] = ..., job: _Optional[str] = ..., tool: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., call_digest: _Optional[str] = ..., approver: _Optional[str] = ..., reason: _Optional[str] = ..., condition: _Optional[str] = ..., decision: _Optional[_Union[ApprovalDecision, str]] = ..., decided_by: _Optional[str] = ..., comment: _Optional[str] = ..., request_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., decide_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class FinalizationResult(_message.Message):
    __slots__ = ("passed", "skipped", "score", "reasons", "missing_fields", "suggested_action", "unchecked_guardrails", "decider")
    PASSED_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    MISSING_FIELDS_FIELD_NUMBER: _ClassVar[int]
    SUGGESTED_ACTION_FIELD_NUMBER: _ClassVar[int]
    UNCHECKED_GUARDRAILS_FIELD_NUMBER: _ClassVar[int]
    DECIDER_FIELD_NUMBER: _ClassVar[int]
    passed: bool
    skipped: bool
    score: float
    reasons: _containers.RepeatedCompositeFieldContainer[FinalizationReason]
    missing_fields: _containers.RepeatedScalarFieldContainer[str]
    suggested_action: SuggestedAction
    unchecked_guardrails: _containers.RepeatedScalarFieldContainer[str]
    decider: Decider
    def __init__(self, passed: _Optional[bool] = ..., skipped: _Optional[bool] = ..., score: _Optional[float] = ..., reasons: _Optional[_Iterable[_Union[FinalizationReason, _Mapping]]] = ..., missing_fields: _Optional[_Iterable[str]] = ..., suggested_action: _Optional[_Union[SuggestedAction, str]] = ..., unchecked_guardrails: _Optional[_Iterable[str]] = ..., decider: _Optional[_Union[Decider, _Mapping]] = ...) -> None: ...

class LlmUsage(_message.Message):
    __slots__ = ("calls", "input_tokens", "output_tokens", "cost_usd")
    CALLS_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    COST_USD_FIELD_NUMBER: _ClassVar[int]
    calls: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    def __init__(self, calls: _Optional[int] = ..., input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cost_usd: _Optional[float] = ...) -> None: ...

class Decider(_message.Message):
    __slots__ = ("name", "usage", "fallback_reason")
    NAME_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_REASON_FIELD_NUMBER: _ClassVar[int]
    name: str
    usage: LlmUsage
    fallback_reason: str
    def __init__(self, name: _Optional[str] = ..., usage: _Optional[_Union[LlmUsage, _Mapping]] = ..., fallback_reason: _Optional[str] = ...) -> None: ...

class FinalizationReason(_message.Message):
    __slots__ = ("code", "detail")
    CODE_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    code: FinalizationReasonCode
    detail: str
    def __init__(self, code: _Optional[_Union[FinalizationReasonCode, str]] = ..., detail: _Optional[str] = ...) -> None: ...
