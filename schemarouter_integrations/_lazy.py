"""Package attributes loaded on first use (PEP 562), so importing a package costs nothing
until one of its names is used.

A package lists its names once, by home module, and gets ``__all__`` and the hooks from that
table; it imports the same names under ``TYPE_CHECKING`` with the explicit re-export form
``import X as X`` (type checkers and IDEs see the real types; ``__all__`` is computed, so the
alias is what tells them the name is exported)::

    from .._lazy import lazy_attributes as _lazy_attributes

    if TYPE_CHECKING:
        from ._router import SchemaRouter as SchemaRouter

    __all__, __getattr__, __dir__ = _lazy_attributes(globals(), {"._router": ("SchemaRouter",)})

The first access imports the home module and keeps the value in the package's globals, so
later accesses are plain attribute reads; ``from package import *`` loads every name of
``__all__``.

A module that needs an optional extra imports it inside :func:`extra_needed`, which turns a
missing package into an ``ImportError`` naming the extra to install.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from importlib import import_module
from typing import Any


@contextmanager
def extra_needed(extra: str, said: str) -> Iterator[None]:
    """Raise an ``ImportError`` that says *said* and how to install *extra* when an import
    inside fails (``said``: who needs what, "schemarouter_integrations.mcp needs the mcp SDK")."""
    try:
        yield
    except ImportError as exc:
        raise ImportError(
            f'{said}; install the extra: pip install "schemarouter-integrations[{extra}]"'
        ) from exc


def export_order(name: str) -> tuple[int, str]:
    """The order ``__all__`` keeps: constants, then classes, then functions (ruff's order)."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


def lazy_attributes(
    namespace: dict[str, Any], homes: Mapping[str, Iterable[str]], *, submodules: Iterable[str] = ()
) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``(__all__, __getattr__, __dir__)`` for the package whose globals are *namespace*.

    *homes* maps a module (relative to the package, ``"._router"``) to the names it defines;
    *submodules* are child modules offered as attributes (``package.errors``) without an
    ``import package.errors`` first.
    """
    package = namespace["__name__"]
    home_of = {name: module for module, names in homes.items() for name in names}
    exported = sorted(home_of, key=export_order)
    home_of.update({name: f".{name}" for name in submodules})

    def __getattr__(name: str) -> Any:
        module = home_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if module == f".{name}":  # the submodule itself; importing it sets the attribute
            return import_module(module, package)
        value = getattr(import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *home_of})

    return exported, __getattr__, __dir__
