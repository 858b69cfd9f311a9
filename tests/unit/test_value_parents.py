"""A field read inside a small object field is selected as that object: the route knows
which object holds each field from registration (``Route.value_parents``), and a compiled
call's selection reads it (``breadth.whole_values``)."""

from __future__ import annotations

import random

from schemarouter_integrations import EndpointSpec, FieldSpec, ToolSpec
from schemarouter_integrations._planning.breadth import whole_values
from schemarouter_integrations._registry import Route
from schemarouter_integrations._registry.values import VALUE_PARTS


def selected(fields: list[FieldSpec], names: list[str]) -> list[str]:
    """The selection by the rule itself: a field inside an object field that holds at most
    VALUE_PARTS fields is selected as that object; names once each, in order."""
    out: list[str] = []
    for name in names:
        spec = next((f for f in fields if f.name == name), None)
        if spec is not None and len(spec.wire_path) > 1:
            above = spec.wire_path[:-1]
            holders = [f.name for f in fields if f.wire_path == above]
            inside = [f for f in fields if f.wire_path[:-1] == above]
            if holders and len(inside) <= VALUE_PARTS:
                name = holders[-1]
        if name not in out:
            out.append(name)
    return out


def route_of(fields: list[FieldSpec]) -> Route:
    endpoint = EndpointSpec(name="e", fields=fields)
    return Route.build(ToolSpec(name="t", endpoints=[endpoint]), endpoint)


def test_a_part_of_a_small_object_is_selected_as_the_object() -> None:
    fields = [
        FieldSpec(name="symmetry", path=["symmetry"]),
        FieldSpec(name="symbol", path=["symmetry", "symbol"]),
        FieldSpec(name="number", path=["symmetry", "number"]),
        FieldSpec(name="band_gap"),
    ]
    route = route_of(fields)
    assert route.value_parents == {"symbol": "symmetry", "number": "symmetry"}
    assert whole_values(route, ["symbol", "band_gap", "number", "other"]) == ["symmetry", "band_gap", "other"]


def test_a_part_of_a_large_object_or_of_an_undeclared_one_stays_itself() -> None:
    large = [FieldSpec(name="meta", path=["meta"])]
    large += [FieldSpec(name=f"m{i}", path=["meta", f"m{i}"]) for i in range(VALUE_PARTS + 1)]
    loose = [FieldSpec(name="inner", path=["outer", "inner"])]
    assert route_of(large).value_parents == {}
    assert route_of(loose).value_parents == {}
    assert whole_values(route_of(large), ["m1", "m2"]) == ["m1", "m2"]


def test_the_selection_follows_the_rule_for_any_nesting() -> None:
    rng = random.Random(13)
    for _ in range(200):
        fields: list[FieldSpec] = []
        paths: list[list[str]] = [[]]
        for i in range(rng.randint(1, 14)):
            path = [*rng.choice(paths), f"p{rng.randint(0, 3)}"]
            paths.append(path)
            fields.append(FieldSpec(name=f"f{i}", path=path))
        names = rng.choices([f.name for f in fields] + ["none"], k=rng.randint(1, 8))
        assert whole_values(route_of(fields), names) == selected(fields, names)
