"""What the HTTP adapters (OpenAPI, OPTIMADE) share: per-endpoint options, contracts, invoker.

``add_url`` hands an adapter a :class:`UrlRegistration`; the adapter discovers its
endpoints and a :class:`RouteBuilder` checks the options for that kind, applies the common
ones to each endpoint (``fields`` overrides, ``retry``, ``cost_units``), checks that
per-endpoint mappings name known endpoints and builds the ``ToolSpec`` (``description``).
:class:`HttpInvoker` is the base of the invokers that send each endpoint to one
:class:`HttpTarget`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import ValidationError

from .._caching.keys import answer_scope
from .._contracts import EndpointSpec, FieldSpec, RetryPolicy, ServerProjectionSpec, ToolSpec
from ..errors import RegistrationError, SchemaValidationError
from ._fields import coerce_fields, merge_fields, per_endpoint, unknown_names
from ._http import HttpTarget
from ._options import UrlOptions, check_options

if TYPE_CHECKING:
    from .._planning import ToolCall

Endpoint = TypeVar("Endpoint")
Options = TypeVar("Options", bound=Mapping[str, Any])


@dataclass(frozen=True, slots=True)
class UrlRegistration:
    """What ``add_url`` was asked to register: the tool's identity and its options."""

    kind: str
    name: str
    provider: str | None
    access_mode: str | None
    options: UrlOptions


NOTE_REASON_CHARS = 160
"""How much of a left-out endpoint's reason the tool description keeps (the log has all)."""


def left_out_note(failed: Mapping[str, str]) -> str:
    """``Left out: name (reason); ...`` for the end of a tool's description ("" for none)."""
    if not failed:
        return ""
    parts = []
    for name, reason in failed.items():
        shown = reason if len(reason) <= NOTE_REASON_CHARS else reason[: NOTE_REASON_CHARS - 1] + "…"
        parts.append(f"{name} ({shown})")
    return "Left out: " + "; ".join(parts) + "."


class RouteBuilder(Generic[Options]):
    """Builds the contract of one ``add_url`` route from the endpoints its adapter found.

    The options are checked against *schema* (the kind's TypedDict). An option is one value
    for every endpoint or a mapping keyed by any of an endpoint's names (its endpoint name,
    its operationId or entry type); *keyed* lists the options that may be such a mapping.
    *noun* names endpoints in messages (``"operation"``, ``"endpoint"``).
    """

    def __init__(
        self, registration: UrlRegistration, schema: type[Options], *, noun: str, keyed: tuple[str, ...]
    ) -> None:
        self.registration = registration
        what = f"add_url(kind={registration.kind!r}, name={registration.name!r})"
        self.options: Options = check_options(registration.options, schema, what=what)
        self.noun = noun
        self.keyed = keyed

    def value(self, option: str, names: tuple[str, ...]) -> Any:
        """The value of *option* for the endpoint known by *names* (``None``: not given)."""
        return per_endpoint(self.options.get(option), *names)

    def fields(
        self, derived: Iterable[FieldSpec], names: tuple[str, ...], *, applies: bool, what: str
    ) -> tuple[FieldSpec, ...]:
        """*derived* with ``fields=`` applied: always when keyed by name, else when *applies*."""
        option = self.options.get("fields")
        override = per_endpoint(option, *names)
        if override is not None and (applies or isinstance(option, Mapping)):
            return merge_fields(derived, coerce_fields(override, what=what))
        return tuple(derived)

    def endpoint(
        self,
        name: str,
        names: tuple[str, ...],
        *,
        invalid: str,
        fields: tuple[FieldSpec, ...],
        projection: ServerProjectionSpec | None,
        **contract: Any,
    ) -> EndpointSpec:
        """The endpoint contract with ``retry`` and ``cost_units`` applied; *invalid* prefixes errors."""
        cost = self.value("cost_units", names)
        try:
            return EndpointSpec(
                name=name,
                fields=fields,
                projection=projection,
                retry=self.value("retry", names) or RetryPolicy(),
                cost_units=1.0 if cost is None else cost,
                **contract,
            )
        except ValidationError as exc:
            raise RegistrationError(f"{invalid}: {exc}") from exc

    def tool(
        self,
        *,
        where: str,
        description: str,
        endpoints: list[EndpointSpec],
        known: Mapping[str, str],
        origin: str | None = None,
        note: str = "",
    ) -> ToolSpec:
        """The ToolSpec; *known* maps each endpoint name to its other name (operationId, entry);
        *origin* is where the invoker sends every request; *note* follows the description
        (the adapter's or the ``description=`` option's), e.g. what registration left out.

        Refuses a per-endpoint mapping that names no endpoint, and a contract the document
        cannot give (a ``RegistrationError`` naming *where*).
        """
        names = set(known) | set(known.values())
        for option in self.keyed:
            keys = self.options.get(option)
            unknown = sorted(set(keys) - names) if isinstance(keys, Mapping) else []
            if unknown:
                raise unknown_names(f"{option}=", self.noun, unknown, known)
        try:
            return ToolSpec(
                name=self.registration.name,
                provider=self.registration.provider,
                access_mode=self.registration.access_mode,
                description=" ".join(t for t in (self.options.get("description") or description, note) if t),
                endpoints=endpoints,
                origin=origin,
            )
        except ValidationError as exc:
            raise RegistrationError(f"{where} gives no valid tool: {exc}") from exc


class HttpInvoker(ABC, Generic[Endpoint]):
    """A trusted invoker that sends each endpoint of one tool to one :class:`HttpTarget`."""

    noun = "endpoint"

    def __init__(self, target: HttpTarget, endpoints: Mapping[str, Endpoint]) -> None:
        self.target = target
        self.endpoints = dict(endpoints)
        self.answer_scope = answer_scope(target.origin, target.headers)
        """Where the calls go and a digest of the credentials sent (part of the answer key)."""
        self.left_out: dict[str, str] = {}
        """What registration left out of the document (operation or entry type -> why)."""

    async def __call__(self, call: ToolCall) -> Any:
        return await self.send(call.endpoint, call.arguments, extra_params=call.server_projection)

    def endpoint(self, name: str) -> Endpoint:
        """What this invoker knows about endpoint *name*; an unknown name is refused."""
        known = self.endpoints.get(name)
        if known is None:
            raise SchemaValidationError(f"this tool has no {self.noun} {name!r}")
        return known

    @abstractmethod
    async def send(
        self, endpoint: str, arguments: Mapping[str, Any], *, extra_params: Mapping[str, str] | None = None
    ) -> Any:
        """Send *endpoint* with canonical *arguments* plus *extra_params* (query); the raw response."""
