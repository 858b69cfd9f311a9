"""The default YAML parse builds JSON data straight from libyaml's nodes: the data of the safe
loader followed by ``plain_data``, and the loader's own answer wherever it is unsure."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from schemarouter_integrations.adapters import _yaml, _yaml_nodes

LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
LIMIT = 1_000


def classic(body: bytes, max_nodes: int = LIMIT) -> tuple[str, Any]:
    """What the loader and ``plain_data`` make of *body* (data, or the error's text)."""
    try:
        return "data", _yaml.plain_data(yaml.load(body, Loader=LOADER), [max_nodes])
    except Exception as exc:
        return "error", _error(exc)


def default(body: bytes, max_nodes: int = LIMIT) -> tuple[str, Any]:
    try:
        return "data", _yaml.with_libyaml(body, max_nodes=max_nodes)
    except Exception as exc:
        return "error", _error(exc)


def _error(exc: Exception) -> str:
    """The error's type and text (where the stack ran out varies with the caller's depth)."""
    return type(exc).__name__ if isinstance(exc, RecursionError) else f"{type(exc).__name__}: {exc}"


def tree(body: bytes, max_nodes: int = LIMIT) -> Any:
    """:func:`plain_tree` of *body*'s nodes."""
    loader = LOADER(body)
    try:
        return _yaml_nodes.plain_tree(loader, loader.get_single_node(), max_nodes=max_nodes)
    finally:
        loader.dispose()


PLAIN = {
    "scalars of every implicit kind": "a: [yes, No, ~, '', 017, 0x1F, 1_000, 1e5, 1.5, .inf, -.Inf, 1:20:30]",
    "time stamps": "a: [2001-12-14, 2001-12-14t21:59:43.10-05:00, 2002-1-1 1:2:3]\n",
    "keys that resolve to integers and null": "200: a\n'404': b\n0x1F: c\n~: d\n",
    "quoted look-alikes stay text": "a: ['yes', \"017\", '1e5', '~']\nb: |\n  yes\n",
    "nesting": "paths:\n  /a:\n    get:\n      parameters: [{name: x, in: query}, {name: y}]\n",
    "a scalar document": "--- 12",
    "a sequence document": "- a\n- - b\n  - {c: d}\n",
}


@pytest.mark.parametrize("text", PLAIN.values(), ids=PLAIN.keys())
def test_a_plain_tree_is_read_in_one_pass_as_the_loader_reads_it(text: str) -> None:
    data = tree(text.encode())
    assert data is not _yaml_nodes.UNSURE
    assert json.dumps(("data", data)) == json.dumps(classic(text.encode()))


LEFT_TO_THE_LOADER = {
    "an alias": "a: &x {p: 1}\nb: *x\n",
    "an alias bomb": "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c, *c]\n",
    "a recursive alias": "a: &x [1, *x]\n",
    "merge keys": "base: &b {p: 1}\nc:\n  <<: *b\n  q: 2\n",
    "an inline merge key": "c:\n  <<: {p: 1}\n  q: 2\n",
    "the value key": "=: 1\n",
    "the value as a value": "a: =\n",
    "a later duplicate key": "a: 1\nb: 2\na: 3\n",
    "an integer key and the same text quoted": "1: x\na: 2\n'1': y\n1: z\n",
    "true and 1, one key to the loader": "1: a\ntrue: b\n",
    "1 and 1.0, one key to the loader": "1: a\n1.0: b\n",
    "a float key": "1.5: a\n",
    "two NaN keys": ".nan: a\n.NaN: b\n",
    "one instant written twice": "2001-12-14 21:59:43.10 -5: a\n2001-12-15 2:59:43.10Z: b\n",
    "a date key": "2001-12-14: day\n",
    "a collection as a key": "? [a, b]\n: c\n",
    "a standard tag it does not build": "a: !!binary aGk=\nb: !!set {x}\nc: !!omap [{x: 1}]\n",
    "a tag on the wrong node": "a: !!map x\n",
    "an unknown tag": "a: !!python/object/apply:os.system ['echo hi']\n",
    "a local tag": "a: !thing x\n",
    "nesting past the depth it walks": "a: " + "[" * 150 + "]" * 150,
}


@pytest.mark.parametrize("text", LEFT_TO_THE_LOADER.values(), ids=LEFT_TO_THE_LOADER.keys())
def test_what_the_walk_is_unsure_of_is_constructed_by_the_loader(text: str) -> None:
    body = text.encode()
    assert tree(body) is _yaml_nodes.UNSURE
    assert json.dumps(default(body)) == json.dumps(classic(body))


def test_more_nodes_than_the_budget_are_left_to_the_loader_which_refuses_them() -> None:
    body = ("items:\n" + "".join(f"- {i}\n" for i in range(200))).encode()
    assert tree(body, max_nodes=202) is not _yaml_nodes.UNSURE  # the root, the list and its 200 items
    assert tree(body, max_nodes=201) is _yaml_nodes.UNSURE
    assert default(body, max_nodes=201) == classic(body, max_nodes=201)
    assert default(body, max_nodes=201)[1].startswith("OverflowError")


def test_a_constructor_the_application_replaced_is_the_loaders_to_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    constructors = dict(LOADER.yaml_constructors)
    constructors["tag:yaml.org,2002:str"] = lambda loader, node: node.value.upper()
    monkeypatch.setattr(LOADER, "yaml_constructors", constructors)
    body = b"a: b\n"
    assert tree(body) is _yaml_nodes.UNSURE
    assert default(body) == classic(body) == ("data", {"A": "B"})


def test_an_empty_document_is_none() -> None:
    assert default(b"# nothing\n") == classic(b"# nothing\n") == ("data", None)
