"""What the router accepts as a request: a :class:`PlanRequest` or a bare query string."""

from __future__ import annotations

from ..errors import PlanningError
from .models import PlanRequest


def as_request(request: PlanRequest | str) -> PlanRequest:
    """*request* as a :class:`PlanRequest` (a string is its query); anything else is a
    :class:`PlanningError`."""
    if isinstance(request, PlanRequest):
        return request
    if isinstance(request, str):
        return PlanRequest(query=request)
    raise PlanningError(f"expected a PlanRequest, a Plan or a query string, got {type(request).__name__}")
