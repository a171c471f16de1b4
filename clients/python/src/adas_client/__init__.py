"""Hand-written helpers beside the generated adas.v1 modules (which
clients/generate.sh rewrites, so nothing hand-written lives there): a channel
that presents an API key, waiting on a job's events, and reading the
google.rpc details every error of the suite carries.

    from adas.v1 import orchestrator_service_pb2 as orch, orchestrator_service_pb2_grpc
    with adas_client.channel("127.0.0.1:50050", api_key=key) as ch:
        jobs = orchestrator_service_pb2_grpc.OrchestratorServiceStub(ch)
        job = jobs.StartJob(orch.StartJobRequest(skill="skills/cs-tier-1", goal="I want a refund"))
        event = adas_client.wait_until_paused_or_done(jobs, job.name)
"""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING, Callable, Iterator, Protocol, TypeVar

import grpc
from google.rpc import error_details_pb2, status_pb2

from adas.v1 import job_pb2, orchestrator_service_pb2

if TYPE_CHECKING:  # typeshed's names for what a call returns; not importable at run time
    from grpc import _CallFuture, _CallIterator

__all__ = ["ErrorDetails", "Watcher", "channel", "error_details", "wait_for", "wait_until_paused_or_done"]

_Request = TypeVar("_Request")
_Response = TypeVar("_Response")


@dataclasses.dataclass
class _CallDetails(grpc.ClientCallDetails):
    method: str
    timeout: float | None
    metadata: tuple[tuple[str, str | bytes], ...] | None
    credentials: grpc.CallCredentials | None
    wait_for_ready: bool | None
    compression: grpc.Compression | None


class _Bearer(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor,
              grpc.StreamUnaryClientInterceptor, grpc.StreamStreamClientInterceptor):
    """Adds `authorization: Bearer <key>` to every call. An interceptor rather
    than grpc's call credentials: those are refused on plain-text channels,
    and a suite on loopback may check keys without TLS."""

    def __init__(self, key: str) -> None:
        self._header = ("authorization", f"Bearer {key}")

    def _details(self, details: grpc.ClientCallDetails) -> grpc.ClientCallDetails:
        return _CallDetails(details.method, details.timeout, (*(details.metadata or ()), self._header),
                            details.credentials, details.wait_for_ready, details.compression)

    def intercept_unary_unary(
            self, continuation: Callable[[grpc.ClientCallDetails, _Request], _CallFuture[_Response]],
            client_call_details: grpc.ClientCallDetails, request: _Request) -> _CallFuture[_Response]:
        return continuation(self._details(client_call_details), request)

    def intercept_unary_stream(
            self, continuation: Callable[[grpc.ClientCallDetails, _Request], _CallIterator[_Response]],
            client_call_details: grpc.ClientCallDetails, request: _Request) -> _CallIterator[_Response]:
        return continuation(self._details(client_call_details), request)

    def intercept_stream_unary(
            self, continuation: Callable[[grpc.ClientCallDetails, Iterator[_Request]], _CallFuture[_Response]],
            client_call_details: grpc.ClientCallDetails,
            request_iterator: Iterator[_Request]) -> _CallFuture[_Response]:
        return continuation(self._details(client_call_details), request_iterator)

    def intercept_stream_stream(
            self, continuation: Callable[[grpc.ClientCallDetails, Iterator[_Request]], _CallIterator[_Response]],
            client_call_details: grpc.ClientCallDetails,
            request_iterator: Iterator[_Request]) -> _CallIterator[_Response]:
        return continuation(self._details(client_call_details), request_iterator)


def channel(address: str, api_key: str | None = None,
            ca: bytes | str | os.PathLike[str] | None = None) -> grpc.Channel:
    """A channel to the suite at `address`: `host:port` or `http://host:port`
    (plain text), `https://host:port` (TLS, verified against the system's
    roots, or `ca`: a PEM file's path or its bytes, as the CLI's --ca; a
    `ca` means TLS whatever the scheme).
    `api_key` is sent as `authorization: Bearer <key>` on every call; None
    (or empty) sends none, as a suite in dev mode expects."""
    secure = address.startswith("https://") or ca is not None
    target = address.split("://", 1)[-1].rstrip("/")
    if secure:
        if isinstance(ca, (str, os.PathLike)):
            with open(ca, "rb") as file:
                ca = file.read()
        made = grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates=ca))
    else:
        made = grpc.insecure_channel(target)
    if api_key and api_key.strip():
        made = grpc.intercept_channel(made, _Bearer(api_key.strip()))
    return made


