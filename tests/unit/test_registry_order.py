"""Facts the registry keeps current route by route for cold plans: its routes in path order
(``Registry.routes_at``) and the parameters that show their value's kind
(``Registry.paths_showing``). After any registrations, replacements and removals they equal
what a scan of the routes finds."""

from __future__ import annotations

import random
from typing import Any

from schemarouter_integrations import EndpointSpec, FieldSpec, ToolSpec
from schemarouter_integrations._contracts.schemas import PATH_SEGMENT
from schemarouter_integrations._registry import Registry

PARAMETERS: list[tuple[str, dict[str, Any]]] = [
    ("id", {"type": "string", "examples": ["MONDO:0007947"]}),
    ("id", {"type": "string", PATH_SEGMENT: "gene"}),
    ("id", {"type": "string"}),
    ("taxon", {"type": "string", "examples": []}),
    ("taxon", {"type": "integer", "examples": [9606]}),
    ("formula", {"type": "string"}),
]


def tool(name: str, rng: random.Random) -> ToolSpec:
    endpoints = []
    for e in rng.sample(range(6), k=rng.randint(1, 3)):
        chosen = dict(rng.sample(PARAMETERS, k=rng.randint(0, 3)))
        schema = {"type": "object", "properties": chosen}
        endpoints.append(EndpointSpec(name=f"op_{e}", fields=[FieldSpec(name="x")], input_schema=schema))
    return ToolSpec(name=name, endpoints=endpoints)


def changed_registry(seed: int, steps: int) -> tuple[Registry, random.Random]:
    rng = random.Random(seed)
    registry = Registry()
    for _ in range(steps):
        name = f"tool_{rng.randint(0, 40)}"
        if registry.tool(name) is not None and rng.random() < 0.3:
            registry.remove_tool(name)
        else:
            registry.register(tool(name, rng))
    return registry, rng


def test_routes_at_gives_the_registered_routes_at_the_paths_by_path_after_any_changes() -> None:
    registry, rng = changed_registry(seed=7, steps=400)
    every = sorted(registry.routes(), key=lambda route: route.path)
    assert len(every) > 20
    paths = [route.path for route in every] + ["tool_99.op_1", "nowhere.op_0"]
    for share in (0.02, 0.1, 0.5, 1.0):  # few paths are sorted, many picked from the kept order
        asked = set(rng.sample(paths, k=max(1, int(len(paths) * share))))
        assert registry.routes_at(asked) == [route for route in every if route.path in asked]


def test_routes_at_forgets_removed_routes() -> None:
    registry, _ = changed_registry(seed=11, steps=200)
    for name in list(registry.tools):
        registry.remove_tool(name)
    assert registry.routes_at({"tool_1.op_1", "tool_2.op_2"}) == []


def test_paths_showing_names_the_routes_whose_parameter_shows_its_kind_or_that_take_it() -> None:
    registry, _ = changed_registry(seed=5, steps=400)
    routes = list(registry.routes())
    for shown, taking in ((["id"], []), (["taxon"], []), ([], ["formula"]), (["id", "formula"], ["taxon"])):
        expected = {
            route.path
            for route in routes
            if any(name in route.shown for name in shown)
            or any(name in route.argument_names for name in taking)
        }
        assert registry.paths_showing(shown, taking) == expected


def test_a_parameter_shows_its_kind_by_example_values_or_the_path_segment_before_it() -> None:
    schema = {"type": "object", "properties": dict(PARAMETERS[:1] + PARAMETERS[3:])}
    registry = Registry()
    registry.register(ToolSpec(name="t", endpoints=[EndpointSpec(name="e", fields=[FieldSpec(name="x")])]))
    registry.register(
        ToolSpec(
            name="u", endpoints=[EndpointSpec(name="e", fields=[FieldSpec(name="x")], input_schema=schema)]
        )
    )
    segment = {"type": "object", "properties": dict(PARAMETERS[1:2])}
    registry.register(
        ToolSpec(
            name="v", endpoints=[EndpointSpec(name="e", fields=[FieldSpec(name="x")], input_schema=segment)]
        )
    )
    assert registry.paths_showing(["id"], []) == {"u.e", "v.e"}
    assert registry.paths_showing(["taxon"], []) == {"u.e"}  # its examples, not an empty list
    assert registry.paths_showing(["formula"], []) == set()  # taken, but nothing shown of it
    assert registry.paths_showing([], ["formula"]) == {"u.e"}
