"""The LangChain package is optional: the root and the shared helpers never import it."""

from __future__ import annotations

import subprocess
import sys


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def test_importing_the_package_without_langchain_core_names_the_extra() -> None:
    out = run_python(
        "import sys; sys.modules['langchain_core'] = None\n"
        "try:\n"
        "    import schemarouter_integrations.langchain\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    assert 'pip install "schemarouter-integrations[langchain]"' in out.stdout


def test_shared_framework_helpers_do_not_import_any_framework() -> None:
    out = run_python(
        "import sys, schemarouter_integrations._framework; "
        "print(sorted(m for m in sys.modules if m.startswith(('langchain', 'llama_index'))))"
    )
    assert out.stdout.strip() == "[]"


def test_the_package_exports_the_tool_and_the_callback_handler() -> None:
    import schemarouter_integrations.langchain as package

    assert package.__all__ == ["SchemaRouterCallbackHandler", "SchemaRouterTool"]