class _EventStream(Protocol):
    """What a WatchJob call returns: the events, and a way to end the call."""

    def __iter__(self) -> Iterator[job_pb2.JobEvent]: ...

    def cancel(self) -> bool: ...


class Watcher(Protocol):
    """An OrchestratorServiceStub, or anything with its WatchJob."""

    def WatchJob(self, request: orchestrator_service_pb2.WatchJobRequest,  # noqa: N802 (the RPC's name)
                 timeout: float | None = None) -> _EventStream: ...


_ENDED = frozenset({job_pb2.JOB_STATUS_COMPLETED, job_pb2.JOB_STATUS_FAILED, job_pb2.JOB_STATUS_CANCELLED})
_PAUSED_OR_DONE = frozenset({job_pb2.JOB_EVENT_TYPE_PAUSED, job_pb2.JOB_EVENT_TYPE_COMPLETED,
                             job_pb2.JOB_EVENT_TYPE_FAILED, job_pb2.JOB_EVENT_TYPE_CANCELLED})


def wait_for(stub: Watcher, name: str, predicate: Callable[[job_pb2.JobEvent], bool],
             timeout: float = 60.0, after_event_id: str = "") -> job_pb2.JobEvent | None:
    """The first of job `name`'s events (after `after_event_id`; empty: from
    the first) that satisfies `predicate`, or None when the job ends without
    one. Raises grpc.RpcError when the call fails (DEADLINE_EXCEEDED after
    `timeout` seconds, NOT_FOUND, ...).

    When the job has ended, the rest of the stream is read to its end, as
    WatchJob's contract asks (a dropped stream is reset, and the server's
    HTTP/2 closes a connection that resets too many); a job that is still
    going has no end to read to, so that call is cancelled."""
    events = stub.WatchJob(orchestrator_service_pb2.WatchJobRequest(name=name, after_event_id=after_event_id),
                           timeout=timeout)
    for event in events:
        if predicate(event):
            if event.status in _ENDED:
                for _ in events:  # the status follows right after the job's last event
                    pass
            else:
                events.cancel()
            return event
    return None


def wait_until_paused_or_done(stub: Watcher, name: str, timeout: float = 60.0,
                              after_event_id: str = "") -> job_pb2.JobEvent:
    """The job's next PAUSED, COMPLETED, FAILED or CANCELLED event. To wait
    for the pause after answering one, pass the previous event's `event_id`
    as `after_event_id` (from the first event, it is the same pause again).
    A PAUSED event's `data` holds what SubmitInput needs (`correlation_id`,
    `requested_fields`). Types, not statuses: every event of the write that
    paused a job says PAUSED, and stopping early leaves the pause unread."""
    event = wait_for(stub, name, lambda event: event.type in _PAUSED_OR_DONE, timeout, after_event_id)
    if event is None:  # the server ends the stream only after the job's last event
        raise LookupError(f"{name}: the event stream ended without a pause or an end")
    return event


@dataclasses.dataclass(frozen=True)
class ErrorDetails:
    """The google.rpc details of a failed call (empty ones when it has none)."""

    status: status_pb2.Status | None
    """The whole google.rpc.Status, from the `grpc-status-details-bin` trailer."""
    field_violations: list[error_details_pb2.BadRequest.FieldViolation]
    """A refused request's fields (from every BadRequest), and why."""
    error_info: error_details_pb2.ErrorInfo | None
    """The machine-readable reason (`reason`, `domain`, `metadata`)."""
    retry_info: error_details_pb2.RetryInfo | None
    """When to try again (rate limits, active-job quotas)."""


def error_details(error: grpc.RpcError) -> ErrorDetails:
    """The google.rpc details of `error`, read from its trailer (the same as
    grpcio-status' from_call, without that package's protobuf pins)."""
    try:
        trailers = error.trailing_metadata() or ()
    except AttributeError:  # an RpcError raised by hand, not by a call, has no trailers
        trailers = ()
    status = next((status_pb2.Status.FromString(trailer.value) for trailer in trailers
                   if trailer.key == "grpc-status-details-bin"), None)
    violations: list[error_details_pb2.BadRequest.FieldViolation] = []
    error_info = retry_info = None
    for detail in status.details if status else ():
        # Unpack is False for another type: each detail is tried as each kind.
        bad_request = error_details_pb2.BadRequest()
        info = error_details_pb2.ErrorInfo()
        retry = error_details_pb2.RetryInfo()
        if detail.Unpack(bad_request):
            violations.extend(bad_request.field_violations)
        elif detail.Unpack(info):
            error_info = info
        elif detail.Unpack(retry):
            retry_info = retry
    return ErrorDetails(status, violations, error_info, retry_info)
