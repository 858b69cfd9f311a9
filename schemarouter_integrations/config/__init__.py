"""Landscape files: a whole router declared in TOML.

``load_config(path) -> RouterConfig`` reads and checks a file (``[router]`` holds the
``SchemaRouter(...)`` settings ``allow_private_networks``, ``document_cache``, ``max_hops`` and
``store``); ``await SchemaRouter.from_config(path_or_config)`` builds the router it declares
(the store, the cooldown policy, every route and its probe).

:class:`SchemaRouterSettings` is every router setting in one frozen, checked object:
``config.settings()`` gives it from a file's ``[router]``, ``[availability]``, ``[cooldown]``
and ``[answer_cache]`` sections, ``SchemaRouter(...)`` keywords give an equal one
(``router.settings``), and ``SchemaRouter(settings=...)`` takes it. The tool settings
(``config.tool``) feed the CLI and the framework tools
(``SchemaRouterTool(router=router, **config.tool.framework_options())``).

A file that cannot be used raises :class:`LandscapeError` (a ``ConfigurationError``) whose
message starts ``file:line: key:``. ``"${VAR}"`` anywhere in a string reads the environment;
a missing variable is an error naming it. Header values are secrets: they are never shown.

Line numbers: ``tomllib`` parses, and the key positions come from a second, line-based scan
of the same text (``_locate.py``); keys inside inline tables and multi-line arrays are
reported at the line of their enclosing key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .._settings import SchemaRouterSettings as SchemaRouterSettings
    from ..adapters._entries import OpenApiRoute as OpenApiRoute
    from ..adapters._entries import OptimadeFederationRoute as OptimadeFederationRoute
    from ..adapters._entries import OptimadeRoute as OptimadeRoute
    from ..adapters._entries import PythonRoute as PythonRoute
    from ._build import build_router as build_router
    from ._build import resolve_target as resolve_target
    from ._loader import LandscapeError as LandscapeError
    from ._loader import load_config as load_config
    from ._loader import parse_config as parse_config
    from ._models import AvailabilitySettings as AvailabilitySettings
    from ._models import RouteConfig as RouteConfig
    from ._models import RouterConfig as RouterConfig
    from ._models import RouterSettings as RouterSettings
    from ._models import ToolSettings as ToolSettings


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        "._build": ("build_router", "resolve_target"),
        "._loader": ("LandscapeError", "load_config", "parse_config"),
        ".._settings": ("SchemaRouterSettings",),
        "..adapters._entries": ("OpenApiRoute", "OptimadeFederationRoute", "OptimadeRoute", "PythonRoute"),
        "._models": (
            "AvailabilitySettings",
            "RouteConfig",
            "RouterConfig",
            "RouterSettings",
            "ToolSettings",
        ),
    },
)
