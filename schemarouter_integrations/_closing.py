"""``async with`` for the objects that close with ``aclose()``: the router and the stores."""

from __future__ import annotations

from types import TracebackType

__all__ = ["ClosesOnExit"]


class ClosesOnExit:
    """Leaving ``async with`` awaits :meth:`aclose`, however the block ended."""

    async def aclose(self) -> None:
        """Release what the object holds (a subclass says what)."""

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
