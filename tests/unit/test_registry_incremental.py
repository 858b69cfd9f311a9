"""The registry keeps its field index current route by route: after any sequence of
registrations, replacements and removals it equals an index built from scratch."""

from __future__ import annotations

import random

from schemarouter_integrations import EndpointSpec, FieldSpec, ToolSpec
from schemarouter_integrations._registry import Registry, SurfaceIndex

WORDS = ["band gaps", "gap", "formula", "lattice vectors", "탄성계수", "density", "energies"]


def tool(name: str, rng: random.Random) -> ToolSpec:
    fields = [
        FieldSpec(name=f"f_{i}", aliases=rng.sample(WORDS, k=2), semantic_id=rng.choice(["a", "b", "c"]))
        for i in range(rng.randint(1, 3))
    ]
    return ToolSpec(name=name, endpoints=[EndpointSpec(name="search", fields=fields)])


def snapshot(index: SurfaceIndex) -> tuple[object, ...]:
    return (index.spaced, index.unspaced, index.inflected, index.max_words)


def test_the_field_index_equals_a_fresh_build_after_any_changes() -> None:
    rng = random.Random(3)
    registry = Registry()
    for step in range(300):
        name = f"tool_{rng.randint(0, 12)}"
        if registry.tool(name) is not None and rng.random() < 0.3:
            registry.remove_tool(name)
        else:
            registry.register(tool(name, rng))
        if step % 25 == 0:
            assert snapshot(registry.index) == snapshot(SurfaceIndex(registry.routes()))
    assert snapshot(registry.index) == snapshot(SurfaceIndex(registry.routes()))


def test_removing_every_tool_empties_the_index() -> None:
    rng = random.Random(5)
    registry = Registry()
    for i in range(10):
        registry.register(tool(f"tool_{i}", rng))
    for i in range(10):
        registry.remove_tool(f"tool_{i}")
    assert snapshot(registry.index) == ({}, {}, {}, 1)
