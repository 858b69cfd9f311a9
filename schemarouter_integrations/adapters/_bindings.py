"""The invoker a router has bound to a tool, checked to be of the adapter's own kind."""

from __future__ import annotations

from typing import Any, TypeVar

from ..errors import RegistrationError

__all__ = ["bound_invoker"]

InvokerT = TypeVar("InvokerT")


def bound_invoker(
    router: Any, tool: str, kind: type[InvokerT], *, what: str, registered_with: str
) -> InvokerT:
    """The invoker bound to *tool* in *router*, or a ``RegistrationError`` when it is none of *kind*
    (the probe helpers only watch routes their own adapter built)."""
    binding = router.registry.binding(tool)
    invoker = binding.invoker if binding is not None else None
    if not isinstance(invoker, kind):
        raise RegistrationError(f"{tool!r} is not bound to {what} (register it with {registered_with})")
    return invoker
