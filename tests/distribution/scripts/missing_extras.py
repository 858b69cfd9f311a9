"""In the core-only environment: every face that needs an extra says which one to install."""

import asyncio
import importlib

from schemarouter_integrations import RegistrationError, SchemaRouter

FACES = {
    "schemarouter_integrations.langchain": "langchain",
    "schemarouter_integrations.llamaindex": "llamaindex",
    "schemarouter_integrations.mcp": "mcp",
    "schemarouter_integrations.otel": "otel",
    "schemarouter_integrations.stores._redis": "redis",
}


def install_hint(extra: str) -> str:
    return f"schemarouter-integrations[{extra}]"


for module, extra in FACES.items():
    try:
        importlib.import_module(module)
    except ImportError as exc:
        assert "pip install" in str(exc) and install_hint(extra) in str(exc), f"{module}: {exc}"
        print(f"{module}: {exc}")
    else:
        raise AssertionError(f"{module} imported without the {extra} extra")

try:
    from schemarouter_integrations.stores import RedisAvailabilityStore  # noqa: F401
except ImportError as exc:
    assert install_hint("redis") in str(exc), exc
else:
    raise AssertionError("RedisAvailabilityStore imported without the redis extra")


async def mcp_route() -> None:
    try:
        await SchemaRouter().add_mcp(["true"], name="tools")
    except ImportError as exc:
        assert install_hint("mcp") in str(exc), exc
    else:
        raise AssertionError("add_mcp worked without the mcp extra")


async def federation() -> None:
    try:
        await SchemaRouter().add_optimade_federation()
    except RegistrationError as exc:
        assert "[optimade] extra" in str(exc), exc
    else:
        raise AssertionError("the bundled providers list was read without the optimade extra")


asyncio.run(mcp_route())
asyncio.run(federation())
print("missing extras ok")
