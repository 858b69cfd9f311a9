"""The base of every contract model: frozen, strict about unknown keys, re-validated on copy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Self

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError

from ..errors import InvalidContractError
from .fingerprint import canonical_json
from .interning import shared_fields_set
from .views import json_view, text_fingerprint


class _NotGiven:
    """The default of a first parameter that may be given positionally or by keyword."""

    def __repr__(self) -> str:
        return "<required>"


NOT_GIVEN: Final[Any] = _NotGiven()


def with_first(name: str, value: object, data: dict[str, Any]) -> dict[str, Any]:
    """*data* with the first documented parameter *name* added when it was given positionally.

    Used by the ``__init__`` of contracts whose first parameter may be positional
    (``FieldSpec("band_gap")``); a missing value is left to validation, which reports it with
    every other problem of the input.
    """
    if value is not NOT_GIVEN:
        data[name] = value
    return data


class Contract(BaseModel):
    """Immutable pydantic model whose copies with changes are validated (and fingerprinted) anew.

    Attributes cannot be assigned; list attributes are shared, not copied, so they must not be
    changed in place either (a changed list would no longer match the fingerprint).
    ``model_fields_set`` is one read-only set shared by every contract given the same names
    (see :mod:`.interning`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except InvalidContractError:
            raise
        except ValidationError as exc:
            raise InvalidContractError.of(exc) from None

    def model_post_init(self, context: Any, /) -> None:
        object.__setattr__(self, "__pydantic_fields_set__", shared_fields_set(self.__pydantic_fields_set__))

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        if not update:
            return super().model_copy(deep=deep)
        # the validated values as they are (contracts and interned schemas shared, not dumped)
        data = {name: self.__dict__[name] for name in type(self).model_fields}
        data.update(update)
        try:
            return type(self).model_validate(data)
        except InvalidContractError:
            raise
        except ValidationError as exc:
            raise InvalidContractError.of(exc) from None


class FingerprintedContract(Contract):
    """A contract with ``fingerprint``: sha256 over the canonical JSON of all its fields."""

    _fingerprint: str = PrivateAttr(default="")
    _text: str | None = PrivateAttr(default=None)

    def model_post_init(self, context: Any, /) -> None:
        super().model_post_init(context)
        self._fingerprint = self._fingerprinted()

    def _fingerprinted(self) -> str:
        """The fingerprint, its text kept for the first tool that holds this contract."""
        text = self._text = canonical_json(json_view(self))
        return text_fingerprint(text)

    def take_text(self) -> str:
        """The canonical JSON this contract was fingerprinted from, forgotten once taken (a
        tool's fingerprint holds its endpoints' texts; see :mod:`.views`)."""
        text = self.__pydantic_private__["_text"]  # type: ignore[index]
        if text is None:
            return canonical_json(json_view(self))
        self.__pydantic_private__["_text"] = None  # type: ignore[index]
        return text  # type: ignore[no-any-return]

    @property
    def fingerprint(self) -> str:
        """``sha256:<hex>``; any change of the contract changes it."""
        return self.__pydantic_private__["_fingerprint"]  # type: ignore[index,no-any-return]
