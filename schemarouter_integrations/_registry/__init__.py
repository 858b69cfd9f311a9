"""Registration: contracts, bindings and the indexes planning reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .fieldwords import FieldProfile, FieldWordIndex
    from .lexicon import LexicalDocument, LexicalIndex
    from .registry import Binding, BindingState, Invoker, Registry, SurfaceIndex
    from .routes import FieldMatch, Route, RouteRef, surface_key
    from .words import (
        CONTRACT_MIN_LETTERS,
        STOP_WORDS,
        is_content_word,
        script_runs,
        singular_forms,
        text_words,
        unit_words,
        word_forms,
    )

__all__ = [
    "CONTRACT_MIN_LETTERS",
    "STOP_WORDS",
    "Binding",
    "BindingState",
    "FieldMatch",
    "FieldProfile",
    "FieldWordIndex",
    "Invoker",
    "LexicalDocument",
    "LexicalIndex",
    "Registry",
    "Route",
    "RouteRef",
    "SurfaceIndex",
    "is_content_word",
    "script_runs",
    "singular_forms",
    "surface_key",
    "text_words",
    "unit_words",
    "word_forms",
]

__getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".fieldwords": ("FieldProfile", "FieldWordIndex"),
        ".lexicon": ("LexicalDocument", "LexicalIndex"),
        ".registry": ("Binding", "BindingState", "Invoker", "Registry", "SurfaceIndex"),
        ".routes": ("FieldMatch", "Route", "RouteRef", "surface_key"),
        ".words": (
            "CONTRACT_MIN_LETTERS",
            "STOP_WORDS",
            "is_content_word",
            "script_runs",
            "singular_forms",
            "text_words",
            "unit_words",
            "word_forms",
        ),
    },
)
