"""A custom adapter: your own access path, as a contract plus a trusted invoker.

Runs offline: ``python cookbook/custom_adapter.py``.

The invoker contract: an async callable ``(call: ToolCall) -> raw response``. It receives the
compiled call (``call.endpoint``, ``call.arguments`` in canonical names, ``call.selected_fields``
and ``call.server_projection``, the request parameters that push the field selection upstream,
here ``{"columns": "gap_ev,material"}``), asks its backend, and returns the raw response as
the backend gives it. The router then finds the records (``records_path``), maps wire names to
canonical ones (each field's ``path``) and keeps only the selected fields. Raise
``InvocationUnavailableError`` for a transient failure (retry, cooldown, fallback) and
``NonRetryableInvocationError`` for anything else.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    PlanRequest,
    SchemaRouter,
    ServerProjectionSpec,
    ToolCall,
    ToolSpec,
)

TABLE = [  # a lab's own database: its column names, not the canonical ones
    {"material": "Si", "gap_ev": 0.61, "density": 2.33, "notes": "diamond"},
    {"material": "GaAs", "gap_ev": 1.42, "density": 5.32, "notes": "zincblende"},
]


class LabDatabase:
    """The backend: answers a column-projected query, or is down."""

    up = True

    async def select(self, columns: list[str], material: str) -> dict[str, Any]:
        if not self.up:
            raise InvocationUnavailableError("lab database: connection refused")
        rows = [{c: row[c] for c in columns} for row in TABLE if row["material"] == material]
        return {"rows": rows, "count": len(rows)}


def lab_contract() -> ToolSpec:
    return ToolSpec(
        name="lab_db",
        provider="our_lab",
        access_mode="sql",
        endpoints=[
            EndpointSpec(
                name="select",
                read_only=True,
                records_path=["rows"],
                input_schema={"type": "object", "properties": {"formula": {"type": "string"}}},
                fields=[
                    FieldSpec(name="band_gap", path=["gap_ev"], aliases=["gap"]),
                    FieldSpec(name="formula", path=["material"], identity=True),
                    FieldSpec(name="density", path=["density"]),
                ],
                projection=ServerProjectionSpec(
                    parameter="columns", field_map={"band_gap": "gap_ev", "formula": "material"}
                ),
            )
        ],
    )


def lab_invoker(database: LabDatabase) -> Any:
    async def invoke(call: ToolCall) -> Any:
        print(f"  invoker got: endpoint={call.endpoint} arguments={call.arguments}")
        print(f"               server_projection={call.server_projection}")
        columns = call.server_projection.get("columns", "gap_ev,material,density,notes").split(",")
        raw = await database.select(columns, call.arguments["formula"])
        print(f"  backend answered: {raw}")
        return raw

    return invoke


async def main() -> None:
    router = SchemaRouter()
    router.register(lab_contract(), lab_invoker(LabDatabase()))
    result = await router.invoke(PlanRequest(query="band gap of Si", arguments={"formula": "Si"}))
    print(f"Canonical records: {result.records} (from {result.tool}.{result.endpoint})")


if __name__ == "__main__":
    anyio.run(main)
