"""Stage 5 of planning, *shape answers*: the compiled call of a chosen route.

Given the candidate the ranking chose (and each fallback), a :class:`~.models.ToolCall`
says which fields to select (the need's fields, the route's identity fields and the fields
a list argument filters by name, ``elements=["Ga", "As"]`` selecting ``elements``, so the
answer shows the constraint held, the fields whose name has a word of the query that no
field surface read, "direct" selecting ``is_gap_direct``, and the fields a selected yes/no
field's description names, ``is_stable`` bringing ``energy_above_hull``, the fields that
stand in for what a partial answer misses and those the arguments constrain, a field inside
a small object selected as that object; or every field when no term of the need narrows the
answer: see ``breadth.py``), which
server-side projection parameters ask for them, the
evidence per semantic id (the field and the surface that matched), and a one-line
explanation. The arguments were shaped and checked before (the planner's argument check
against the route's input schema); here they are carried over as given.
"""

from __future__ import annotations

import re
from typing import Any

from .._contracts import FieldSpec
from .._contracts.schemas import LIST_SEPARATOR, coerced_arguments
from .._registry import STOP_WORDS, FieldMatch, Route, word_forms
from .._text import name_words
from .breadth import constrained_by, whole_records, whole_values
from .models import CallScope, FieldEvidence, PlanRequest, ToolCall
from .need import Need
from .ordering import Candidate


def tool_call(
    candidate: Candidate,
    need: Need,
    request: PlanRequest,
    scope: CallScope,
    unmatched: tuple[str, ...] = (),
    loose: tuple[str, ...] = (),
    standing: tuple[str, ...] = (),
) -> ToolCall:
    """The call of *candidate*; *loose*: the need's semantic ids that do not narrow the
    answer, *standing*: the fields that stand in for what it misses (see ``breadth.py``)."""
    route = candidate.route
    endpoint = route.endpoint
    matches = _evidence(candidate, need)
    if any(sid not in loose for sid in need.sids):
        # fields the caller listed are the answer's shape: no constrained field is added to them
        filtered = () if request.fields else constrained_by(route, request.arguments, request.query)
        named = named_by(route, unmatched)
        grounds = grounds_of(route, [m.field for m in matches.values()])
        selected = whole_values(
            route,
            (
                *(m.field.name for m in matches.values()),
                *standing,
                *named,
                *route.identity,
                *filtered,
                *grounds,
            ),
        )
        projection = endpoint.projection.parameters_for(selected) if endpoint.projection else {}
    else:  # every field: asked for by name too, since a projecting server may send only ids unasked
        selected = whole_records(route)
        projection = endpoint.projection.parameters_for(selected) if endpoint.projection else {}
    evidence = {
        sid: FieldEvidence.model_construct(field=m.field.name, matched=m.matched, match_kind=m.kind)
        for sid, m in matches.items()
    }
    values: dict[str, Any] = {
        "tool": route.tool.name,
        "endpoint": endpoint.name,
        "provider": route.tool.provider,
        "access_mode": route.tool.access_mode,
        "tool_fingerprint": route.tool.fingerprint,
        "endpoint_fingerprint": endpoint.fingerprint,
        "arguments": coerced_arguments(endpoint.input_schema, request.arguments),
        "selected_fields": selected,
        "server_projection": projection,
        "scope": scope,
        "read_only": endpoint.read_only,
        "evidence": evidence,
        "explanation": _explain(candidate, matches, scope, request),
    }
    call = ToolCall.model_construct(**values)
    call.__dict__["arguments_key"] = request.arguments_key  # the same arguments, serialised once
    return call


def named_by(route: Route, words: tuple[str, ...]) -> list[str]:
    """The route's fields whose name has one of *words* (query words no field surface read,
    in any of their forms) as a word of its own: "direct" names ``is_gap_direct``, "bulk"
    ``bulk_modulus``. The question asked about them beside the need's fields."""
    if not words:
        return []
    wanted = {form for word in words for form in word_forms(word) if len(form) >= 4}
    return [f.name for f in route.endpoint.fields if wanted & set(name_words(f.name))]


