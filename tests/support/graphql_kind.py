"""A GraphQL-like kind of access path, added the way an application adds a kind: this module
(its landscape entry, its builder, its invoker) and one table row, :data:`GRAPHQL`.

``add_url(url, kind="graphql", name=...)`` asks the endpoint for its introspection by
``POST`` (through ``load_document``: the document cache and its limits apply), makes one
read-only endpoint per field of the ``Query`` type (its arguments the input schema, the
fields of its type the endpoint's fields) and calls a field with a ``POST`` of a query
selecting them. An answer's GraphQL ``errors`` become the router's typed errors: a code
saying the service cannot answer now is unavailable (retried, cooled, fallen back from),
any other is a deterministic failure; HTTP failures map as every HTTP route's do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict

from schemarouter_integrations import EndpointSpec, FieldSpec, RetryPolicy, ToolSpec
from schemarouter_integrations.adapters import HttpRouteEntry, Kind, UrlRequest, load_document
from schemarouter_integrations.errors import (
    InvocationUnavailableError,
    NonRetryableInvocationError,
    RegistrationError,
)

INTROSPECTION = (
    "query IntrospectionQuery { __schema { queryType { name } types { kind name fields { name "
    "description args { name type { kind name ofType { kind name } } } type { kind name ofType "
    "{ kind name ofType { kind name } } } } } } }"
)
UNAVAILABLE_CODES = frozenset({"SERVICE_UNAVAILABLE", "RATE_LIMITED", "TIMEOUT"})
_JSON_TYPES = {"Int": "integer", "Float": "number", "Boolean": "boolean"}


class GraphQLOptions(TypedDict, total=False):
    """``add_url(kind="graphql", ...)``: ``operations`` names the ``Query`` fields to offer."""

    operations: Sequence[str] | None
    description: str | None
    retry: RetryPolicy | None
    cost_units: float | None


class GraphQLRoute(HttpRouteEntry):
    """``[routes.<name>]`` with ``kind = "graphql"``: the endpoint's URL and ``operations``."""

    kind: Literal["graphql"]
    operations: list[str] | None = None


async def build_route(url: str, request: UrlRequest) -> tuple[ToolSpec, GraphQLInvoker]:
    """Introspect the GraphQL endpoint at *url* and build its contract and invoker."""
    origin = await request.origin(url)
    document = await load_document(
        request.document_target(origin),
        url,
        method="POST",
        body={"query": INTROSPECTION},
        failure="could not introspect the GraphQL endpoint",
    )
    schema = (document.get("data") or {}).get("__schema") if isinstance(document, dict) else None
    if not isinstance(schema, dict):
        raise RegistrationError(f"{url} answered no GraphQL schema to the introspection")
    types = {t["name"]: t for t in schema.get("types", []) if isinstance(t, dict)}
    query_type = types.get((schema.get("queryType") or {}).get("name", "Query"), {})
    options: GraphQLOptions = request.registration.options  # type: ignore[assignment]
    wanted = options.get("operations")
    endpoints, selections = [], {}
    for field in query_type.get("fields") or []:
        if wanted is not None and field["name"] not in wanted:
            continue
        returned = types.get(_named(field["type"]), {})
        selections[field["name"]] = [f["name"] for f in returned.get("fields") or []]
        endpoints.append(_endpoint(field, returned, options))
    registration = request.registration
    spec = ToolSpec(
        name=registration.name,
        provider=registration.provider,
        access_mode=registration.access_mode,
        description=options.get("description") or f"GraphQL endpoint {url}",
        endpoints=endpoints,
        origin=origin,
    )
    return spec, GraphQLInvoker(request, url, origin, selections)


def _endpoint(field: Mapping[str, Any], returned: Mapping[str, Any], options: GraphQLOptions) -> EndpointSpec:
    arguments = {a["name"]: {"type": _JSON_TYPES.get(_named(a["type"]), "string")} for a in field["args"]}
    required = [a["name"] for a in field["args"] if a["type"]["kind"] == "NON_NULL"]
    return EndpointSpec(
        name=field["name"],
        description=field.get("description") or "",
        input_schema={"type": "object", "properties": arguments, "required": required},
        fields=[_field(f) for f in returned["fields"]],
        read_only=True,  # a field of the Query type: a read by GraphQL's own rules
        retry=options.get("retry") or RetryPolicy(),
        cost_units=options.get("cost_units") or 1.0,
    )


def _field(field: Mapping[str, Any]) -> FieldSpec:
    """A field of the returned type; one of GraphQL's ``ID`` type identifies a record."""
    identity = _named(field["type"]) == "ID"
    return FieldSpec(name=field["name"], description=field.get("description") or "", identity=identity)


def _named(type_: Mapping[str, Any]) -> str:
    """The named type under LIST and NON_NULL wrappers."""
    while type_.get("name") is None and type_.get("ofType"):
        type_ = type_["ofType"]
    return str(type_.get("name"))


class GraphQLInvoker:
    """Calls one ``Query`` field with a ``POST`` selecting its fields; ``errors`` mapped."""

    def __init__(self, request: UrlRequest, url: str, origin: str, selections: dict[str, list[str]]) -> None:
        self.target = request.target(origin)
        self.url = url
        self.selections = selections

    async def __call__(self, call: Any) -> Any:
        arguments = {k: v for k, v in call.arguments.items() if v is not None}
        declared = ", ".join(f"${name}: {_graphql_type(value)}" for name, value in arguments.items())
        passed = ", ".join(f"{name}: ${name}" for name in arguments)
        query = (
            f"query{f'({declared})' if declared else ''} {{ {call.endpoint}"
            f"{f'({passed})' if passed else ''} {{ {' '.join(self.selections[call.endpoint])} }} }}"
        )
        answer = await self.target.fetch_json(
            "POST", self.url, json_body={"query": query, "variables": arguments}
        )
        errors = answer.get("errors") if isinstance(answer, dict) else None
        if errors:
            codes = {str((e.get("extensions") or {}).get("code")) for e in errors}
            message = f"{call.endpoint}: " + "; ".join(str(e.get("message")) for e in errors)
            if codes & UNAVAILABLE_CODES:
                raise InvocationUnavailableError(message)
            raise NonRetryableInvocationError(message)
        return answer["data"][call.endpoint]


def _graphql_type(value: Any) -> str:
    if isinstance(value, bool):
        return "Boolean"
    return "Int" if isinstance(value, int) else "Float" if isinstance(value, float) else "String"


GRAPHQL = Kind("graphql", GraphQLRoute, build=build_route, options=GraphQLOptions)
"""The table row: ``register_kind(GRAPHQL)`` and ``add_url`` and the landscape accept it."""
