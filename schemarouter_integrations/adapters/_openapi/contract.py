"""The contract of an OpenAPI tool, built from the operation records of one walk.

Each chosen operation becomes an :class:`EndpointSpec` (canonical arguments from its
parameters and body, records and fields from its success response) and the
:class:`Operation` its invoker sends.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from pydantic import ValidationError

from ..._contracts import EndpointSpec, FieldSpec, ServerProjectionSpec
from ...errors import RegistrationError
from .._fields import (
    as_dict,
    coerce_fields,
    complete_projection,
    is_identity_name,
    per_endpoint,
    short_description,
    title_aliases,
    unknown_names,
    with_identity_defaults,
)
from .._http import public_url
from .._options import OpenApiOptions
from .._route import RouteBuilder
from .filter_names import with_filter_aliases
from .inputs import operation_inputs
from .invoker import Operation
from .operations import OperationRecord
from .parameters import text_path_names
from .record_fields import record_properties
from .records import RecordProperty, find_records, records_at
from .schema import SchemaResolver
from .selection import select_operations
from .servers import server_base
from .shaping import field_selection_parameter
from .texts import operation_context, operation_description, operation_keywords

logger = logging.getLogger("schemarouter_integrations.adapters.openapi")
_READ_ONLY_METHODS = frozenset({"get", "head"})
FIELD_SCHEMA_DEPTH = 0
"""How deep a field's ``json_schema`` describes nested values. A field's schema is the shape
of its value: its own keywords, its properties and items summarised by type and format, no
annotations (the field's description is the FieldSpec's). Fields of one shape share one
schema, checked once, which keeps documents of thousands of fields fast to register."""
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
Body = Literal["none", "properties", "whole"]


@dataclass
class ContractBuilder:
    """Turns the operation records of one document into endpoint contracts and operations."""

    records: Sequence[OperationRecord]
    document: Mapping[str, Any] = field(repr=False)
    resolver: SchemaResolver = field(repr=False)
    url: str
    base_url: str | None
    secret_headers: set[str] = field(repr=False)
    route: RouteBuilder[OpenApiOptions]
    _fields: dict[tuple[Any, ...], FieldSpec] = field(default_factory=dict, init=False, repr=False)
    left_out: dict[str, str] = field(default_factory=dict, init=False)
    """Each operation left out (by operationId, or ``"<method> <path>"``) and why."""

    @property
    def options(self) -> OpenApiOptions:
        return self.route.options

    @property
    def known(self) -> dict[str, str]:
        """Every endpoint name of the document and the operationId (or label) it stands for."""
        return {record.endpoint: record.label for record in self.records}

    def build(self) -> tuple[list[EndpointSpec], dict[str, Operation]]:
        """The endpoint contracts and operations of the chosen operations.

        An operation the document describes wrongly (an unresolvable ``$ref``, a property
        without a name, a schema that is not JSON Schema, servers on another origin) is left
        out, logged and kept in :attr:`left_out`; the others register. When every chosen
        operation is left out, the first one's ``RegistrationError`` is raised.
        """
        chosen = select_operations(self.records, self.options.get("operations"), self.options.get("tags"))
        self._check_options()
        endpoints: list[EndpointSpec] = []
        operations: dict[str, Operation] = {}
        first: RegistrationError | None = None
        for record in chosen:
            where = f"operation {record.label!r}"
            try:
                spec, operation = self._operation(record, where)
            except (RegistrationError, ValidationError, ValueError, TypeError, AttributeError) as exc:
                error = exc if isinstance(exc, RegistrationError) else RegistrationError(f"{where}: {exc}")
                first = first or error
                reason = str(error).removeprefix(f"{where}: ").removeprefix(f"{where} ")
                self.left_out[record.label] = reason
                logger.warning("%s: %s left out: %s", public_url(self.url), where, reason)
                continue
            endpoints.append(spec)
            operations[record.endpoint] = operation
        if not endpoints:
            if first is not None:
                raise first
            raise RegistrationError(f"the OpenAPI document at {public_url(self.url)} has no operations")
        return endpoints, operations

    def _operation(self, record: OperationRecord, where: str) -> tuple[EndpointSpec, Operation]:
        if not record.path.startswith("/"):
            raise RegistrationError(f"{where}: path {record.path!r} must start with '/'")
        servers = record.servers or self.document.get("servers")
        base = server_base(servers, document_url=self.url, base_url=self.base_url, where=where)
        return self._endpoint(record, base, where)

    def _check_options(self) -> None:
        """The application's options, refused before any operation is built (an operation
        that fails later fails because of its document, and is left out alone)."""
        read_only = self.options.get("read_only")
        if read_only is not None and not isinstance(read_only, Mapping):
            raise RegistrationError("read_only= must map operation names to True/False/None")
        projection = self.options.get("projection")
        given = projection.values() if isinstance(projection, Mapping) else [projection]
        if any(p is not None and p is not False and not isinstance(p, ServerProjectionSpec) for p in given):
            raise RegistrationError(
                "projection= must be a ServerProjectionSpec, False or None (or a mapping of them)"
            )
        fields = self.options.get("fields")
        for value in fields.values() if isinstance(fields, Mapping) else [] if fields is None else [fields]:
            coerce_fields(value, what=f"add_url(name={self.route.registration.name!r})")
        self._list_separators  # noqa: B018 (checked once, here)

    def _endpoint(self, record: OperationRecord, base: str, where: str) -> tuple[EndpointSpec, Operation]:
        projection = self._projection(record)
        input_schema, parameters, body_mode = operation_inputs(self, record, projection, where)
        records, record_fields, output_schema = self._response(record, where)
        fields = self.route.fields(record_fields, record.names, applies=bool(record_fields), what=where)
        # an OpenAPI record's ids identify it; its filter parameters (created, email) do not
        fields = with_filter_aliases(
            tuple(with_identity_defaults(fields)), input_schema["properties"]
        )  # k_vrh_min
        read_only = self._read_only(record)
        spec = self.route.endpoint(
            record.endpoint,
            record.names,
            invalid=f"{where} gives no valid endpoint",
            fields=fields,
            projection=complete_projection(projection, fields) if fields else None,
            description=operation_description(record),
            keywords=operation_keywords(record),
            context=operation_context(record),
            input_schema=input_schema,
            output_schema=output_schema,
            read_only=read_only,
            records_path=records,
            deprecated=record.operation.get("deprecated") is True,
        )
        operation = Operation(
            record.endpoint, record.method, base, record.path, tuple(parameters), body_mode, read_only
        )
        return spec, operation

    def _read_only(self, record: OperationRecord) -> bool | None:
        overrides = self.options.get("read_only")
        if overrides is None:
            return record.method in _READ_ONLY_METHODS
        if not isinstance(overrides, Mapping):
            raise RegistrationError("read_only= must map operation names to True/False/None")
        key = next((k for k in record.names if k in overrides), None)
        return overrides[key] if key is not None else record.method in _READ_ONLY_METHODS

    def _projection(self, record: OperationRecord) -> ServerProjectionSpec | None:
        """The option's projection for *record*: ``False`` none, ``None`` (or an operation a
        mapping does not name) the one detected from the document, a spec as given."""
        option = self.options.get("projection")
        chosen = per_endpoint(option, *record.names)
        if chosen is False:
            return None
        if chosen is None:
            detected = field_selection_parameter(record.parameters, self.resolver.concrete)
            return None if detected is None else ServerProjectionSpec(parameter=detected, separator=",")
        if not isinstance(chosen, ServerProjectionSpec):
            raise RegistrationError(
                "projection= must be a ServerProjectionSpec, False or None (or a mapping of them)"
            )
        if isinstance(option, Mapping):
            return chosen
        declared = chosen.parameter in record.query_parameters
        anywhere = chosen.parameter in self._query_parameters_anywhere
        return chosen if declared or not anywhere else None

    @cached_property
    def _list_separators(self) -> dict[str, str]:
        option = self.options.get("list_separators") or {}
        if not isinstance(option, Mapping):
            raise RegistrationError("list_separators= must map query parameter names to separators")
        for name, separator in option.items():
            if not isinstance(separator, str) or not separator:
                raise RegistrationError(f"list_separators= gives {name!r} no separator (a non-empty string)")
        unknown = set(option) - self._query_parameters_anywhere
        if unknown:
            raise unknown_names(
                "list_separators=", "query parameter", unknown, self._query_parameters_anywhere
            )
        return dict(option)

    @cached_property
    def _query_parameters_anywhere(self) -> frozenset[str]:
        return frozenset().union(*(record.query_parameters for record in self.records))

    @cached_property
    def _text_path_names(self) -> frozenset[str]:
        return text_path_names(self.records, self.resolver.concrete)

    def _response(
        self, record: OperationRecord, where: str
    ) -> tuple[list[str] | None, tuple[FieldSpec, ...], dict[str, Any] | None]:
        schema = record.response_schema
        chosen = self.route.value("records_path", record.names)
        if schema is None:
            return (None if chosen is None else list(chosen)), (), None
        if chosen is None:
            operation_id = record.operation.get("operationId")
            named = operation_id if isinstance(operation_id, str) else None
            records = find_records(self.resolver, schema, record.path, named)
        else:
            records = records_at(self.resolver, schema, list(chosen))
        found = record_properties(self.resolver, records)
        # a nested id (`owner.id`) identifies its record only when the record has none of its own
        own_id = any(is_identity_name(p.name) for p in found if not _nested(p))
        fields = tuple(self._field(p, identity=False if own_id and _nested(p) else None) for p in found)
        output_schema = None
        if self.options.get("validate_output"):
            output_schema = self._inline(schema, f"{where}, response schema")
        return (None if records.path is None else list(records.path)), fields, output_schema

    def _field(self, prop: RecordProperty, *, identity: bool | None) -> FieldSpec:
        name, path, schema = prop.name, prop.path, prop.schema
        outer, concrete = as_dict(self.resolver.deref(schema)), self.resolver.concrete(schema)
        description = short_description(
            outer.get("description"), concrete.get("description"), outer.get("title"), concrete.get("title")
        )
        wire = None if path == (name,) else list(path)
        extra: dict[str, Any] = {"semantic_id": prop.meaning} if prop.meaning else {}
        own = schema if isinstance(schema, dict) and "$ref" not in schema else {}  # not a component's
        aliases = title_aliases(path[-1], own.get("title"))
        if aliases:
            extra["aliases"] = aliases
        if identity is not None:
            extra["identity"] = identity
        key = (name, path if wire is not None else None, description, id(schema), prop.meaning, identity)
        cached = self._fields.get(key)  # operations often share one record schema
        if cached is None:
            try:
                json_schema: dict[str, Any] | None = self.resolver.inline(
                    schema, depth=FIELD_SCHEMA_DEPTH, annotations=False
                )
            except RegistrationError:
                json_schema = None  # recursive or too large: the field exists all the same
            try:
                cached = FieldSpec(
                    name=name, path=wire, description=description, json_schema=json_schema, **extra
                )
            except ValidationError:  # not JSON Schema after all
                try:
                    cached = FieldSpec(name=name, path=wire, description=description, **extra)
                except ValidationError as exc:
                    problem = exc.errors()[0].get("msg", "invalid") if exc.errors() else "invalid"
                    problem = f"response property {name!r} cannot be a field ({problem})"
                    raise RegistrationError(problem) from None
            self._fields[key] = cached
        return cached

    def _inline(self, schema: Any, where: str) -> dict[str, Any]:
        try:
            return self.resolver.inline(schema, recursive=True)  # checked as JSON Schema by EndpointSpec
        except RegistrationError as exc:
            raise RegistrationError(f"{where}: {exc}") from exc


def _nested(prop: RecordProperty) -> bool:
    """Whether *prop* sits inside one of its record's objects (``gene.chromosomes``)."""
    return "." in prop.name and len(prop.path) > 1
