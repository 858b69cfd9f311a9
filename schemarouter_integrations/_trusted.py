"""Building pydantic models from values the router made itself, without validating them again.

Events, attempt records and results are built many times per run from data that is already
typed (compiled calls, the run's own counters, validated records). Validating it again costs
more than the run's own work, and pydantic's ``model_construct`` is slower still. A
:class:`Trusted` builder does what ``model_construct`` does for plain models (fields in
declaration order, defaults filled, ``model_fields_set`` = the given names) and still refuses
unknown and missing names, so a typo fails loudly instead of building a wrong object.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

M = TypeVar("M", bound=BaseModel)
# BaseModel's slots, set through their descriptors: what ``object.__setattr__`` ends up
# doing, without looking each name up again on every build
_slots: dict[str, Any] = dict(vars(BaseModel))
_set_dict = _slots["__dict__"].__set__
_set_fields_set = _slots["__pydantic_fields_set__"].__set__
_set_extra = _slots["__pydantic_extra__"].__set__
_set_private = _slots["__pydantic_private__"].__set__
_IMMUTABLE = (str, int, float, bool, type(None), tuple, frozenset)

__all__ = ["Trusted"]


class Trusted(Generic[M]):
    """``Trusted(cls)(**values)``: a *cls* instance holding *values* as given (no validation).

    Only for models without private attributes, extra fields or ``model_post_init``; the
    caller guarantees that every value already has its field's type.
    """

    __slots__ = ("_cls", "_factories", "_known", "_required", "_template")

    def __init__(self, cls: type[M]) -> None:
        if cls.__private_attributes__ or cls.model_config.get("extra") == "allow":
            raise TypeError(f"{cls.__name__} has private attributes or extras: build it validated")
        if cls.model_post_init is not BaseModel.model_post_init:
            raise TypeError(f"{cls.__name__} runs model_post_init: build it validated")
        self._cls = cls
        self._template: dict[str, Any] = {}
        self._factories: list[tuple[str, Callable[[], Any]]] = []
        required: set[str] = set()
        for name, info in cls.model_fields.items():
            self._template[name] = None
            if info.default_factory is not None:
                self._factories.append((name, info.default_factory))  # type: ignore[arg-type]
            elif info.default is PydanticUndefined:
                required.add(name)
            elif isinstance(info.default, _IMMUTABLE):
                self._template[name] = info.default
            else:
                self._factories.append((name, _copier(info.default)))
        self._required = frozenset(required)
        self._known = frozenset(self._template)

    def __call__(self, /, **values: Any) -> M:
        return self.of(values)

    def of(self, values: dict[str, Any]) -> M:
        """Like calling the builder with ``**values``; *values* must not be changed afterwards."""
        given = values.keys()
        if not (self._required <= given <= self._known):
            missing, unknown = sorted(self._required - given), sorted(given - self._known)
            raise TypeError(f"{self._cls.__name__}: missing {missing}, unknown {unknown}")
        fields = {**self._template, **values}
        for name, factory in self._factories:
            if name not in values:
                fields[name] = factory()
        cls = self._cls
        built = cls.__new__(cls)
        _set_dict(built, fields)
        _set_fields_set(built, set(given))
        _set_extra(built, None)
        _set_private(built, None)
        return built


def _copier(value: Any) -> Callable[[], Any]:
    """A factory of fresh copies of a mutable default (pydantic copies those as well)."""
    return lambda: copy.deepcopy(value)
