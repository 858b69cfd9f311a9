"""Whether an entry read from a cache may answer a call (entries are read as untrusted)."""

from __future__ import annotations

from .._contracts import EndpointSpec
from .._planning import ToolCall
from ..stores import AnswerEntry


def entry_fits(entry: AnswerEntry, call: ToolCall, endpoint: EndpointSpec | None) -> bool:
    """True when *entry* is an answer of *call*'s access path whose records carry only the
    fields *call* selected (where its *endpoint* declares fields)."""
    if entry.path != call.access_path:
        return False
    if endpoint is None or not endpoint.fields:
        return True
    allowed = set()
    for name in call.selected_fields:
        declared = endpoint.field(name)
        if declared is not None:
            allowed.add(declared.result_location[0])
    return all(record.keys() <= allowed for record in entry.records)
