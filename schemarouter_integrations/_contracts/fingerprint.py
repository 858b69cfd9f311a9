"""Canonical JSON and sha256 fingerprints of contracts."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    """Sorted keys, compact separators, UTF-8 kept: the same data always gives the same text.

    Only JSON data has a canonical text: a value that is not (a set, bytes, a datetime, NaN
    or an infinity, or nesting too deep to encode) raises ``ValueError`` naming the problem.
    """
    try:
        return json.dumps(
            value,
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
            allow_nan=False,
            default=_not_json,
        )
    except RecursionError:
        raise ValueError("the value is nested too deeply to be JSON data") from None
    except TypeError as exc:  # keys of mixed types cannot be sorted
        raise ValueError(f"the value is not JSON data: {exc}") from None


def fingerprint_of(value: Any) -> str:
    """``sha256:<hex>`` over :func:`canonical_json`."""
    digest = hashlib.sha256(canonical_json(value).encode("utf-8", errors="surrogatepass")).hexdigest()
    return f"sha256:{digest}"


def _not_json(value: Any) -> Any:
    raise ValueError(f"a value of type {type(value).__name__} is not JSON data")
