"""How a plan explains itself: rejections grouped by reason (``Plan.explain()`` and the
preflight error that names why nothing could run) and unmatched words as phrases."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from .._registry.words import script_runs
from .._text import normalise


class Rejected(Protocol):
    """What grouping needs of a rejection (a :class:`~.models.Rejection`)."""

    @property
    def reason(self) -> str: ...

    @property
    def access_path(self) -> str: ...


_WORDS = re.compile(r"\w+")


EXPLAIN_GROUPS = 8
"""Groups of rejections ``Plan.explain()`` shows; ``explain(verbose=True)`` shows every one."""
GROUP_PATHS = 3
"""Access paths named in a group line before "and N more"."""

_PLURAL_VERBS = {
    "exposes": "expose",
    "matches": "match",
    "does": "do",
    "reads": "read",
    "has": "have",
    "serves": "serve",
    "is": "are",
}


def group_rejections(rejections: Sequence[Rejected]) -> list[tuple[str, list[str]]]:
    """*rejections* grouped by reason: ``(reason, access paths)`` in the order each reason
    first appears, so the reasons closest to an answer stay first."""
    groups: dict[str, list[str]] = {}
    for rejection in rejections:
        groups.setdefault(rejection.reason, []).append(rejection.access_path)
    return list(groups.items())


def group_line(reason: str, paths: Sequence[str], shown: int = GROUP_PATHS) -> str:
    """One group of rejections as a line: ``path: reason`` for one route, else
    ``31 endpoints expose no field for 'band_gap' (...): a, b, c and 28 more``."""
    if len(paths) == 1:
        return f"{paths[0]}: {reason}"
    verb, _, rest = reason.partition(" ")
    plural = _PLURAL_VERBS.get(verb)
    said = f" {plural} {rest}" if plural is not None else f": {reason}"
    named = ", ".join(paths[:shown]) + (f" and {len(paths) - shown} more" if len(paths) > shown else "")
    return f"{len(paths)} endpoints{said}: {named}"


def unmatched_phrases(query: str, unmatched: Sequence[str]) -> list[str]:
    """The text of :meth:`Plan.unmatched_phrases`: *unmatched* grouped as *query* writes them."""
    if not unmatched:
        return []
    wanted = set(unmatched)
    phrases: list[str] = []
    current: list[str] = []
    runs = (run for word in _WORDS.findall(normalise(query)) for run in script_runs(word))
    for word in runs:
        if word in wanted:
            current.append(word)
            continue
        if current:
            phrases.append(" ".join(current))
            current = []
    if current:
        phrases.append(" ".join(current))
    found = list(dict.fromkeys(phrases))
    seen = {w for p in found for w in p.split(" ")}
    return found + [w for w in unmatched if w not in seen]
