"""The ``**options`` of each adapter kind as TypedDicts, and the one runtime check of them.

mypy checks the options at the call site (``Unpack`` on ``add_url`` and ``add_callable``);
:func:`check_options` checks them again at run time, where an unknown key or a value of the
wrong type becomes a ``RegistrationError`` naming the option. The check only refuses: the
adapters read the values as given. ``None`` means "not given" wherever it is accepted.
"""

from __future__ import annotations

import functools
import re
import typing
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, Literal, TypedDict, TypeVar, cast

from pydantic import TypeAdapter, ValidationError

from .._contracts import FieldSpec, RetryPolicy, ServerProjectionSpec
from ..errors import RegistrationError

__all__ = [
    "CallableOptions",
    "McpOptions",
    "OpenApiOptions",
    "OptimadeOptions",
    "UrlOptions",
    "check_options",
]

FieldOverride = FieldSpec | str | Mapping[str, Any]
"""One ``fields=`` entry: a FieldSpec, a bare name, or a FieldSpec as a dict."""

FieldsOption = Iterable[FieldOverride] | Mapping[str, Iterable[FieldOverride]]
"""``fields=`` for all endpoints, or a mapping from endpoint name to its fields."""


class HttpOptions(TypedDict, total=False):
    """What every ``add_url`` kind takes: one value for all endpoints, or a mapping by name."""

    fields: FieldsOption | None
    retry: RetryPolicy | Mapping[str, RetryPolicy | None] | None
    cost_units: float | Mapping[str, float | None] | None
    description: str | None


class OpenApiOptions(HttpOptions, total=False):
    """``add_url(kind="openapi", ...)``; mappings are keyed by operationId or endpoint name.

    ``operations=`` and ``tags=`` select operations (given both, an operation must be named
    by ``operations=`` and carry one of ``tags=``); ``records_path=`` says where the records
    of every selected operation sit (or, as a mapping, of the operations it names), over
    what the response schema suggests.

    ``projection=None`` detects each operation's field-selection query parameter (see
    ``_openapi/shaping.py``), ``False`` turns that off, a :class:`ServerProjectionSpec` is used
    as given; as a mapping, per operation (an operation it does not name is detected).
    ``list_separators`` maps query parameter names to the separator a list argument is joined
    with (``{"elements": ","}``), beside those the document declares.
    ``allow_ref_origins`` names origins (or URLs on them) besides the document's own from
    which the files its external ``$ref`` values name may be read (without ``headers``).
    """

    projection: (
        ServerProjectionSpec
        | Literal[False]
        | Mapping[str, ServerProjectionSpec | Literal[False] | None]
        | None
    )
    list_separators: Mapping[str, str] | None
    read_only: Mapping[str, bool | None] | None
    operations: str | Iterable[str] | None
    tags: str | Iterable[str] | None
    records_path: Sequence[str] | Mapping[str, Sequence[str] | None] | None
    validate_output: bool | None
    allow_ref_origins: str | Sequence[str] | None


class OptimadeOptions(HttpOptions, total=False):
    """``add_url(kind="optimade", ...)``; mappings are keyed by endpoint name or entry type.

    ``canonical_fields`` maps canonical field names to provider property names
    (``{"band_gap": ["_gnome_bandgap"]}``): a listed property named there becomes that field
    (default: the equivalence table, :data:`~._optimade.canonical.CANONICAL_FIELDS`);
    ``field_aliases`` extends that table (``{"band_gap": ["_mydb_gap"]}``).
    ``page_limit`` is the page size asked of the database (``None``: its default); it is the
    application's setting, never shown to a model (a request's ``page_limit`` argument wins).
    """

    max_pages: int
    page_limit: int | None
    entries: str | Iterable[str] | None
    canonical_fields: Mapping[str, Sequence[str]] | None
    field_aliases: Mapping[str, str | Sequence[str]] | None


class UrlOptions(OpenApiOptions, OptimadeOptions, total=False):
    """Every ``add_url`` option; each kind accepts only its own."""


class CallableOptions(TypedDict, total=False):
    """``add_callable(...)`` options beyond its named parameters."""

    description: str | None
    retry: RetryPolicy | None
    cost_units: float
    records_path: Sequence[str] | None
    output_schema: Mapping[str, Any] | None
    timeout_seconds: float | None


class McpOptions(TypedDict, total=False):
    """``add_mcp(target, name=..., ...)`` options (see ``adapters/_mcp/route.py``)."""

    provider: str | None
    access_mode: str | None
    tools: Sequence[str] | None
    read_only: bool | Sequence[str] | None
    fields: FieldsOption | None
    headers: Mapping[str, str] | None
    env: Mapping[str, str] | None
    timeout_seconds: float


Checked = TypeVar("Checked", bound=Mapping[str, Any])
_MODULE_PATH = re.compile(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])")


def check_options(options: Mapping[str, Any], kind: type[Checked], *, what: str) -> Checked:
    """*options* as the TypedDict *kind*, or a ``RegistrationError`` naming the option at fault."""
    hints = _hints(cast(Hashable, kind))
    unknown = sorted(set(options) - set(hints))
    if unknown:
        raise RegistrationError(f"{what}: unknown option(s) {unknown}; known: {sorted(hints)}")
    for key, value in options.items():
        try:
            _adapter(cast(Hashable, kind), key).validate_python(value)
        except ValidationError:
            shown = repr(value)
            shown = shown if len(shown) <= 80 else shown[:79] + "…"
            raise RegistrationError(
                f"{what}: option {key}= must be {_describe(hints[key])}, got {shown} ({type(value).__name__})"
            ) from None
    return cast(Checked, options)


@functools.cache
def _hints(kind: Hashable) -> dict[str, Any]:
    return typing.get_type_hints(kind)


@functools.cache
def _adapter(kind: Hashable, key: str) -> TypeAdapter[Any]:
    return TypeAdapter(_hints(kind)[key])


def _describe(annotation: Any) -> str:
    """A type as a reader writes it: ``RetryPolicy | Mapping[str, RetryPolicy | None] | None``."""
    text = annotation.__name__ if isinstance(annotation, type) else str(annotation)
    return _MODULE_PATH.sub("", text)
