"""Registration: contracts, bindings and the indexes planning reads."""

from .registry import Binding, BindingState, Invoker, Registry, SurfaceIndex
from .routes import FieldMatch, Route, RouteRef, surface_key

__all__ = [
    "Binding",
    "BindingState",
    "FieldMatch",
    "Invoker",
    "Registry",
    "Route",
    "RouteRef",
    "SurfaceIndex",
    "surface_key",
]
