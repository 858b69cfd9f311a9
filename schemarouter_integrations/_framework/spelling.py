"""What a model writes, read in the form the tool declares before the face validates it.

Two lossless readings, the same in every face and in ``filters``:

* **A name in another case.** A key the tool does not take, that equals exactly one name it
  takes when case is ignored, is that name (``Formula`` -> ``formula``). A name the tool
  takes is never renamed, and a key two names match ignoring case (``drug_id`` and
  ``DRUG_ID`` both declared) is left as it is and refused as before.
* **A value in another form.** Each value is read by its argument's JSON Schema as
  :func:`~.._contracts.coercion.coerced_value` says (one value where only a list is taken,
  an enum member in another case, ``"2021"`` for an integer).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from .._contracts.coercion import value_reader

__all__ = ["folded_names", "same_name_ignoring_case", "spelling_reader"]


def folded_names(names: Collection[str]) -> dict[str, str | None]:
    """``{name.casefold(): name}`` for *names*; ``None`` where two names fold alike."""
    folded: dict[str, str | None] = {}
    for name in names:
        key = name.casefold()
        folded[key] = name if key not in folded or folded[key] == name else None
    return folded


def same_name_ignoring_case(
    name: str, names: Collection[str], folded: Mapping[str, str | None]
) -> str | None:
    """The one name of *names* (folded as :func:`folded_names`) equal to *name* ignoring case,
    when *name* itself is not one of them; else None."""
    if name in names:
        return None
    return folded.get(name.casefold())


def spelling_reader(names: Collection[str], schemas: Mapping[str, dict[str, Any]]) -> Callable[[Any], Any]:
    """A pydantic ``mode="before"`` reader of the model's top-level values.

    *names* are every key the tool takes; *schemas* the JSON Schema of each argument by the
    keys it is taken under. Keys are read as the module text says, then values.
    """
    taken = frozenset(names)
    folded = folded_names(taken)
    readers = {name: value_reader(schema) for name, schema in schemas.items()}  # each schema read once

    def read(data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        out: dict[str, Any] = {}
        for key, value in data.items():
            # a name taken as written (the common case) is never renamed: no case folding
            name = None if key in taken or not isinstance(key, str) else folded.get(key.casefold())
            if name is None or name in data or name in out:
                name = key
            reader = readers.get(name)
            out[name] = reader(value) if reader is not None and value is not None else value
        return out

    return read
