"""Where a one-route answer's time goes: a pyinstrument profile of ``router.invoke`` over one
healthy in-process route (the route of ``one_route_bench``), from a ``PlanRequest``.

    python benchmarks/profile_one_route.py [runs]   # prints the call tree (needs pyinstrument)

Sampling adds its own overhead per call, so read the shares, not the absolute times.
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.one_route_bench import _router, _via_invoke


async def _profile(runs: int) -> str:
    from pyinstrument import Profiler

    router = _router()
    for _ in range(300):
        await _via_invoke(router, "band gap of Si", "Si")
    profiler = Profiler(interval=0.00005)
    profiler.start()
    for _ in range(runs):
        await _via_invoke(router, "band gap of Si", "Si")
    profiler.stop()
    text: str = profiler.output_text(unicode=False, color=False)
    return text


def main() -> dict[str, float]:
    """Print the profile (nothing is added to the results)."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 3000
    try:
        print(anyio.run(_profile, runs))
    except ImportError:
        print("pyinstrument is not installed: pip install pyinstrument")
    return {}


if __name__ == "__main__":
    main()
