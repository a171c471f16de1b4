from adas.v1 import job_pb2 as _job_pb2
from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ResolveNextRequest(_message.Message):
    __slots__ = ("job", "expected_version", "view")
    JOB_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    job: str
    expected_version: int
    view: _job_pb2.JobView
    def __init__(self, job: _Optional[str] = ..., expected_version: _Optional[int] = ..., view: _Optional[_Union[_job_pb2.JobView, str]] = ...) -> None: ...

class ResolveNextResponse(_message.Message):
    __slots__ = ("call", "waiting", "done", "aborted", "job")
    CALL_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    ABORTED_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    call: NextCall
    waiting: _job_pb2.Waiting
    done: PlanDone
    aborted: PlanAborted
    job: _job_pb2.Job
    def __init__(self, call: _Optional[_Union[NextCall, _Mapping]] = ..., waiting: _Optional[_Union[_job_pb2.Waiting, _Mapping]] = ..., done: _Optional[_Union[PlanDone, _Mapping]] = ..., aborted: _Optional[_Union[PlanAborted, _Mapping]] = ..., job: _Optional[_Union[_job_pb2.Job, _Mapping]] = ...) -> None: ...

class NextCall(_message.Message):
    __slots__ = ("tool", "arguments", "call_path")
    TOOL_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    CALL_PATH_FIELD_NUMBER: _ClassVar[int]
    tool: str
    arguments: _struct_pb2.Struct
    call_path: str
    def __init__(self, tool: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., call_path: _Optional[str] = ...) -> None: ...

class PlanDone(_message.Message):
    __slots__ = ("value",)
    VALUE_FIELD_NUMBER: _ClassVar[int]
    value: _struct_pb2.Value
    def __init__(self, value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class PlanAborted(_message.Message):
    __slots__ = ("reason", "replacement_program")
    REASON_FIELD_NUMBER: _ClassVar[int]
    REPLACEMENT_PROGRAM_FIELD_NUMBER: _ClassVar[int]
    reason: str
    replacement_program: str
    def __init__(self, reason: _Optional[str] = ..., replacement_program: _Optional[str] = ...) -> None: ...

class SubmitInputRequest(_message.Message):
    __slots__ = ("job", "correlation_id", "fields", "request_id")
    class FieldsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _struct_pb2.Value
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...
    JOB_FIELD_NUMBER: _ClassVar[int]
    CORRELATION_ID_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    job: str
    correlation_id: str
    fields: _containers.MessageMap[str, _struct_pb2.Value]
    request_id: str
    def __init__(self, job: _Optional[str] = ..., correlation_id: _Optional[str] = ..., fields: _Optional[_Mapping[str, _struct_pb2.Value]] = ..., request_id: _Optional[str] = ...) -> None: ...

class GetWaitingRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListWaitingRequest(_message.Message):
    __slots__ = ("parent", "page_size", "page_token")
    PARENT_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    parent: str
    page_size: int
    page_token: str
    def __init__(self, parent: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListWaitingResponse(_message.Message):
    __slots__ = ("jobs", "next_page_token")
    JOBS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    jobs: _containers.RepeatedCompositeFieldContainer[_job_pb2.Job]
    next_page_token: str
    def __init__(self, jobs: _Optional[_Iterable[_Union[_job_pb2.Job, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
