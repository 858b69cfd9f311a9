"""Registration: contracts, bindings and the indexes planning reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .fieldwords import FieldProfile as FieldProfile
    from .fieldwords import FieldWordIndex as FieldWordIndex
    from .lexicon import LexicalDocument as LexicalDocument
    from .lexicon import LexicalIndex as LexicalIndex
    from .registry import Binding as Binding
    from .registry import BindingState as BindingState
    from .registry import Invoker as Invoker
    from .registry import Registry as Registry
    from .registry import SurfaceIndex as SurfaceIndex
    from .routes import FieldMatch as FieldMatch
    from .routes import Route as Route
    from .routes import RouteRef as RouteRef
    from .routes import surface_key as surface_key
    from .words import CONTRACT_MIN_LETTERS as CONTRACT_MIN_LETTERS
    from .words import STOP_WORDS as STOP_WORDS
    from .words import is_content_word as is_content_word
    from .words import script_runs as script_runs
    from .words import singular_forms as singular_forms
    from .words import text_words as text_words
    from .words import unit_words as unit_words
    from .words import word_forms as word_forms


__all__, __getattr__, __dir__ = _lazy_attributes(
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
