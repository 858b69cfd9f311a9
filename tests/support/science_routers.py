"""Routers over the real science-data documents, and the question table measured on them.

``python -m tests.support.science_routers`` downloads the documents (once), serves them over
loopback, registers each with ``add_url`` and prints, for every question of
:mod:`tests.support.science_questions`, the operation expected and the one the router chose,
with the right-operation count k/n per document and overall.
"""

from __future__ import annotations

import asyncio
import sys
from collections import defaultdict

from schemarouter_integrations import NoRouteError, PlanRequest, SchemaRouter
from tests.servers.schema_api import SchemaApiServer
from tests.support.package_documents import OPEN_METEO_APIS
from tests.support.science_questions import QUESTIONS, Question

OPEN_METEO = "open-meteo"
DOCUMENTS = ("opentargets.json", "openaq.json", "rgd.json", "monarch.json", "crossbar.json")


def tool_name(document: str) -> str:
    return document.split(".")[0].replace("-", "_")


def open_meteo_documents() -> list[str]:
    return [f"open-meteo-{api}.yaml" for api in OPEN_METEO_APIS]


async def register(router: SchemaRouter, server: SchemaApiServer, document: str, **options: object) -> None:
    """Register *document* (or, for ``open-meteo``, its nine documents) on *router*."""
    for name in open_meteo_documents() if document == OPEN_METEO else [document]:
        await router.add_url(
            server.document_url(name),
            kind="openapi",
            name=tool_name(name),
            provider=tool_name(document),
            base_url=server.base_url(name),
            **options,  # type: ignore[arg-type]
        )


def chosen(router: SchemaRouter, question: Question) -> str | None:
    """The primary operation the router plans for *question* (``tool.endpoint`` for Open-Meteo)."""
    try:
        plan = router.plan(PlanRequest(query=question.query, arguments=question.arguments))
    except NoRouteError:
        return None
    if plan.primary is None:
        return None
    if question.document == OPEN_METEO:
        return f"{plan.primary.tool}.{plan.primary.endpoint}"
    return plan.primary.endpoint


async def _table() -> int:
    from tests.support.package_documents import package_documents

    server = SchemaApiServer(package_documents()).start()
    right: dict[str, list[bool]] = defaultdict(list)
    try:
        for document in (*DOCUMENTS, OPEN_METEO):
            async with SchemaRouter() as router:
                await register(router, server, document)
                for question in (q for q in QUESTIONS if q.document == document):
                    got = chosen(router, question)
                    ok = got in question.expected
                    right[document].append(ok)
                    mark = "ok " if ok else "NO "
                    print(f"{mark}| {document} | {question.query} | {' or '.join(question.expected)} | {got}")
    finally:
        server.stop()
    print()
    for document, oks in right.items():
        print(f"{document}: {sum(oks)}/{len(oks)}")
    total = [ok for oks in right.values() for ok in oks]
    print(f"overall: {sum(total)}/{len(total)}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(_table()))
