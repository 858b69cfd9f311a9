"""Paging a listing up to ``PlanRequest.max_records``.

A source often answers a listing one page at a time, smaller than the records asked for
(a page of 10 of 1432 matches). When a read-only call answers fewer records than the run's
``max_records`` and the answer says more match (a count above what was sent, or a "more
data" flag), and the endpoint declares how it pages (input-schema properties noted with
:data:`~.._contracts.schemas.PAGING`), the next pages are asked for with the same arguments:

* ``offset`` (``offset``, ``skip``, ``start_index``): the next call skips what was received,
  and, where a ``size`` argument exists that the request left unset, asks for the records
  still wanted (at most the schema's ``maximum``);
* ``page`` (``page``, ``page[number]``): the next page number, the page size unchanged.

A request that sets the page size itself (``limit=2``) chose how many records it wants:
its one page is the answer. Cursors are not followed. Each further page is charged to the
run's budget as one more attempt of the call; paging stops at ``max_records``, at
:data:`MAX_PAGES`, when the budget would be passed, when a page is empty or repeats the last
one, or when a page fails (the records received so far stand, and the answer stays marked as
holding more).
"""

from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .._caching import CacheHints
from .._contracts import EndpointSpec
from .._contracts.schemas import PAGING
from ..errors import BudgetExceededError
from .budget import BudgetMeter
from .context import RunContext
from .outcomes import Answered
from .projection import listing_count, records_of

if TYPE_CHECKING:
    from .._registry import Invoker
    from .preflight import Step

__all__ = ["MAX_PAGES", "Pager", "more_pages", "pager_of"]

logger = logging.getLogger(__name__)

MAX_PAGES = 50
"""The most further pages one call asks for, whatever the page size."""


@dataclass(frozen=True, slots=True)
class Pager:
    """How an endpoint pages: the argument that moves (*by*, an offset or a page number), its
    first value, and the argument that sizes a page with its largest value, if any."""

    by: str
    kind: Literal["offset", "page"]
    first: int
    size: str | None = None
    size_maximum: int | None = None


def pager_of(endpoint: EndpointSpec) -> Pager | None:
    """The endpoint's :class:`Pager`, or None when it declares no offset or page argument."""
    properties = endpoint.input_schema.get("properties")
    if not isinstance(properties, dict):
        return None
    kinds: dict[str, tuple[str, dict[str, Any]]] = {}
    for name, schema in properties.items():
        if isinstance(schema, dict) and isinstance(schema.get(PAGING), str):
            kinds.setdefault(schema[PAGING], (name, schema))
    size = kinds.get("size")
    size_name, size_maximum = (None, None) if size is None else (size[0], _whole(size[1].get("maximum")))
    if "offset" in kinds:
        name, schema = kinds["offset"]
        return Pager(name, "offset", _whole(schema.get("default")) or 0, size_name, size_maximum)
    if "page" in kinds:
        name, schema = kinds["page"]
        first = _whole(schema.get("default"))
        if first is None:
            first = _whole(schema.get("minimum"))
        return Pager(name, "page", 1 if first is None else first, size_name, size_maximum)
    return None


async def more_pages(
    step: Step, invoker: Invoker, meter: BudgetMeter, ctx: RunContext, answered: Answered
) -> Answered:
    """*answered* with the further pages of its listing (see the module text)."""
    wanted = ctx.max_records
    call = step.call
    if wanted is None or call.read_only is not True or not answered.records:
        return answered
    if len(answered.records) >= wanted or not _holds_more(
        answered.total, answered.more, len(answered.records)
    ):
        return answered
    pager = pager_of(step.endpoint)
    if pager is None or _sized_by_caller(step.endpoint, call.arguments):
        return answered  # no pager, or the caller chose the page size: the records it asked for
    start = _whole(call.arguments.get(pager.by))
    start = pager.first if start is None else start
    records = list(answered.records)
    total, more, last = answered.total, answered.more, answered.records
    position = start
    for _ in range(MAX_PAGES):
        if len(records) >= wanted or not _holds_more(total, more, len(records), _skipped(pager, start, last)):
            break
        position = start + len(records) if pager.kind == "offset" else position + 1
        arguments = {**call.arguments, pager.by: position}
        if pager.kind == "offset" and pager.size is not None and pager.size not in call.arguments:
            left = wanted - len(records)
            arguments[pager.size] = left if pager.size_maximum is None else min(left, pager.size_maximum)
        try:
            meter.charge_attempt(call.access_path, step.endpoint.cost_units)
        except BudgetExceededError:
            break
        page_call = call.model_copy(update={"arguments": arguments})
        try:
            raw = invoker(page_call)
            if inspect.isawaitable(raw):
                raw = await raw
            if type(raw) is CacheHints:
                raw = raw.response
            page = records_of(page_call, step.endpoint, raw)
        except Exception as exc:  # the pages received stand; the answer says it holds more
            logger.info("paging %s stopped at %s=%s: %s", call.access_path, pager.by, position, exc)
            more = True
            break
        if not page or page == last:
            break
        records.extend(page)
        last = page
        page_total, more = listing_count(raw, step.endpoint.records_path)
        total = page_total if page_total is not None else total
    return Answered(records, answered.provenance, answered.hints, total, more)


def _sized_by_caller(endpoint: EndpointSpec, arguments: dict[str, Any]) -> bool:
    """Whether *arguments* set one of the endpoint's page-size arguments."""
    properties = endpoint.input_schema.get("properties")
    return isinstance(properties, dict) and any(
        isinstance(schema := properties.get(name), dict) and schema.get(PAGING) == "size"
        for name in arguments
    )


def _holds_more(total: int | None, more: bool, have: int, skipped: int = 0) -> bool:
    return more or (total is not None and total > have + skipped)


def _skipped(pager: Pager, start: int, page: list[dict[str, Any]]) -> int:
    """Matching records before the first one received (an offset, or earlier pages)."""
    if pager.kind == "offset":
        return max(0, start)
    return max(0, start - pager.first) * len(page)


def _whole(value: Any) -> int | None:
    return value if type(value) is int else None
