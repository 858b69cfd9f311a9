"""Every module that needs an optional extra says, in the same words, which extra to install
when its packages are missing (the packages are hidden in ``sys.modules``)."""

from __future__ import annotations

import importlib
import sys

import pytest

NEEDS = {  # module -> (the packages it imports from, the extra that brings them)
    "schemarouter_integrations.langchain": (("langchain_core",), "langchain"),
    "schemarouter_integrations.llamaindex": (("llama_index",), "llamaindex"),
    "schemarouter_integrations.mcp": (("mcp",), "mcp"),
    "schemarouter_integrations.otel": (("opentelemetry",), "otel"),
    "schemarouter_integrations.stores._redis": (("redis",), "redis"),
    "schemarouter_integrations.stores._redis_client": (("redis",), "redis"),
    "schemarouter_integrations.testing.langchain": (("langchain_core",), "langchain"),
    "schemarouter_integrations.testing.llamaindex": (("llama_index",), "llamaindex"),
    "schemarouter_integrations.adapters._mcp.route": (("mcp", "mcp_types"), "mcp"),
}


@pytest.mark.parametrize("module", sorted(NEEDS))
def test_a_module_without_its_extra_names_the_extra_to_install(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    packages, extra = NEEDS[module]
    for name in [m for m in sys.modules if m.split(".")[0] in packages]:
        monkeypatch.setitem(sys.modules, name, None)
    for name in packages:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, module, raising=False)

    with pytest.raises(ImportError) as raised:
        importlib.import_module(module)

    hint = f'pip install "schemarouter-integrations[{extra}]"'
    assert str(raised.value).endswith(f"; install the extra: {hint}")
