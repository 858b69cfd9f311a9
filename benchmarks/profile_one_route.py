"""Where a one-route answer's time goes: a pyinstrument profile of ``router.invoke`` over one
healthy in-process route (the route of ``one_route_bench``), from a ``PlanRequest``.

    python benchmarks/profile_one_route.py [runs]   # prints the call tree (needs pyinstrument)

Sampling adds its own overhead per call, so read the shares, not the absolute times.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import print_profile, sampled_call_tree
from benchmarks.one_route_bench import _router, _via_invoke


async def _profile(runs: int) -> str:
    router = _router()
    for _ in range(300):
        await _via_invoke(router, "band gap of Si", "Si")
    return await sampled_call_tree(
        lambda: _via_invoke(router, "band gap of Si", "Si"), runs, interval=0.00005
    )


def main() -> dict[str, float]:
    """Print the profile (nothing is added to the results)."""
    return print_profile(_profile)


if __name__ == "__main__":
    main()
