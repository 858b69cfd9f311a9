"""Evaluation of faster YAML parsers for OpenAPI documents against libyaml (``CSafeLoader``).

Not part of ``make bench``. Run it where PyYAML is installed; each candidate that is not
installed is skipped (``uv pip install rapidyaml yaml-rs msgspec`` to try them all)::

    python benchmarks/yaml_parser_eval.py [document.yaml ...]   # default: GitHub's, from .cache/

Candidates, each turned into the JSON data registration uses (string keys, dates as text):

* ``libyaml``: ``yaml.load(Loader=CSafeLoader)``, the default, and the reference;
* ``rapidyaml``: the package's walk of rapidyaml's tree (``adapters/_yaml.with_rapidyaml``,
  YAML 1.1 scalars by PyYAML's own resolvers; what it leaves to libyaml is reported);
* ``yaml-rs``: ``yaml_rs.loads`` (Rust, YAML 1.2: ``yes`` stays text, ``017`` is 17, ``1e5`` a
  float; it keeps no scalar style, so a 1.1 reading cannot be rebuilt from its output);
* ``msgspec``: ``msgspec.yaml.decode``, which runs PyYAML underneath (no faster by design).

Prints process CPU seconds (alternating, medians of 3) and how many values differ from
libyaml's data (order of keys included); the first few differences are shown.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / ".cache" / "documents" / "github.yaml"
LIMIT = 2_000_000


def candidates() -> dict[str, Callable[[bytes], Any]]:
    """Each installed parser as ``body -> JSON data`` (or the string ``"left to libyaml"``)."""
    sys.path.insert(0, str(ROOT))
    from schemarouter_integrations.adapters import _yaml

    found: dict[str, Callable[[bytes], Any]] = {
        "libyaml": lambda body: _yaml.with_libyaml(body, max_nodes=LIMIT)
    }
    if _yaml.parser_in_use() == "rapidyaml":

        def rapidyaml(body: bytes) -> Any:
            data = _yaml.with_rapidyaml(body, max_nodes=LIMIT)
            return "left to libyaml" if data is _yaml.UNSURE else data

        found["rapidyaml"] = rapidyaml
    try:
        import yaml_rs

        found["yaml-rs"] = lambda body: _yaml.plain_data(yaml_rs.loads(body.decode()), [LIMIT])
    except ImportError:
        pass
    try:
        import msgspec.yaml

        found["msgspec"] = lambda body: _yaml.plain_data(msgspec.yaml.decode(body), [LIMIT])
    except ImportError:
        pass
    return found


def differences(a: Any, b: Any, path: str = "", found: list[str] | None = None) -> list[str]:
    """Where *b* differs from *a* (types, values, key order), every difference."""
    found = [] if found is None else found
    if type(a) is not type(b):
        found.append(f"{path or '/'}: {a!r:.50} vs {b!r:.50}")
    elif isinstance(a, dict):
        if list(a) != list(b) and a.keys() == b.keys():
            found.append(f"{path or '/'}: the same keys in another order")
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
    elif json.dumps(a) != json.dumps(b):
        found.append(f"{path}: {a!r:.50} vs {b!r:.50}")
    return found


def evaluate(path: Path) -> None:
    body = path.read_bytes()
    parsers = candidates()
    samples: dict[str, list[float]] = {name: [] for name in parsers}
    results: dict[str, Any] = {}
    for _ in range(3):
        for name, load in parsers.items():
            started = time.process_time()
            results[name] = load(body)
            samples[name].append(time.process_time() - started)
    reference = statistics.median(samples["libyaml"])
    print(f"{path.name} ({len(body) / 1e6:.1f} MB)")
    for name, values in samples.items():
        seconds = statistics.median(values)
        if isinstance(results[name], str):
            print(f"  {name:<10} {seconds:6.2f} CPU s  {results[name]}")
            continue
        found = differences(results["libyaml"], results[name])
        shown = "".join(f"\n      {line}" for line in found[:3])
        speed = f"{reference / seconds:5.1f}x"
        print(f"  {name:<10} {seconds:6.2f} CPU s  {speed}  {len(found)} difference(s){shown}")


def main() -> None:
    sys.setrecursionlimit(10_000)
    for name in sys.argv[1:] or [str(DEFAULT)]:
        evaluate(Path(name))


if __name__ == "__main__":
    main()
