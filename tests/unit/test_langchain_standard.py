"""LangChain's standard tool suites against SchemaRouterTool, offline (seed router, primary down)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from schemarouter_integrations.langchain import SchemaRouterTool
from tests.support.seed import seed_router


def _params() -> dict[str, Any]:
    router, _ = seed_router(down=("mp_api",))
    return {"router": router, "name": "materials", "fallback_scope": "cross_provider"}


class TestSchemaRouterToolUnit(ToolsUnitTests):
    @property
    def tool_constructor(self) -> type[SchemaRouterTool]:
        return SchemaRouterTool

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return _params()

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"query": "band gap of Si", "formula": "Si"}


@pytest.mark.anyio
class TestSchemaRouterToolInProcess(ToolsIntegrationTests):
    @property
    def tool_constructor(self) -> type[SchemaRouterTool]:
        return SchemaRouterTool

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return _params()

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"query": "band gap of Si", "formula": "Si"}
