"""npm ``@modelcontextprotocol/server-memory`` as a route: ``env=`` points it at its file, a
question about entities is read by each tool's own fields (never as needing another tool's
``entityName``), answers holding records arrays answer those records, and its knowledge
graph resource is a read-only endpoint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter

pytestmark = [pytest.mark.anyio, pytest.mark.integration, pytest.mark.timeout(300)]

READERS = ["read_graph", "search_nodes", "open_nodes"]
SILICON = {"name": "Si", "entityType": "element", "observations": ["a semiconductor"]}


@pytest.fixture
def memory_file(tmp_path: Path) -> Path:
    path = tmp_path / "memory.jsonl"
    path.write_text(json.dumps({"type": "entity", **SILICON}) + "\n")
    return path


def _names_in(path: Path) -> list[str]:
    """The entity names the memory server wrote to its file."""
    return [json.loads(line)["name"] for line in path.read_text().splitlines()]


async def _router(command: list[str], memory_file: Path) -> SchemaRouter:
    router = SchemaRouter()
    await router.add_mcp(
        command, name="memory", read_only=READERS, env={"MEMORY_FILE_PATH": str(memory_file)}
    )
    return router


async def test_entities_named_si_are_read_by_the_tools_own_fields(
    memory_server: list[str], memory_file: Path
) -> None:
    router = await _router(memory_server, memory_file)
    async with router:
        request = PlanRequest(query="entities named Si", arguments={"names": ["Si"]})
        plan = router.plan(request)
        result = await router.invoke(request)

    assert plan.need == ["entities"]  # not add_observations' entityName
    assert result.endpoint == "open_nodes"
    assert result.records == [{"entities": [SILICON]}]  # read from the file env= named


async def test_a_tool_answering_entities_answers_them_as_records(
    memory_server: list[str], memory_file: Path
) -> None:
    router = await _router(memory_server, memory_file)
    germanium = {"name": "Ge", "entityType": "element", "observations": ["a semiconductor too"]}
    async with router:
        result = await router.invoke(
            PlanRequest(
                query="create entities", arguments={"entities": [germanium]}, preferred_tools=["memory"]
            )
        )

    assert result.endpoint == "create_entities"
    assert result.records == [germanium]
    assert _names_in(memory_file) == ["Si", "Ge"]


async def test_the_knowledge_graph_resource_is_a_read_only_endpoint(
    memory_server: list[str], memory_file: Path
) -> None:
    router = await _router(memory_server, memory_file)
    async with router:
        endpoint = next(e for e in router.registry.tool("memory").endpoints if e.name == "knowledge_graph")  # type: ignore[union-attr]
        result = await router.invoke(PlanRequest(query="the whole knowledge graph resource"))

    assert endpoint.read_only is True
    assert result.endpoint == "knowledge_graph"
    assert result.records == [{"entities": [SILICON], "relations": []}]
