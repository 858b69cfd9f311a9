"""Regular expressions from contracts, matched in linear time.

JSON Schema ``pattern`` and ``patternProperties`` come from documents the router does not
control, and they are matched against arguments a model chose. A backtracking engine can
take exponential time on a pattern such as ``^(a+)+$``; validation runs on the event loop,
so one such pattern could stall every run. Patterns are therefore matched with RE2 (the
``google-re2`` package, extra ``[re2]``, part of ``[all]``), which runs in linear time. A
pattern RE2 cannot run (back-references, look-around) or, without RE2 installed, one that
could backtrack (a repeated group holding a repetition or an alternation) is *unusable*:
contracts that contain it are refused with a reason (see :func:`pattern_problem`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from .._bounded import BoundedCache

try:  # pragma: no cover - which branch runs depends on the installed extras
    import re2 as _re2

    _OPTIONS = _re2.Options()
    _OPTIONS.log_errors = False
except ImportError:  # pragma: no cover
    _re2 = None

__all__ = ["HAS_RE2", "pattern_problem", "patterns_in", "search"]

HAS_RE2 = _re2 is not None
Matcher = Callable[[str], bool]
_MATCHERS: BoundedCache[str, Matcher | str] = BoundedCache(4096)
"""Pattern -> its linear-time matcher, or the reason it is unusable."""


def search(pattern: str, text: str) -> bool:
    """True when *pattern* matches somewhere in *text* (JSON Schema ``pattern`` semantics).

    Raises ``ValueError`` for an unusable pattern (contracts holding one are refused at
    registration, so this only happens for schemas that never passed ``check_schema``).
    """
    matcher = _matcher(pattern)
    if isinstance(matcher, str):
        raise ValueError(matcher)
    return matcher(text)


def pattern_problem(pattern: str) -> str | None:
    """Why *pattern* cannot be matched safely, or None when it can."""
    matcher = _matcher(pattern)
    return matcher if isinstance(matcher, str) else None


def patterns_in(schema: Any) -> Iterator[tuple[str, str]]:
    """``(where, pattern)`` for every ``pattern`` and ``patternProperties`` key in *schema*."""
    pending: list[tuple[Any, str]] = [(schema, "")]
    while pending:
        node, where = pending.pop()
        if isinstance(node, dict):
            value = node.get("pattern")
            if isinstance(value, str):
                yield f"{where}/pattern", value
            keyed = node.get("patternProperties")
            if isinstance(keyed, dict):
                yield from ((f"{where}/patternProperties", key) for key in keyed if isinstance(key, str))
            pending.extend((item, f"{where}/{key}") for key, item in node.items())
        elif isinstance(node, list):
            pending.extend((item, f"{where}/{i}") for i, item in enumerate(node))


def _matcher(pattern: str) -> Matcher | str:
    found = _MATCHERS.get(pattern)
    if found is None:
        found = _MATCHERS.put(pattern, _compile(pattern))
    return found


def _compile(pattern: str) -> Matcher | str:
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        return f"pattern {pattern!r} is not a valid regular expression ({exc})"
    if _re2 is not None:
        try:
            linear = _re2.compile(pattern, _OPTIONS)
        except Exception:
            return (
                f"pattern {pattern!r} needs a backtracking engine (back-references or look-around), "
                "which could take exponential time on a model's argument"
            )
        return lambda text: linear.search(text) is not None
    if _can_backtrack(pattern):
        return (
            f"pattern {pattern!r} could take exponential time in Python's regex engine; install the "
            "re2 extra (pip install 'schemarouter-integrations[re2]') to match it in linear time"
        )
    return lambda text: compiled.search(text) is not None


def _can_backtrack(pattern: str) -> bool:
    """True when a repetition holds another repetition or an alternation (star height > 1),
    or the pattern uses back-references or look-around (conservative, for the ``re`` engine)."""
    from re import _parser  # type: ignore[attr-defined]

    risky = {"GROUPREF", "GROUPREF_EXISTS", "ASSERT", "ASSERT_NOT"}

    def walk(items: Any, inside_repeat: bool) -> bool:
        for op, value in items:
            name = str(op)
            if name in risky:
                return True
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                _low, high, body = value
                repeats = high is _parser.MAXREPEAT or high > 1
                if inside_repeat and repeats:
                    return True
                if walk(body, inside_repeat or repeats):
                    return True
            elif name == "BRANCH":
                if inside_repeat:
                    return True
                if any(walk(branch, inside_repeat) for branch in value[1]):
                    return True
            elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
                body = value[-1]
                if walk(body, inside_repeat):
                    return True
        return False

    return walk(_parser.parse(pattern), False)
