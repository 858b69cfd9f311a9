"""Evaluation of a faster YAML parser for OpenAPI documents: rapidyaml against libyaml.

Not part of ``make bench`` (rapidyaml is not a dependency). Run it in an environment with
PyYAML and ``rapidyaml`` installed::

    python benchmarks/yaml_parser_eval.py [document.yaml]   # default: GitHub's, from .cache/

rapidyaml (``ryml``) parses into its own tree; the tree is turned into Python objects here with
YAML 1.1 core scalars (null, booleans, integers, floats; quoted values stay strings), which is
what the package's libyaml loader (``CSafeLoader``) reads for these documents. Prints both
parse times (process CPU seconds, alternating, medians of 3) and every difference between
the two results (at most 10 shown).
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT = Path(__file__).resolve().parent.parent / ".cache" / "documents" / "github.yaml"
_INT = re.compile(r"[-+]?[0-9]+$")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_NULLS = frozenset({"null", "Null", "NULL", "~", ""})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})


def _scalar(tree: Any, node: int) -> Any:
    raw = tree.val(node)
    text = bytes(raw).decode() if raw is not None else ""
    if tree.is_val_quoted(node):
        return text
    if text in _NULLS:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def _build(tree: Any, node: int, none: int) -> Any:
    if tree.is_map(node):
        mapping: dict[str, Any] = {}
        child = tree.first_child(node)
        while child != none:
            mapping[bytes(tree.key(child)).decode()] = _build(tree, child, none)
            child = tree.next_sibling(child)
        return mapping
    if tree.is_seq(node):
        items: list[Any] = []
        child = tree.first_child(node)
        while child != none:
            items.append(_build(tree, child, none))
            child = tree.next_sibling(child)
        return items
    return _scalar(tree, node)


def ryml_load(body: bytes) -> Any:
    import ryml

    tree = ryml.parse_in_arena(body)
    root = tree.root_id()
    if tree.is_stream(root):
        root = tree.first_child(root)
    return _build(tree, root, ryml.NONE)


def differences(a: Any, b: Any, path: str = "", found: list[str] | None = None) -> list[str]:
    found = [] if found is None else found
    if len(found) >= 10:
        return found
    if type(a) is not type(b):
        found.append(f"{path or '/'}: {a!r:.60} vs {b!r:.60}")
    elif isinstance(a, dict):
        for key in a.keys() | b.keys():
            if key not in a or key not in b:
                found.append(f"{path}/{key}: only on one side")
            else:
                differences(a[key], b[key], f"{path}/{key}", found)
    elif isinstance(a, list):
        if len(a) != len(b):
            found.append(f"{path}: {len(a)} vs {len(b)} items")
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            differences(x, y, f"{path}[{index}]", found)
    elif a != b:
        found.append(f"{path}: {a!r:.60} vs {b!r:.60}")
    return found


def main() -> None:
    import yaml

    sys.setrecursionlimit(10_000)
    body = Path(sys.argv[1] if len(sys.argv) > 1 else DEFAULT).read_bytes()
    samples: dict[str, list[float]] = {"libyaml CSafeLoader": [], "rapidyaml + tree walk": []}
    results: dict[str, Any] = {}
    for _ in range(3):
        for name, load in (
            ("libyaml CSafeLoader", lambda: yaml.load(body, Loader=yaml.CSafeLoader)),
            ("rapidyaml + tree walk", lambda: ryml_load(body)),
        ):
            started = time.process_time()
            results[name] = load()
            samples[name].append(time.process_time() - started)
    for name, values in samples.items():
        print(f"{name:<24} {statistics.median(values):6.2f} CPU s")
    ratio = statistics.median(samples["libyaml CSafeLoader"]) / statistics.median(
        samples["rapidyaml + tree walk"]
    )
    print(f"rapidyaml is {ratio:.1f}x faster")
    found = differences(results["libyaml CSafeLoader"], results["rapidyaml + tree walk"])
    print(f"{len(found)} difference(s) shown:", *found, sep="\n  ")


if __name__ == "__main__":
    main()