def grounds_of(route: Route, chosen: list[FieldSpec]) -> list[str]:
    """For each yes/no field in *chosen*, the route's fields its description names by a word
    of their name: a flag is read off a quantity ("on the hull and therefore stable":
    ``energy_above_hull`` beside ``is_stable``), and a question about the flag asks about it."""
    words: set[str] = set()
    for spec in chosen:
        if _is_flag(spec.json_schema):
            words.update(w for w in _WORD.findall(spec.description.casefold()) if len(w) >= 4)
    words -= STOP_WORDS
    if not words:
        return []
    return [f.name for f in route.endpoint.fields if words & set(name_words(f.name))]


def _is_flag(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    kinds = {kind} if isinstance(kind, str) else set(kind) if isinstance(kind, list) else set()
    options = schema.get("anyOf") or schema.get("oneOf") or []
    kinds.update(o.get("type") for o in options if isinstance(o, dict) and isinstance(o.get("type"), str))
    return "boolean" in kinds and not kinds - {"boolean", "null"}


_WORD = re.compile(r"[a-z]+")


def _evidence(candidate: Candidate, need: Need) -> dict[str, FieldMatch]:
    """For each semantic id, the route's match for the surface the request used when that
    surface names a field of this semantic id here; otherwise the best match for the id."""
    matches = candidate.route.matches
    out: dict[str, FieldMatch] = {}
    for sid, surface in need.pairs():
        named = matches.get(surface)
        out[sid] = named if named is not None and named.field.sid == sid else candidate.evidence[sid]
    return out


def _explain(
    candidate: Candidate, matches: dict[str, FieldMatch], scope: CallScope, request: PlanRequest
) -> str:
    route = candidate.route
    served = (
        ", ".join(
            f"{sid} via {m.field.name}" + (f" (alias {m.matched!r})" if m.kind == "alias" else "")
            for sid, m in matches.items()
        )
        or "no specific field needed"
    )
    if scope == "primary" and candidate.missing:
        why = "serves the most of the need (no eligible route serves all of it)"
        if route.tool.name in request.preferred_tools:
            why = "preferred tool; " + why
    elif scope == "primary":
        why = "preferred tool" if route.tool.name in request.preferred_tools else "best score"
    elif scope == "same_provider":
        why = f"same-provider fallback ({candidate.provider})"
    else:
        why = f"cross-provider fallback ({candidate.provider})"
    origin = _ORIGINAL_NAME.match(route.endpoint.description)
    named = f"; operationId {origin.group(1)}" if origin else ""
    hints = server_hints(route.endpoint.description)
    joined = _joined_lists(route, request)
    lacks = f"; missing {', '.join(candidate.missing)}" if candidate.missing else ""
    return f"{why}; serves {served}{lacks}; read_only={route.endpoint.read_only}{joined}{hints}{named}"


def _joined_lists(route: Route, request: PlanRequest) -> str:
    """``; elements: list joined with ','`` for list arguments the route sends as one value."""
    properties = route.endpoint.input_schema.get("properties")
    if not isinstance(properties, dict):
        return ""
    joined = []
    for name, value in request.arguments.items():
        schema = properties.get(name)
        separator = schema.get(LIST_SEPARATOR) if isinstance(schema, dict) else None
        if isinstance(value, list | tuple) and isinstance(separator, str):
            joined.append(f"{name}: list joined with {separator!r}")
    return "; " + "; ".join(joined) if joined else ""


_ORIGINAL_NAME = re.compile(r"^operationId (\S+):")
"""An adapter that renamed an operation starts its description with ``operationId <id>:``."""
_SERVER_HINTS = re.compile(r"^MCP tool \S+ \(server hints, untrusted: ([^)]*)\)")
"""The MCP adapter starts a description with the server's annotations, which decide nothing."""


def server_hints(description: str) -> str:
    """`` (server hints, untrusted: readOnlyHint=true)`` when an adapter recorded them."""
    found = _SERVER_HINTS.match(description)
    return f" (server hints, untrusted: {found.group(1)})" if found else ""
