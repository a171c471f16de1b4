from adas.v1 import skill_pb2 as _skill_pb2
from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Solution(_message.Message):
    __slots__ = ("name", "source", "etag", "skills", "diagnostics")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    SKILLS_FIELD_NUMBER: _ClassVar[int]
    DIAGNOSTICS_FIELD_NUMBER: _ClassVar[int]
    name: str
    source: str
    etag: str
    skills: _containers.RepeatedScalarFieldContainer[str]
    diagnostics: _containers.RepeatedCompositeFieldContainer[_skill_pb2.Diagnostic]
    def __init__(self, name: _Optional[str] = ..., source: _Optional[str] = ..., etag: _Optional[str] = ..., skills: _Optional[_Iterable[str]] = ..., diagnostics: _Optional[_Iterable[_Union[_skill_pb2.Diagnostic, _Mapping]]] = ...) -> None: ...

class PutSolutionRequest(_message.Message):
    __slots__ = ("name", "source", "etag")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    name: str
    source: str
    etag: str
    def __init__(self, name: _Optional[str] = ..., source: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class GetSolutionRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListSolutionsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListSolutionsResponse(_message.Message):
    __slots__ = ("solutions",)
    SOLUTIONS_FIELD_NUMBER: _ClassVar[int]
    solutions: _containers.RepeatedCompositeFieldContainer[Solution]
    def __init__(self, solutions: _Optional[_Iterable[_Union[Solution, _Mapping]]] = ...) -> None: ...

class DeleteSolutionRequest(_message.Message):
    __slots__ = ("name", "etag")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    name: str
    etag: str
    def __init__(self, name: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteSolutionResponse(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class Connector(_message.Message):
    __slots__ = ("name", "url", "deployment")
    NAME_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    DEPLOYMENT_FIELD_NUMBER: _ClassVar[int]
    name: str
    url: str
    deployment: bool
    def __init__(self, name: _Optional[str] = ..., url: _Optional[str] = ..., deployment: _Optional[bool] = ...) -> None: ...

class PutConnectorRequest(_message.Message):
    __slots__ = ("connector",)
    CONNECTOR_FIELD_NUMBER: _ClassVar[int]
    connector: Connector
    def __init__(self, connector: _Optional[_Union[Connector, _Mapping]] = ...) -> None: ...

class GetConnectorRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListConnectorsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListConnectorsResponse(_message.Message):
    __slots__ = ("connectors",)
    CONNECTORS_FIELD_NUMBER: _ClassVar[int]
    connectors: _containers.RepeatedCompositeFieldContainer[Connector]
    def __init__(self, connectors: _Optional[_Iterable[_Union[Connector, _Mapping]]] = ...) -> None: ...

class DeleteConnectorRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class DeleteConnectorResponse(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class GetSkillRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListSkillsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListSkillsResponse(_message.Message):
    __slots__ = ("skills", "next_page_token")
    SKILLS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    skills: _containers.RepeatedCompositeFieldContainer[_skill_pb2.Skill]
    next_page_token: str
    def __init__(self, skills: _Optional[_Iterable[_Union[_skill_pb2.Skill, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ValidateSkillRequest(_message.Message):
    __slots__ = ("source", "format", "file_name")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    source: str
    format: _skill_pb2.SkillFormat
    file_name: str
    def __init__(self, source: _Optional[str] = ..., format: _Optional[_Union[_skill_pb2.SkillFormat, str]] = ..., file_name: _Optional[str] = ...) -> None: ...

class ValidateSkillResponse(_message.Message):
    __slots__ = ("valid", "diagnostics")
    VALID_FIELD_NUMBER: _ClassVar[int]
    DIAGNOSTICS_FIELD_NUMBER: _ClassVar[int]
    valid: bool
    diagnostics: _containers.RepeatedCompositeFieldContainer[_skill_pb2.Diagnostic]
    def __init__(self, valid: _Optional[bool] = ..., diagnostics: _Optional[_Iterable[_Union[_skill_pb2.Diagnostic, _Mapping]]] = ...) -> None: ...

class PutSkillRequest(_message.Message):
    __slots__ = ("name", "source", "format", "etag", "request_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    source: str
    format: _skill_pb2.SkillFormat
    etag: str
    request_id: str
    def __init__(self, name: _Optional[str] = ..., source: _Optional[str] = ..., format: _Optional[_Union[_skill_pb2.SkillFormat, str]] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class DeleteSkillRequest(_message.Message):
    __slots__ = ("name", "etag")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    name: str
    etag: str
    def __init__(self, name: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class DeleteSkillResponse(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class BootstrapSkillRequest(_message.Message):
    __slots__ = ("slag", "template", "request_id")
    SLAG_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    slag: str
    template: str
    request_id: str
    def __init__(self, slag: _Optional[str] = ..., template: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class ListTemplatesRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTemplatesResponse(_message.Message):
    __slots__ = ("templates", "next_page_token")
    TEMPLATES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    templates: _containers.RepeatedCompositeFieldContainer[_skill_pb2.Template]
    next_page_token: str
    def __init__(self, templates: _Optional[_Iterable[_Union[_skill_pb2.Template, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class BindResourcesRequest(_message.Message):
    __slots__ = ("skill", "resources")
    class ResourcesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    SKILL_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    skill: str
    resources: _containers.ScalarMap[str, str]
    def __init__(self, skill: _Optional[str] = ..., resources: _Optional[_Mapping[str, str]] = ...) -> None: ...

class BindResourcesResponse(_message.Message):
    __slots__ = ("resources", "unbound_optional")
    class ResourcesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    UNBOUND_OPTIONAL_FIELD_NUMBER: _ClassVar[int]
    resources: _containers.ScalarMap[str, str]
    unbound_optional: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, resources: _Optional[_Mapping[str, str]] = ..., unbound_optional: _Optional[_Iterable[str]] = ...) -> None: ...

class ResolveToolsRequest(_message.Message):
    __slots__ = ("skill",)
    SKILL_FIELD_NUMBER: _ClassVar[int]
    skill: str
    def __init__(self, skill: _Optional[str] = ...) -> None: ...

class ResolveToolsResponse(_message.Message):
    __slots__ = ("tools", "stale", "stale_sources", "unaccepted_tools")
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    STALE_FIELD_NUMBER: _ClassVar[int]
    STALE_SOURCES_FIELD_NUMBER: _ClassVar[int]
    UNACCEPTED_TOOLS_FIELD_NUMBER: _ClassVar[int]
    tools: _containers.RepeatedCompositeFieldContainer[_skill_pb2.ToolSpec]
    stale: bool
    stale_sources: _containers.RepeatedScalarFieldContainer[str]
    unaccepted_tools: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tools: _Optional[_Iterable[_Union[_skill_pb2.ToolSpec, _Mapping]]] = ..., stale: _Optional[bool] = ..., stale_sources: _Optional[_Iterable[str]] = ..., unaccepted_tools: _Optional[_Iterable[str]] = ...) -> None: ...

class AcceptToolsRequest(_message.Message):
    __slots__ = ("skill", "tools")
    SKILL_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    skill: str
    tools: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, skill: _Optional[str] = ..., tools: _Optional[_Iterable[str]] = ...) -> None: ...

class InvalidateToolCacheRequest(_message.Message):
    __slots__ = ("skill", "server_uri", "all", "request_id")
    SKILL_FIELD_NUMBER: _ClassVar[int]
    SERVER_URI_FIELD_NUMBER: _ClassVar[int]
    ALL_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    skill: str
    server_uri: str
    all: bool
    request_id: str
    def __init__(self, skill: _Optional[str] = ..., server_uri: _Optional[str] = ..., all: _Optional[bool] = ..., request_id: _Optional[str] = ...) -> None: ...

class InvalidateToolCacheResponse(_message.Message):
    __slots__ = ("invalidated_entries",)
    INVALIDATED_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    invalidated_entries: int
    def __init__(self, invalidated_entries: _Optional[int] = ...) -> None: ...
