"""Compiled plans reused: a request planned again finds its plan instead of walking again.

A plan depends on the planning parts of its request (:data:`.cache.PlanKey`: query,
arguments, preferred tools, explicit fields, fallback scope and max fallbacks; ``hedge`` and
``cache`` change execution only), on the registry (contracts and bindings, which move
``registry.version``) and on the cooldowns of the access paths the walk checked. A plan is
remembered only when every path it checked was open (a cooling route's rejection names the
seconds left, which change with the clock), and reused only while the registry version is
the same and each of those paths is still open; otherwise it is compiled again. So a reused
plan is the plan :func:`.planner.compile_plan` would return now, with the caller's request.
The memo lives in the registry's :class:`.cache.PlanningCache`, dropped on contract changes.
"""

from __future__ import annotations

from typing import get_origin

from .._registry import Registry
from .cache import PlanKey, PlanningCache
from .models import Plan, PlanRequest
from .planner import CooldownView, compile_plan

_set = object.__setattr__

__all__ = ["plan_key", "planned"]


def plan_key(request: PlanRequest, executable_only: bool) -> PlanKey:
    """Everything of *request* that planning reads (``hedge`` and ``cache`` are not)."""
    fields = request.fields
    return (
        request.query,
        _arguments_key(request),
        tuple(request.preferred_tools),
        None if fields is None else tuple(fields),
        request.fallback_scope,
        request.max_fallbacks,
        executable_only,
    )


_PLAIN = frozenset({str, int, bool, type(None)})


def _arguments_key(request: PlanRequest) -> object:
    """The arguments as a key: ``(name, type, value)`` sorted when every value is a string,
    integer, boolean, null or float (by its repr: ``-0.0`` is not ``0.0``), without writing
    JSON; else the canonical JSON ``arguments_key``. The type keeps ``1``, ``1.0`` and
    ``True`` apart, as JSON does."""
    arguments = request.arguments
    if not arguments:
        return ()
    items: list[tuple[str, type, object]] = []
    for name, value in arguments.items():
        kind = type(value)
        if kind in _PLAIN:
            items.append((name, kind, value))
        elif kind is float:
            items.append((name, kind, repr(value)))
        else:
            return request.arguments_key
    if len(items) > 1:
        items.sort()  # the names are unique, so the tuples are ordered by name alone
    return tuple(items)


def planned(
    request: PlanRequest, registry: Registry, cooldown_left: CooldownView, *, executable_only: bool = False
) -> Plan:
    """:func:`compile_plan`, reusing the plan of an equal request while nothing it read changed."""
    plans = registry.derived(PlanningCache).plans
    key = plan_key(request, executable_only)
    known = plans.get(key)
    version = registry.version
    if known is not None and known[1] == version:
        plan, _, checked = known
        for path in checked:
            if cooldown_left(path) is not None:
                break
        else:  # every path it checked is still open
            return _for_request(plan, request)
    checked_paths: list[str] = []
    cooled = False

    def view(path: str) -> float | None:
        nonlocal cooled
        left = cooldown_left(path)
        checked_paths.append(path)
        cooled = cooled or left is not None
        return left

    plan = compile_plan(request, registry, view, executable_only=executable_only)
    if cooled:
        plans.pop(key, None)
    else:
        plans.put(key, (plan, version, tuple(checked_paths)))
        return _for_request(plan, request)  # the kept plan is never handed out
    return plan


def _for_request(plan: Plan, request: PlanRequest) -> Plan:
    """A copy of *plan* holding *request* (equal in every planning part): the same calls and
    rejections, in lists of its own, so a caller changing its plan changes no later one.

    The rejection sources and their count are shared with *plan* (computed once for both).
    """
    fields = plan.__dict__.copy()
    if len(fields) == _FIELDS:  # the fields only (a kept plan never built ``rejected``)
        for name in _LISTS:
            fields[name] = fields[name][:]
    else:
        fields = {name: list(value) if type(value) is list else value for name, value in fields.items()}
    fields["request"] = request
    clone = _new(Plan)
    _set(clone, "__dict__", fields)
    _set(clone, "__pydantic_fields_set__", plan.__pydantic_fields_set__)
    _set(clone, "__pydantic_extra__", None)
    _set(clone, "__pydantic_private__", plan.__pydantic_private__)
    return clone


_new = object.__new__
_FIELDS = len(Plan.model_fields)
_LISTS = tuple(name for name, field in Plan.model_fields.items() if get_origin(field.annotation) is list)
"""The fields of a plan that are lists: each copy of a kept plan has lists of its own."""
