"""Remote documents are parsed in a worker thread: a large document, or a YAML alias bomb
that takes about a second to refuse, never blocks the event loop that other runs share."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest

from schemarouter_integrations import RegistrationError
from schemarouter_integrations.adapters import _documents
from schemarouter_integrations.adapters._url import build_url_route

pytestmark = pytest.mark.anyio


def alias_bomb(levels: int = 10) -> bytes:
    """Each level refers four times to the one before: 9 * 4**levels nodes once expanded."""
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for i in range(levels):
        this, before = chr(98 + i), chr(97 + i)
        lines.append(f"{this}: &{this} [*{before},*{before},*{before},*{before}]")
    return "\n".join(lines).encode()


async def test_a_document_is_parsed_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []
    parse = _documents.parse_document

    def spying(body: bytes, *, where: str) -> Any:
        threads.append(threading.get_ident())
        return parse(body, where=where)

    monkeypatch.setattr(_documents, "parse_document", spying)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=alias_bomb(), headers={"content-type": "application/yaml"})

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        with pytest.raises(RegistrationError, match="expands to more than"):
            await build_url_route("http://api.test/openapi.yaml", kind="openapi", name="bomb", client=client)
    assert threads and threads[0] != threading.get_ident()
