"""LangChain's standard tool suites against SchemaRouterTool, offline, in three configurations.

``success``: every route up; ``fallback``: the primary down (mp_api), the run falls back;
``all_down``: every route down, the tool answers with an error message whose artifact is the
failure summary (the suite requires an artifact on every ``content_and_artifact`` message).
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from schemarouter_integrations.langchain import SchemaRouterTool
from tests.support.seed import seed_router

CONFIGURATIONS = {
    "success": (),
    "fallback": ("mp_api",),
    "all_down": ("mp_api", "mp_optimade", "mp_python", "oqmd_api"),
}


def _params(down: tuple[str, ...]) -> dict[str, Any]:
    router, _ = seed_router(down=down)
    return {"router": router, "name": "materials", "fallback_scope": "cross_provider"}


class _Suite:
    down: tuple[str, ...] = CONFIGURATIONS["fallback"]

    @property
    def tool_constructor(self) -> type[SchemaRouterTool]:
        return SchemaRouterTool

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return _params(self.down)

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"query": "band gap of Si", "formula": "Si"}


class TestSchemaRouterToolUnit(_Suite, ToolsUnitTests):
    pass


@pytest.mark.anyio
class TestSchemaRouterToolInProcess(_Suite, ToolsIntegrationTests):
    pass


class TestSchemaRouterToolUnitAllUp(_Suite, ToolsUnitTests):
    down = CONFIGURATIONS["success"]


@pytest.mark.anyio
class TestSchemaRouterToolInProcessAllUp(_Suite, ToolsIntegrationTests):
    down = CONFIGURATIONS["success"]


class TestSchemaRouterToolUnitAllDown(_Suite, ToolsUnitTests):
    down = CONFIGURATIONS["all_down"]


@pytest.mark.anyio
class TestSchemaRouterToolInProcessAllDown(_Suite, ToolsIntegrationTests):
    down = CONFIGURATIONS["all_down"]
