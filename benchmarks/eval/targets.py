"""How each corpus document is served and registered for ``make eval``.

* an OpenAPI document of ``corpus/`` (``register: {kind: openapi, ...}``): served by
  :class:`~benchmarks.eval.server.CorpusServer`, registered with ``add_url`` (the other keys of
  ``register`` are passed on as ``add_url`` options);
* ``optimade`` (``register: {kind: optimade}``): the OPTIMADE reference server
  (optimade-python-tools, in a subprocess) serving the OQMD-like test structures; its vendored
  document is the one that server serves;
* ``mp``: the Materials Project API server (emmet-api) of
  :class:`cookbook.services.materials_project.landscape.MPLandscape`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from benchmarks.eval.corpus import CORPUS, QuestionFile, document_path, load_document, operation_labels
from benchmarks.eval.server import CorpusServer
from schemarouter_integrations import SchemaRouter


class Target(Protocol):
    """One document as the harness meets it."""

    name: str
    total: int
    """Operations the document describes (for OPTIMADE: the entry types it lists)."""
    aliases: dict[str, str]
    """Operation label (operationId or ``"get /path"``) -> the endpoint name it is registered as."""

    async def build(self) -> SchemaRouter:
        """A router with the document registered (a ``SchemaRouterError`` when it does not register)."""
        ...


def endpoint_names(document: dict[str, Any]) -> dict[str, str]:
    """Each operation's label -> its endpoint name, named as the router names it."""
    try:  # the router's own naming (a private module: fall back on the documented rule)
        from schemarouter_integrations.adapters._openapi.operations import openapi_version, walk_operations
        from schemarouter_integrations.adapters._openapi.schema import SchemaResolver

        resolver = SchemaResolver(document, "", openapi_version(document))
        return {record.label: record.endpoint for record in walk_operations(document, resolver)}
    except Exception:
        names: dict[str, str] = {}
        for _method, _path, label in operation_labels(document):
            names[label] = label if label.isidentifier() else re.sub(r"\W+", "_", label).strip("_").lower()
        return names


def tool_name(doc: str) -> str:
    return re.sub(r"\W+", "_", doc).strip("_")


@dataclass
class OpenApiTarget:
    name: str
    server: CorpusServer
    options: dict[str, Any] = field(default_factory=dict)
    total: int = 0
    aliases: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        document = load_document(document_path(self.name, CORPUS))
        self.total = len(operation_labels(document))
        self.aliases = endpoint_names(document)

    async def build(self) -> SchemaRouter:
        router = SchemaRouter()
        await router.add_url(
            self.server.document_url(self.name),
            kind="openapi",
            name=tool_name(self.name),
            provider=tool_name(self.name),
            base_url=self.server.base_url(self.name),
            **self.options,
        )
        return router


@dataclass
class OptimadeTarget:
    name: str
    url: str
    total: int = 0
    aliases: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        document = load_document(document_path(self.name, CORPUS))
        listings = [p for p in document.get("paths") or {} if re.fullmatch(r"/\w+", p)]
        self.total = len([p for p in listings if p not in ("/info", "/versions")])

    async def build(self) -> SchemaRouter:
        router = SchemaRouter()
        await router.add_url(
            self.url, kind="optimade", name=tool_name(self.name), provider=tool_name(self.name)
        )
        return router


@dataclass
class MPTarget:
    name: str
    landscape: Any
    routes: tuple[str, ...] = ("mp_api",)
    total: int = 0
    aliases: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        response = httpx.get(f"{self.landscape.mp_url}/openapi.json", timeout=120.0)
        response.raise_for_status()
        document = response.json()
        self.total = len(operation_labels(document))
        self.aliases = endpoint_names(document)

    async def build(self) -> SchemaRouter:
        # every operation of the document, as a user registering it would
        router: SchemaRouter = await self.landscape.build_router(routes=self.routes, operations=None)
        return router


def mp_unavailable() -> str | None:
    """Why MP cannot be asked here (None: it can)."""
    try:
        from cookbook.services.materials_project.environment import MPEnvironmentUnavailable, mp_python
    except ImportError as exc:
        return f"the MP landscape cannot be imported ({exc})"
    try:
        mp_python(create=False)
    except MPEnvironmentUnavailable as exc:
        return str(exc)
    return None


@contextlib.contextmanager
def optimade_server() -> Iterator[str]:
    from cookbook.services.optimade_server import OptimadeServer

    with OptimadeServer() as server:
        yield server.url


def register_options(question_file: QuestionFile) -> dict[str, Any]:
    return {k: v for k, v in question_file.register.items() if k not in ("kind", "routes")}
