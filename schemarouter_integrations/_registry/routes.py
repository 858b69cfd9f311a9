"""Per-route indexes built once at registration, so planning never scans fields."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .._contracts import EndpointSpec, FieldSpec, ToolSpec
from .._contracts.schemas import compiled_validator
from .._text import is_unspaced_char, name_words, normalise
from .abbreviations import learned_names
from .glosses import Glosses, parameter_glosses
from .lexicon import LexicalDocument
from .path_words import NO_PATH_WORDS, PathWords, path_words, shown_arguments
from .values import value_parents

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

MatchKind = Literal["semantic_id", "name", "alias"]
_WORDS = re.compile(r"\w+")
_PRIORITY: dict[MatchKind, int] = {"semantic_id": 0, "name": 1, "alias": 2}


def surface_key(text: str) -> str:
    """The lookup key of a name or alias: normalised words joined by one space."""
    return " ".join(_WORDS.findall(normalise(text)))


def _required(schema: dict[str, Any]) -> frozenset[str]:
    required = schema.get("required")
    return frozenset(r for r in required if isinstance(r, str)) if isinstance(required, list) else frozenset()


def is_unspaced(key: str) -> bool:
    return any(is_unspaced_char(ch) for ch in key)


@dataclass(frozen=True, slots=True)
class RouteRef:
    """Who an access path is, as route events name it: tool, endpoint, provider, access mode."""

    tool: str
    endpoint: str
    provider: str | None = None
    access_mode: str | None = None

    @property
    def path(self) -> str:
        return f"{self.tool}.{self.endpoint}"

    def fields(self) -> dict[str, Any]:
        """The identity as the keyword arguments of a route event."""
        return {
            "tool": self.tool,
            "endpoint": self.endpoint,
            "provider": self.provider,
            "access_mode": self.access_mode,
        }


@dataclass(frozen=True, slots=True)
class FieldMatch:
    """How a surface (semantic id, name or alias) reaches a field of a route.

    Hashable although :class:`FieldSpec` is not (its lists): the hash leaves the field out.
    """

    field: FieldSpec = dataclasses.field(hash=False)
    kind: MatchKind
    matched: str


@dataclass(slots=True)
class Route:
    """One access path (``tool.endpoint``) with everything planning needs precomputed."""

    tool: ToolSpec
    endpoint: EndpointSpec
    path: str
    matches: dict[str, FieldMatch] = field(default_factory=dict)
    validator: Validator | None = None
    provider: str | None = None
    projection_bonus: int = 0
    argument_names: frozenset[str] = frozenset()
    required: frozenset[str] = frozenset()
    """The arguments its input schema requires (path parameters among them)."""
    field_names: frozenset[str] = frozenset()
    """The names of the endpoint's fields."""
    deprecated: int = 0
    """1 when the endpoint is deprecated, else 0 (the first part of its planning rank)."""
    endpoint_fingerprint: str = ""
    identity: tuple[str, ...] = ()
    """Names of the fields marked ``identity=True`` or ``label=True``, in declaration order:
    every call returns them beside the needed fields."""
    lexical: LexicalDocument = field(default_factory=LexicalDocument.empty)
    """The words of the endpoint's name, keywords, summary and description, and its head
    (see :mod:`.lexicon`)."""
    glosses: Glosses = ()
    """What its parameters' descriptions say their name words mean (see :mod:`.glosses`)."""
    path_words: PathWords = NO_PATH_WORDS
    """What its path says it returns, and its other segments (see :mod:`.path_words`)."""
    shown: frozenset[str] = frozenset()
    """Its parameters that show the kind of value they take (examples, a path segment)."""
    order: tuple[float, str, str] = (0.0, "", "")
    """The last parts of its planning rank: its cost units, tool name and endpoint name."""
    value_parents: dict[str, str] = field(default_factory=dict)
    """Field name -> the small object field it is read inside (see :mod:`.values`)."""

    @classmethod
    def build(cls, tool: ToolSpec, endpoint: EndpointSpec) -> Route:
        """The route of *endpoint* with its field matches, identity fields and lexical document."""
        route = cls(
            tool=tool,
            endpoint=endpoint,
            path=f"{tool.name}.{endpoint.name}",
            provider=tool.explicit_provider,
            projection_bonus=1 if endpoint.projection is not None else 0,
            argument_names=endpoint.argument_names,
            required=_required(endpoint.input_schema),
            deprecated=1 if endpoint.deprecated else 0,
            field_names=frozenset(f.name for f in endpoint.fields),
            endpoint_fingerprint=endpoint.fingerprint,
            identity=tuple(f.name for f in endpoint.fields if f.identity or f.label),
            order=(endpoint.cost_units, tool.name, endpoint.name),
            value_parents=value_parents(endpoint.fields),
            lexical=LexicalDocument.of(
                endpoint.name, endpoint.keywords, endpoint.description, endpoint.context
            ),
        )
        route.glosses = parameter_glosses(endpoint.input_schema, route.lexical.head)
        route.path_words = path_words(endpoint.input_schema)
        route.shown = shown_arguments(endpoint.input_schema)
        for spec in endpoint.fields:
            route._add(spec.sid, FieldMatch(spec, "semantic_id", spec.sid))
            route._add(spec.name, FieldMatch(spec, "name", spec.name))
            for alias in spec.aliases:
                route._add(alias, FieldMatch(spec, "alias", alias))
            for learned in learned_names(spec.name, spec.description):
                route._add(learned, FieldMatch(spec, "alias", learned))
            for word in label_words(spec.name) if spec.label else ():
                route._add(word, FieldMatch(spec, "alias", word))  # "formula": formula_pretty
        return route

    def _add(self, text: str, match: FieldMatch) -> None:
        key = surface_key(text)
        if not key:
            return
        current = self.matches.get(key)
        if current is None or _PRIORITY[match.kind] < _PRIORITY[current.kind]:
            self.matches[key] = match

    def serving(self, semantic_id: str) -> FieldMatch | None:
        """The field serving *semantic_id* (by semantic id, name or alias), if any."""
        return self.matches.get(surface_key(semantic_id))

    def argument_validator(self) -> Validator:
        if self.validator is None:
            self.validator = compiled_validator(
                self.endpoint.input_schema, key=f"in:{self.endpoint.fingerprint}"
            )
        return self.validator


LABEL_WORDS = frozenset({"formula", "name", "title", "label", "symbol"})
"""Words of a label field's name that name it: "formula" asks for a record's
``formula_pretty``, "name" for its ``display_name`` (a field named so exactly comes first)."""


def label_words(name: str) -> list[str]:
    """The words of :data:`LABEL_WORDS` in the field *name*, in the singular ("formulas")."""
    return [w.removesuffix("s") for w in name_words(name) if w.removesuffix("s") in LABEL_WORDS]
