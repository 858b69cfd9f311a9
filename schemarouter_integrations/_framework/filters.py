"""The model-facing ``filters`` object: every filter a source accepts, beyond the shown few.

The faces show a bounded set of canonical arguments as top-level keys (see
:func:`.arguments.shown_arguments`); every other filter the model's routes accept is taken
through one optional object argument, ``filters``, keyed by model-facing name (the
canonical name is accepted too, even where the face shows another one: inside ``filters`` a
source's own ``query`` cannot be taken for the tool's). :class:`FilterTable` checks each
entry when the model's arguments are validated: its name must be one some model-facing route
accepts, or equal exactly one of them ignoring case (else the error names the closest
accepted names by their shown names, "did you mean"), its value must fit the argument's
JSON Schema once read in the form it declares (:mod:`.spelling`: one value for a list, an
enum member in another case), and the router's own arguments (pagination, projection, ...)
are refused. The
checked entries come back by canonical name and join the plan request's arguments, where the
planner prefers the routes that take them and leaves out those that cannot.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import Field, TypeAdapter, ValidationError

from .._contracts.coercion import coerced_value
from .schema_types import python_type
from .spelling import folded_names, same_name_ignoring_case

__all__ = ["FILTERS_ARGUMENT", "FilterTable"]

FILTERS_ARGUMENT = "filters"
"""The reserved model-facing name of the filters object."""
MAX_NAMED_FILTERS_BYTES = 1_200
"""The ``filters`` description names filters (most widely accepted first) in at most this many bytes."""
_CLOSE_MATCHES = 3


class FilterTable:
    """The filters a model may pass in ``filters``: ``{name: (canonical name, JSON Schema)}``.

    *accepted* maps each model-facing name to its canonical name and merged schema; the
    canonical name is looked up too. *owned* are the router's own arguments (refused, by
    either name). *listed* are the names the description offers, in the order offered.
    """

    def __init__(
        self,
        accepted: Mapping[str, tuple[str, dict[str, Any]]],
        *,
        owned: Iterable[str] = (),
        listed: Sequence[str] = (),
    ) -> None:
        self._names: dict[str, str] = {}
        self._shown: dict[str, str] = {}
        self._adapters: dict[str, TypeAdapter[Any]] = {}
        self._schemas = {canonical: schema for canonical, schema in accepted.values()}
        for shown, (canonical, _schema) in accepted.items():
            self._names[shown] = canonical
            self._shown[canonical] = shown
        for canonical in self._shown:
            self._names.setdefault(canonical, canonical)  # a shown name wins over a wire name
        self._folded = folded_names(self._names)
        self.owned = frozenset(owned)
        self.listed = tuple(listed)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name ``filters`` takes (model-facing and canonical), sorted."""
        return tuple(sorted(self._names))

    def description(self, *, max_bytes: int = MAX_NAMED_FILTERS_BYTES) -> str:
        """What the model reads about ``filters``: what it takes, and the first names it may use."""
        text = (
            "Any other filter a data source accepts, by name, with its value "
            '(for example {"is_stable": true}); checked against the sources.'
        )
        named: list[str] = []
        used = 0
        for name in self.listed:
            if used + len(name) + 2 > max_bytes:
                break
            named.append(name)
            used += len(name) + 2
        if named:
            more = len(self.listed) - len(named)
            text += " Names: " + ", ".join(named) + (f" (and {more} more)." if more > 0 else ".")
        return text

    def field(self) -> tuple[Any, Any]:
        """The pydantic field definition of ``filters``."""
        return (dict[str, Any] | None, Field(default=None, description=self.description()))

    def check(self, given: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """*given* checked and keyed by canonical name (``None`` values dropped).

        Raises :class:`ValueError` naming the first problem: a name no route takes (with the
        closest accepted names), a router-owned argument, or a value its schema refuses.
        """
        if given is None:
            return None
        out: dict[str, Any] = {}
        for name, value in given.items():
            canonical = self._names.get(name)
            if canonical is None:
                alike = same_name_ignoring_case(name, self._names, self._folded)
                canonical = self._names.get(alike) if alike is not None else None
            if canonical is None:
                raise ValueError(self.unknown_message(name))
            if value is None:
                continue
            out[canonical] = self._checked_value(name, canonical, value)
        return out

    def unknown_message(self, name: str) -> str:
        """The account of a filter name no model-facing route takes."""
        if name in self.owned:
            return f"'{name}' is set by the tool itself and cannot be passed as a filter"
        close = difflib.get_close_matches(name, list(self._names), n=_CLOSE_MATCHES, cutoff=0.5)
        if not close:
            lowered = name.lower()
            close = [n for n in sorted(self._names) if lowered in n.lower() or n.lower() in lowered]
        # each by the name the model is shown (a wire name shown otherwise: its shown name)
        close = list(dict.fromkeys(self._shown.get(self._names[n], n) for n in close))[:_CLOSE_MATCHES]
        hint = f" (did you mean {' or '.join(repr(n) for n in close)})" if close else ""
        return f"no data source takes a filter named '{name}'{hint}"

    def _checked_value(self, name: str, canonical: str, value: Any) -> Any:
        schema = self._schemas.get(canonical, {})
        adapter = self._adapters.get(canonical)
        if adapter is None:
            adapter = TypeAdapter(python_type(schema))
            self._adapters[canonical] = adapter
        try:
            return adapter.validate_python(coerced_value(schema, value))
        except ValidationError as exc:
            first = exc.errors(include_url=False, include_input=False)[0]
            raise ValueError(f"filter '{name}': {first['msg']}") from None
