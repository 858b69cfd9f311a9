"""Rule 4 of ranking, *returns*: what an operation's path says it returns.

In a path like ``/bioentity/gene/{id}/function`` the segment before the identifier names the
kind of subject (a gene) and the segments after it name what the operation returns of that
subject (its functions); ``/bioentity/function/{id}/genes`` returns genes of a function. The
adapter carries both as notes on the path parameter (``PATH_SEGMENT``, ``PATH_TAIL``).

An operation whose returned segment (the last one) the question does not say, while a word
the question does say is another segment of its path (its subject's kind, or a segment that
qualifies what it returns), answers about something else than what was asked: "GO functions
of FBN1" says "function", the subject's kind of ``/function/{id}/genes``, not the "genes" it
returns; "orthologs of FBN1" says "ortholog" of ``/gene/{id}/ortholog/diseases``, which
returns diseases. Such an operation ranks after the others (part 1; the others 0). Only the
question's own words count (argument names are the subject's, see ``reading.py``); an
operation without a literal segment after its last path parameter is not judged.
"""

from __future__ import annotations

from .._registry import Route


def returns_part(route: Route, spoken: frozenset[str]) -> int:
    """1 when *route* returns something the question (the forms of its words, *spoken*) does
    not say while naming another segment of its path; else 0 (see the module docstring).
    The path's words are read at registration (``Route.path_words``)."""
    if not spoken:
        return 0
    returned, about = route.path_words
    if not returned or not returned.isdisjoint(spoken):
        return 0
    return 0 if about.isdisjoint(spoken) else 1
