"""The base of every contract model: frozen, strict about unknown keys, re-validated on copy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from pydantic import BaseModel, ConfigDict


class Contract(BaseModel):
    """Immutable pydantic model whose copies with changes are validated (and fingerprinted) anew."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        if not update:
            return super().model_copy(deep=deep)
        data = self.model_dump()
        data.update(update)
        return type(self).model_validate(data)
