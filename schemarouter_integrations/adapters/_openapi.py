"""OpenAPI 3.0/3.1 documents as tools: one endpoint per operation, bound to an httpx invoker.

The document is fetched with the router's shared client and parsed as JSON or YAML.
Requests only ever go to the document's origin (the ``servers`` entry on that origin), or
to ``base_url`` when the application names it; ``headers`` (API keys) go only there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

import httpx
import yaml
from pydantic import ValidationError

from .._contracts import EndpointSpec, FieldSpec, RetryPolicy, ServerProjectionSpec, ToolSpec, canonical_json
from ..errors import InvocationError, RegistrationError
from ._fields import (
    as_dict,
    coerce_fields,
    complete_projection,
    merge_fields,
    per_endpoint,
    reject_unknown_options,
    safe_name,
    short_description,
    tool_spec,
    unique_name,
)
from ._http import HttpTarget, public_url
from ._openapi_invoker import Location, OpenApiInvoker, Operation, Parameter
from ._openapi_schema import SchemaResolver
from ._openapi_servers import server_base

OPTIONS = frozenset(
    {
        "projection",
        "fields",
        "read_only",
        "operations",
        "retry",
        "cost_units",
        "description",
        "validate_output",
    }
)
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_READ_ONLY_METHODS = frozenset({"get", "head"})
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
MAX_DOCUMENT_NODES = 2_000_000
_ACCEPT_DOCUMENT = "application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.5"


async def build_openapi_route(
    url: str,
    *,
    name: str,
    target: HttpTarget,
    document_target: HttpTarget,
    base_url: str | None,
    provider: str | None,
    access_mode: str | None,
    options: Mapping[str, Any],
) -> tuple[ToolSpec, OpenApiInvoker]:
    """Read the OpenAPI document at *url* and build the tool contract and its invoker."""
    reject_unknown_options(options, OPTIONS, what=f"add_url(kind='openapi', name={name!r})")
    document = await load_document(document_target, url)
    version = openapi_version(document)
    resolver = SchemaResolver(document, str(httpx.URL(url).copy_with(fragment=None)), version)
    builder = _Builder(document, resolver, url, base_url, target, options)
    endpoints, operations = builder.build()
    info = as_dict(document.get("info"))
    description = options.get("description") or short_description(
        " — ".join(t for t in (info.get("title"), info.get("description")) if isinstance(t, str))
    )
    spec = tool_spec(
        where=f"the OpenAPI document at {public_url(url)}",
        name=name,
        provider=provider,
        access_mode=access_mode,
        description=description,
        endpoints=endpoints,
    )
    return spec, OpenApiInvoker(target, operations)


async def load_document(target: HttpTarget, url: str) -> dict[str, Any]:
    """Fetch and parse a JSON or YAML document; every failure is a ``RegistrationError``."""
    try:
        fetched = await target.fetch("GET", url, accept=_ACCEPT_DOCUMENT)
    except InvocationError as exc:
        raise RegistrationError(f"could not fetch the OpenAPI document {public_url(url)}: {exc}") from exc
    return parse_document(fetched.body, where=public_url(url))


def parse_document(body: bytes, *, where: str) -> dict[str, Any]:
    """JSON, else YAML (safe loader), normalised to plain JSON data."""
    try:
        document: Any = json.loads(body)
    except RecursionError:
        raise RegistrationError(f"{where} is nested too deeply") from None
    except ValueError:
        try:
            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            document = _plain(yaml.load(body, Loader=loader), [MAX_DOCUMENT_NODES])
        except (yaml.YAMLError, RecursionError) as exc:
            raise RegistrationError(f"{where} is neither JSON nor YAML: {_first_line(exc)}") from None
        except OverflowError:  # YAML aliases can expand a small text exponentially
            raise RegistrationError(f"{where} expands to more than {MAX_DOCUMENT_NODES} nodes") from None
    if not isinstance(document, dict):
        raise RegistrationError(f"{where} is not an OpenAPI document (not an object)")
    return document


def openapi_version(document: Mapping[str, Any]) -> str:
    """``"3.0"`` or ``"3.1"``; anything else is refused."""
    declared = str(document.get("openapi", ""))
    for version in ("3.0", "3.1"):
        if declared == version or declared.startswith(version + "."):
            return version
    if "swagger" in document:
        raise RegistrationError("Swagger 2.0 documents are not supported; convert to OpenAPI 3")
    raise RegistrationError(f"unsupported OpenAPI version {declared or '(missing)'!r}; 3.0 and 3.1 are")


class _Builder:
    """Turns the operations of one document into endpoint contracts and operations."""

    def __init__(
        self,
        document: dict[str, Any],
        resolver: SchemaResolver,
        url: str,
        base_url: str | None,
        target: HttpTarget,
        options: Mapping[str, Any],
    ) -> None:
        self.document = document
        self.resolver = resolver
        self.url = url
        self.base_url = base_url
        self.options = options
        self.secret_headers = {h.lower() for h in target.headers}
        self._fields: dict[str, FieldSpec] = {}

    def build(self) -> tuple[list[EndpointSpec], dict[str, Operation]]:
        wanted = self._wanted()
        found: dict[str, str] = {}
        endpoints: list[EndpointSpec] = []
        operations: dict[str, Operation] = {}
        taken: set[str] = set()
        paths = self.document.get("paths")
        for path, raw_item in paths.items() if isinstance(paths, dict) else ():
            item = self.resolver.deref(raw_item)
            if not isinstance(item, dict):
                continue
            for method in _METHODS:
                op = item.get(method)
                if not isinstance(op, dict):
                    continue
                original = op.get("operationId")
                label = original if isinstance(original, str) and original else f"{method} {path}"
                endpoint = unique_name(safe_name(label), taken)
                found[endpoint] = label
                if wanted is not None and not wanted & {endpoint, label}:
                    continue
                where = f"operation {label!r}"
                if not isinstance(path, str) or not path.startswith("/"):
                    raise RegistrationError(f"{where}: path {path!r} must start with '/'")
                base = self._base(op, item, where)
                spec, operation = self._endpoint(endpoint, label, method, path, base, op, item)
                endpoints.append(spec)
                operations[endpoint] = operation
        if wanted is not None:
            missing = sorted(w for w in wanted if w not in found and w not in found.values())
            if missing:
                raise RegistrationError(
                    f"operations= names unknown operation(s) {missing}; known: {sorted(found)}"
                )
        if not endpoints:
            raise RegistrationError(f"the OpenAPI document at {public_url(self.url)} has no operations")
        known = set(found) | set(found.values())
        for option in ("fields", "projection", "read_only", "retry", "cost_units"):
            keys = self.options.get(option)
            unknown = sorted(set(keys) - known) if isinstance(keys, Mapping) else []
            if unknown:
                raise RegistrationError(
                    f"{option}= names unknown operation(s) {unknown}; known: {sorted(found)}"
                )
        return endpoints, operations

    def _wanted(self) -> set[str] | None:
        chosen = self.options.get("operations")
        if chosen is None:
            return None
        if isinstance(chosen, str):
            return {chosen}
        return {str(name) for name in chosen}

    def _base(self, op: dict[str, Any], item: dict[str, Any], where: str) -> str:
        servers = op.get("servers") or item.get("servers") or self.document.get("servers")
        return server_base(servers, document_url=self.url, base_url=self.base_url, where=where)

    def _endpoint(
        self,
        endpoint: str,
        label: str,
        method: str,
        path: str,
        base: str,
        op: dict[str, Any],
        item: dict[str, Any],
    ) -> tuple[EndpointSpec, Operation]:
        where = f"operation {label!r}"
        names = (endpoint, label)
        projection = self._projection(names, op, item)
        properties: dict[str, Any] = {}
        required: list[str] = []
        parameters: list[Parameter] = []
        for param, schema, is_required in self._parameters(op, item, projection, where):
            canonical = param.canonical
            if canonical in properties:
                canonical = unique_name(safe_name(f"{param.wire}_{param.location}"), set(properties))
                param = Parameter(canonical, param.wire, param.location, param.explode)
            properties[canonical] = schema
            parameters.append(param)
            if is_required:
                required.append(canonical)
        body_mode = self._body(op, properties, required, parameters, where)
        input_schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            input_schema["required"] = required
        input_schema["additionalProperties"] = False
        records, record_fields, output_schema = self._response(op, where)
        fields = record_fields
        override = per_endpoint(self.options.get("fields"), *names)
        if override is not None and (record_fields or isinstance(self.options.get("fields"), Mapping)):
            fields = merge_fields(record_fields, coerce_fields(override, what=where))
        read_only: bool | None = method in _READ_ONLY_METHODS
        overrides = self.options.get("read_only")
        if overrides is not None:
            if not isinstance(overrides, Mapping):
                raise RegistrationError("read_only= must map operation names to True/False/None")
            for key in names:
                if key in overrides:
                    read_only = overrides[key]
                    break
        try:
            spec = EndpointSpec(
                name=endpoint,
                description=short_description(op.get("summary"), op.get("description")),
                input_schema=input_schema,
                output_schema=output_schema,
                fields=fields,
                projection=complete_projection(projection, fields) if fields else None,
                read_only=read_only,
                retry=per_endpoint(self.options.get("retry"), *names) or RetryPolicy(),
                cost_units=_or(per_endpoint(self.options.get("cost_units"), *names), 1.0),
                records_path=records,
            )
        except ValidationError as exc:
            raise RegistrationError(f"{where} gives no valid endpoint: {exc}") from exc
        operation = Operation(endpoint, method, base, path, tuple(parameters), body_mode, read_only)
        return spec, operation

    def _projection(
        self, names: tuple[str, ...], op: dict[str, Any], item: dict[str, Any]
    ) -> ServerProjectionSpec | None:
        option = self.options.get("projection")
        chosen = per_endpoint(option, *names)
        if chosen is None:
            return None
        if not isinstance(chosen, ServerProjectionSpec):
            raise RegistrationError("projection= must be a ServerProjectionSpec (or a mapping of them)")
        if isinstance(option, Mapping):
            return chosen
        declared = {self._param_key(p) for p in self._raw_parameters(op, item)}
        anywhere = self._declared_anywhere(chosen.parameter)
        return chosen if (chosen.parameter, "query") in declared or not anywhere else None

    def _declared_anywhere(self, parameter: str) -> bool:
        paths = self.document.get("paths")
        for raw_item in paths.values() if isinstance(paths, dict) else ():
            item = self.resolver.deref(raw_item)
            if not isinstance(item, dict):
                continue
            for method in _METHODS:
                op = item.get(method)
                if isinstance(op, dict) and any(
                    self._param_key(p) == (parameter, "query") for p in self._raw_parameters(op, item)
                ):
                    return True
        return False

    def _raw_parameters(self, op: dict[str, Any], item: dict[str, Any]) -> list[dict[str, Any]]:
        merged: dict[tuple[str, str], dict[str, Any]] = {}
        for source in (item.get("parameters"), op.get("parameters")):
            for raw in source if isinstance(source, list) else ():
                param = self.resolver.deref(raw)
                if isinstance(param, dict) and isinstance(param.get("name"), str):
                    merged[self._param_key(param)] = param
        return list(merged.values())

    @staticmethod
    def _param_key(param: dict[str, Any]) -> tuple[str, str]:
        return str(param.get("name")), str(param.get("in"))

    def _parameters(
        self,
        op: dict[str, Any],
        item: dict[str, Any],
        projection: ServerProjectionSpec | None,
        where: str,
    ) -> list[tuple[Parameter, dict[str, Any], bool]]:
        out: list[tuple[Parameter, dict[str, Any], bool]] = []
        for param in self._raw_parameters(op, item):
            wire, location = self._param_key(param)
            if location not in ("query", "path", "header"):
                continue
            if location == "header" and wire.lower() in _IGNORED_HEADERS | self.secret_headers:
                continue
            if location == "query" and projection is not None and wire == projection.parameter:
                continue
            schema = self._inline(_parameter_schema(param), f"{where}, parameter {wire!r}")
            if "description" not in schema and isinstance(param.get("description"), str):
                schema = {**schema, "description": short_description(param["description"])}
            style = param.get("style", "form" if location == "query" else "simple")
            explode = bool(param.get("explode", style == "form"))
            is_required = location == "path" or param.get("required") is True
            where_to: Location = location  # type: ignore[assignment]
            out.append((Parameter(wire, wire, where_to, explode), schema, is_required))
        return out

    def _body(
        self,
        op: dict[str, Any],
        properties: dict[str, Any],
        required: list[str],
        parameters: list[Parameter],
        where: str,
    ) -> Literal["none", "properties", "whole"]:
        body = self.resolver.deref(op.get("requestBody"))
        schema = _json_schema_of(body) if isinstance(body, dict) else None
        if schema is None:
            return "none"
        body_required = body.get("required") is True
        concrete = self.resolver.concrete(schema)
        members = self.resolver.properties(concrete)
        if members and not set(members) & set(properties):
            needed = set(concrete.get("required") or ())
            for wire, member in members.items():
                properties[wire] = self._inline(member, f"{where}, body property {wire!r}")
                parameters.append(Parameter(wire, wire, "body"))
                if body_required and wire in needed:
                    required.append(wire)
            return "properties"
        canonical = unique_name("body", set(properties))
        properties[canonical] = self._inline(schema, f"{where}, request body")
        parameters.append(Parameter(canonical, canonical, "body"))
        if body_required:
            required.append(canonical)
        return "whole"

    def _response(
        self, op: dict[str, Any], where: str
    ) -> tuple[tuple[str, ...] | None, tuple[FieldSpec, ...], dict[str, Any] | None]:
        responses = op.get("responses")
        responses = {str(k): v for k, v in responses.items()} if isinstance(responses, dict) else {}
        codes = ["200", *sorted(c for c in responses if c.startswith("2") and c != "200"), "2XX"]
        chosen = next((responses[c] for c in codes if c in responses), None)
        response = self.resolver.deref(chosen)
        schema = _json_schema_of(response) if isinstance(response, dict) else None
        if schema is None:
            return None, (), None
        records = self.resolver.records(schema)
        fields: list[FieldSpec] = []
        if records.record is not None:
            for prop, prop_schema in self.resolver.properties(records.record).items():
                fields.append(self._field(prop, prop_schema))
        output_schema = None
        if self.options.get("validate_output"):
            output_schema = self._inline(schema, f"{where}, response schema")
        return records.path, tuple(fields), output_schema

    def _field(self, name: str, schema: Any) -> FieldSpec:
        outer, concrete = as_dict(self.resolver.deref(schema)), self.resolver.concrete(schema)
        description = short_description(
            outer.get("description"), concrete.get("description"), outer.get("title"), concrete.get("title")
        )
        try:
            json_schema: dict[str, Any] | None = self.resolver.inline(schema)
        except RegistrationError:
            json_schema = None  # recursive or too large: the field exists all the same
        key = canonical_json([name, description, json_schema])
        cached = self._fields.get(key)  # operations often share one record schema
        if cached is None:
            try:
                cached = FieldSpec(name=name, description=description, json_schema=json_schema)
            except ValidationError:  # not JSON Schema after all
                cached = FieldSpec(name=name, description=description)
            self._fields[key] = cached
        return cached

    def _inline(self, schema: Any, where: str) -> dict[str, Any]:
        try:
            return self.resolver.inline(schema)  # checked as JSON Schema by EndpointSpec
        except RegistrationError as exc:
            raise RegistrationError(f"{where}: {exc}") from exc


def _plain(value: Any, budget: list[int]) -> Any:
    """YAML data as JSON data (string keys, dates as text), at most ``budget[0]`` nodes."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    if isinstance(value, dict):
        return {str(k): _plain(v, budget) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, budget) for v in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def _or(value: Any, default: Any) -> Any:
    return default if value is None else value


def _parameter_schema(param: dict[str, Any]) -> Any:
    if "schema" in param:
        return param["schema"]
    content = param.get("content")
    if isinstance(content, dict) and content:
        media = next(iter(content.values()))
        if isinstance(media, dict):
            return media.get("schema", {})
    return {}


def _json_schema_of(container: dict[str, Any]) -> Any:
    """The schema of the JSON media type of a response or request body, if any."""
    content = container.get("content")
    if not isinstance(content, dict):
        return None
    media = content.get("application/json")
    if media is None:
        media = next((v for k, v in content.items() if "json" in str(k).lower()), None)
    if not isinstance(media, dict) or "schema" not in media:
        return None
    return media["schema"]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
