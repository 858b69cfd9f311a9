"""Which operations of a document are registered: ``operations=`` and ``tags=``.

Without either option every operation is. ``operations=`` names operations by operationId
or endpoint name; ``tags=`` keeps operations that carry at least one of the tags. Given
both, an operation must satisfy both: be named *and* carry one of the tags. A name or tag
that the document does not have is refused with the closest valid choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...errors import RegistrationError
from .._fields import unknown_names
from .operations import OperationRecord


def select_operations(
    records: Sequence[OperationRecord],
    operations: str | Iterable[str] | None,
    tags: str | Iterable[str] | None,
) -> list[OperationRecord]:
    """The records chosen by *operations* and *tags* (``None``: no restriction), in order."""
    names = _names(operations)
    wanted_tags = _names(tags)
    if names is not None:
        known = {name for record in records for name in record.names}
        missing = names - known
        if missing:
            labels = [r.label for r in records] + [r.endpoint for r in records if r.renamed]
            raise unknown_names("operations=", "operation", missing, labels)
    if wanted_tags is not None:
        known_tags = {tag for record in records for tag in record.tags}
        missing = wanted_tags - known_tags
        if missing:
            raise unknown_names("tags=", "tag", missing, known_tags)
    chosen = [
        record
        for record in records
        if (names is None or not names.isdisjoint(record.names))
        and (wanted_tags is None or not wanted_tags.isdisjoint(record.tags))
    ]
    if not chosen and names and wanted_tags:
        raise RegistrationError(
            "no operation named by operations= carries a tag of tags= (an operation must satisfy both)"
        )
    return chosen


def _names(option: str | Iterable[str] | None) -> set[str] | None:
    if option is None:
        return None
    if isinstance(option, str):
        return {option}
    return {str(name) for name in option}
