"""One request's reading of its query: the need, the words that rank endpoints, and what
stays unmatched.

``Plan.unmatched`` lists the content words of the query (no stop word, no number; see
``_registry/words.py``) that name no field of any route, without the request's argument
names and values ("Si" when ``formula="Si"``, the symbols of ``elements=["Ga", "As"]``) and
without the words that match the chosen primary endpoint's own texts (its name, description
and keywords): "issues of octocat/hello-world" answered by a ``listIssues`` endpoint leaves
nothing unmatched, since "issues" chose the endpoint. Without a primary, only field matches
count. With explicit ``fields=`` the query is not read for the need, so nothing is unmatched.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .._registry import Route, SurfaceIndex, word_forms
from .models import PlanRequest
from .need import Need, argument_words, need_from_fields, read_query
from .ordering import Ordering

OrderingKey = tuple[tuple[str, ...], tuple[tuple[str, ...], ...], bool]
"""Semantic ids of the need, forms of the ranking words, whether the need is explicit."""


@dataclass(slots=True)
class Reading:
    """The need and words of one (query, arguments, fields); kept in the planning cache.

    ``words`` are the forms (the word, then its singular candidates) of each content word
    that is not an argument name or value: they score endpoints lexically. ``rest`` are
    those of them that no field covered. ``ordering`` and ``unmatched`` memoise what the
    planner derives from them (same lifetime: the registry drops the cache on every change).
    """

    need: Need
    words: tuple[tuple[str, ...], ...]
    rest: tuple[tuple[str, ...], ...]
    explicit: bool
    ordering: Ordering | None = None
    unmatched: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ordering_key(self) -> OrderingKey:
        return (self.need.sids, self.words, self.explicit)

    def unmatched_for(self, route: Route | None) -> tuple[str, ...]:
        """The unmatched words when *route* (the primary, or None) answers."""
        key = route.path if route is not None else ""
        found = self.unmatched.get(key)
        if found is None:
            found = tuple(
                forms[0] for forms in self.rest if route is None or not route.lexical.matches(forms)
            )
            self.unmatched[key] = found
        return found


def read_request(request: PlanRequest, index: SurfaceIndex) -> Reading:
    """The :class:`Reading` of *request* against the registry's field surfaces."""
    spoken = argument_words(request.arguments)
    query = read_query(request.query, index)
    words = tuple(word_forms(w) for w in query.words if w not in spoken)
    if request.fields is not None:
        return Reading(need_from_fields(request.fields, index), words, (), explicit=True)
    uncovered = set(query.uncovered)
    rest = tuple(forms for forms in words if forms[0] in uncovered)
    return Reading(query.need, words, rest, explicit=False)
