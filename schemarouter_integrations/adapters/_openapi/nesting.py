"""Fields inside a record's objects, across the operations of one document."""

from __future__ import annotations

from ..._contracts import EndpointSpec


def without_taken_leaves(endpoints: list[EndpointSpec]) -> list[EndpointSpec]:
    """*endpoints* with a nested field's leaf alias dropped where a record of the document has
    a field of its own by that name (``author`` means a commit's or an issue's ``author``, not
    ``commit.author`` inside a branch)."""
    taken = {f.name for e in endpoints for f in e.fields if "." not in f.name}
    out: list[EndpointSpec] = []
    for endpoint in endpoints:
        if any("." in f.name and not taken.isdisjoint(f.aliases) for f in endpoint.fields):
            fields = [
                f.model_copy(update={"aliases": [a for a in f.aliases if a not in taken]})
                if "." in f.name and not taken.isdisjoint(f.aliases)
                else f
                for f in endpoint.fields
            ]
            endpoint = endpoint.model_copy(update={"fields": fields})
        out.append(endpoint)
    return out
