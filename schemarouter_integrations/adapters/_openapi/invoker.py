"""The invoker of an OpenAPI tool: canonical arguments in, one bounded request out."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

from ...errors import SchemaValidationError
from .._route import HttpInvoker

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")

Location = Literal["query", "path", "header", "body"]


@dataclass(frozen=True, slots=True)
class Parameter:
    """One canonical argument and where it goes on the wire."""

    canonical: str
    wire: str
    location: Location
    explode: bool = True
    separator: str = ","
    """What a list value is joined with when it is not exploded (``explode=False``)."""


@dataclass(frozen=True, slots=True)
class Operation:
    """How to send one endpoint's request."""

    endpoint: str
    method: str
    base: str
    path: str
    parameters: tuple[Parameter, ...]
    body: Literal["none", "properties", "whole"] = "none"
    read_only: bool | None = None


class OpenApiInvoker(HttpInvoker[Operation]):
    """The trusted invoker of an OpenAPI tool: ``await invoker(call) -> raw JSON``."""

    noun = "operation"

    def __repr__(self) -> str:
        return f"OpenApiInvoker(origin={self.target.origin!r}, operations={sorted(self.endpoints)})"

    async def send(
        self, endpoint: str, arguments: Mapping[str, Any], *, extra_params: Mapping[str, str] | None = None
    ) -> Any:
        """Send *endpoint* with canonical *arguments* plus *extra_params* (query)."""
        operation = self.endpoint(endpoint)
        path_values: dict[str, Any] = {}
        query: list[tuple[str, str]] = []
        headers: dict[str, str] = {}
        body: dict[str, Any] = {}
        whole: Any = None
        for param in operation.parameters:
            value = arguments.get(param.canonical)
            if value is None:
                continue
            if param.location == "path":
                path_values[param.wire] = value
            elif param.location == "query":
                query.extend((param.wire, v) for v in _query_values(value, param.explode, param.separator))
            elif param.location == "header":
                headers[param.wire] = _header_value(param.wire, value)
            elif operation.body == "whole":
                whole = value
            else:
                body[param.wire] = value
        if extra_params:
            query = [(k, v) for k, v in query if k not in extra_params]
            query.extend((k, str(v)) for k, v in extra_params.items())
        path = operation.path
        url = operation.base + (_render_path(path, path_values) if "{" in path else path)
        json_body = whole if operation.body == "whole" else (body if operation.body != "none" else None)
        return await self.target.fetch_answer(
            operation.method.upper(), url, params=query, headers=headers, json_body=json_body
        )


def _render_path(template: str, values: Mapping[str, Any]) -> str:
    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise SchemaValidationError(f"path parameter {name!r} needs a value")
        value = values[name]
        if not isinstance(value, list | tuple):
            return _segment(value)
        items = [_segment(v) for v in value if v is not None]
        if not items:
            raise SchemaValidationError(f"path parameter {name!r} needs a value")
        return ",".join(items)  # style simple: the items, each escaped, joined with ","

    return _PLACEHOLDER.sub(substitute, template)


def _segment(value: Any) -> str:
    text = quote(_scalar(value), safe="")
    return "%2E" * len(text) if text in (".", "..") else text


def _query_values(value: Any, explode: bool, separator: str) -> list[str]:
    if isinstance(value, (list, tuple)):
        items = [_scalar(v) for v in value if v is not None]
        return items if explode else [separator.join(items)]
    return [_scalar(value)]


def _header_value(name: str, value: Any) -> str:
    text = _scalar(value)
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text) or not text.isascii():
        raise SchemaValidationError(f"header argument {name!r} must be printable ASCII text")
    return text


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)
