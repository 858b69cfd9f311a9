"""Which parameters of a remote API are the router's business rather than the model's.

Paging through results, choosing the fields returned, the shape of the response and the
licence of the data are decided by the router and the application, never by a model. A
parameter has such a *role* when its name (split into words at ``_``, ``-``, brackets and
camelCase humps; leading ``_``/``$`` ignored) and its schema say so:

* ``pagination``: ``page`` alone, or ``page`` with only the words size, number, num, no,
  index, limit, offset, token, cursor, start, per, max, results, items, entries, next,
  previous (``per_page``, ``page_size``, ``page[number]``, ``nextPageToken``; not
  ``page_id``); ``limit``, ``offset``, ``skip``, ``top``, ``max_results``, ``max_items``,
  ``num_results``, ``start_index``; or a cursor (a word ``cursor``, ``next_token``,
  ``continuation_token``, ``starting_after``, ``ending_before``). It takes one number or
  string.
* ``projection``: ``fields``, ``select``, ``properties``, ``columns`` or ``attributes``
  alone, ``fields`` with only the words all, include, exclude, response, return, returned,
  extra, additional, only, default, optional, selected, output (``_all_fields``,
  ``response_fields``), or a JSON:API sparse fieldset (``fields[articles]``). It takes a
  string, a list or a boolean.
* ``format``: ``format``, or ``format`` after one of id, response, output, result, results,
  return, date, datetime, time, number (``id_format``, ``_format``); ``pretty``,
  ``pretty_print``, ``indent``. It takes one string, number or boolean.
* ``licence``: ``license`` or ``licence``. It takes one string (or a list of them).

A required parameter never has a role: a route cannot be called without it, so the model
must be able to give it. The adapters note the role in the input schema under
:data:`~.._contracts.schemas.ARGUMENT_ROLE`; the framework tools leave such arguments out of
the model-facing schema, and the application may still pass them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from .._text import name_words

__all__ = ["ArgumentRole", "PagingKind", "argument_role", "paging_kind"]

ArgumentRole = Literal["pagination", "projection", "format", "licence"]
PagingKind = Literal["offset", "page", "size", "cursor"]

_PAGE_WORDS = frozenset((
    "size", "number", "num", "no", "index", "limit", "offset", "token", "cursor", "start",
    "per", "max", "results", "items", "entries", "next", "prev", "previous",
))  # fmt: skip
_COUNTS = frozenset(
    {
        ("limit",),
        ("offset",),
        ("skip",),
        ("top",),
        ("max", "results"),
        ("max", "items"),
        ("num", "results"),
        ("start", "index"),
    }
)
_CURSORS = frozenset(
    {("next", "token"), ("continuation", "token"), ("starting", "after"), ("ending", "before")}
)
_SELECTING = frozenset({("fields",), ("select",), ("properties",), ("columns",), ("attributes",)})
_FIELDS_WORDS = frozenset((
    "all", "include", "exclude", "response", "return", "returned", "extra", "additional", "only", "default",
    "optional", "selected", "output",
))  # fmt: skip
_FORMAT_LEADS = frozenset(
    ["id", "response", "output", "result", "results", "return", "date", "datetime", "time", "number"]
)
_PRETTY = frozenset({("pretty",), ("pretty", "print"), ("prettyprint",), ("indent",)})
_LICENCES = frozenset({("license",), ("licence",)})


def argument_role(name: str, schema: Mapping[str, Any], *, required: bool = False) -> ArgumentRole | None:
    """The role of parameter *name* (see the module text), or None: the model's argument.

    *schema* is the parameter's concrete schema (references followed, nullable removed).
    """
    if required:
        return None
    words = name_words(name)
    kinds = _types(schema)
    one_value = not kinds & {"array", "object"}
    flag = bool(kinds) and kinds <= {"boolean"}
    if one_value and not flag and _pages(words):
        return "pagination"
    if _selects(name, words) and not kinds & {"object"}:
        return "projection"
    if one_value and _formats(words):
        return "format"
    if words in _LICENCES and not kinds & {"object", "boolean", "integer", "number"}:
        return "licence"
    return None


_OFFSETS = frozenset(
    {("offset",), ("skip",), ("start",), ("start", "index"), ("page", "offset"), ("page", "start")}
)
_SIZES = frozenset(("size", "limit", "per", "max", "results", "items", "entries"))
_NUMBERS = frozenset(("number", "num", "no", "index"))


def paging_kind(name: str) -> PagingKind | None:
    """How pagination parameter *name* pages a listing (see ``_contracts.schemas.PAGING``):
    ``offset``/``skip``/``start_index`` skip records, ``page``/``page_number`` number pages,
    ``limit``/``per_page``/``page_size``/``max_results`` size them, and a word ``cursor``,
    ``token``, ``after`` or ``before`` is a cursor. None: a name these words do not read."""
    words = name_words(name)
    if "cursor" in words or "token" in words or words in _CURSORS:
        return "cursor"
    if words in _OFFSETS:
        return "offset"
    if words in _COUNTS or (len(words) > 1 and set(words) <= {"page", *_SIZES}):
        return "size"
    if words == ("page",) or (words[:1] == ("page",) and set(words[1:]) <= _NUMBERS):
        return "page"
    return None


def _pages(words: tuple[str, ...]) -> bool:
    if "page" in words:
        return all(w == "page" or w in _PAGE_WORDS for w in words)
    return words in _COUNTS or words in _CURSORS or "cursor" in words


def _selects(name: str, words: tuple[str, ...]) -> bool:
    if words in _SELECTING:
        return True
    if words[:1] == ("fields",) and "[" in name:  # JSON:API sparse fieldsets: fields[articles]
        return True
    return "fields" in words and all(w == "fields" or w in _FIELDS_WORDS for w in words)


def _formats(words: tuple[str, ...]) -> bool:
    if words == ("format",) or words in _PRETTY:
        return True
    return len(words) == 2 and words[1] == "format" and words[0] in _FORMAT_LEADS


def _types(schema: Mapping[str, Any]) -> set[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):
        return set().union(*(_types(o) for o in options if isinstance(o, Mapping))) - {"null"}
    return set()
