"""Canonical JSON and sha256 fingerprints of contracts, and JSON encoders built once."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

Encode = Callable[[Any, int], Sequence[str]]
"""The C encoder of :mod:`json`: ``"".join(encode(value, 0))`` is the text of *value*."""


def stateless_encoder(settings: json.JSONEncoder) -> Encode | None:
    """The C encoder that ``settings.encode`` builds on every call, built once and without
    the circular-reference check, so it holds no state between calls and may be shared
    (``None`` where Python has no C encoder, or for settings it cannot take: indentation).

    It writes the same text as ``settings.encode`` for every value it can encode; a circular
    value overflows it (``RecursionError``), so callers let ``settings.encode`` report that.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None or settings.indent is not None:  # pragma: no cover - CPython has it
        return None
    strings = (
        json.encoder.encode_basestring_ascii if settings.ensure_ascii else json.encoder.encode_basestring
    )
    encode: Encode = make(
        None, settings.default, strings, None, settings.key_separator, settings.item_separator,
        settings.sort_keys, settings.skipkeys, settings.allow_nan,
    )  # fmt: skip
    return encode


def fast_encoding(settings: json.JSONEncoder) -> Callable[[Any], str]:
    """``settings.encode``, through its :func:`stateless_encoder` where there is one: a value
    that overflows that (circular or too deep) goes to ``settings.encode``, which says which."""
    fast = stateless_encoder(settings)
    if fast is None:  # pragma: no cover - CPython has it
        return settings.encode

    def encode(value: Any) -> str:
        try:
            return "".join(fast(value, 0))
        except RecursionError:
            return settings.encode(value)

    return encode


def _not_json(value: Any) -> Any:
    raise ValueError(f"a value of type {type(value).__name__} is not JSON data")


_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_not_json
)
_encode_canonical = fast_encoding(_CANONICAL)


def canonical_json(value: Any) -> str:
    """Sorted keys, compact separators, UTF-8 kept: the same data always gives the same text.

    Only JSON data has a canonical text: a value that is not (a set, bytes, a datetime, NaN
    or an infinity, or nesting too deep to encode) raises ``ValueError`` naming the problem.
    """
    try:
        return _encode_canonical(value)
    except RecursionError:
        raise ValueError("the value is nested too deeply to be JSON data") from None
    except TypeError as exc:  # keys of mixed types cannot be sorted
        raise ValueError(f"the value is not JSON data: {exc}") from None


def fingerprint_of(value: Any) -> str:
    """``sha256:<hex>`` over :func:`canonical_json`."""
    digest = hashlib.sha256(canonical_json(value).encode("utf-8", errors="surrogatepass")).hexdigest()
    return f"sha256:{digest}"
