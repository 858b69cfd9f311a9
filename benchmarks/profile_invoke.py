"""Where the 4-route chain's time goes: a pyinstrument profile of invoke() on a compiled Plan.

    python benchmarks/profile_invoke.py [runs]   # prints the call tree (pyinstrument: the dev group)

The same router and plan as ``invoke_bench``; cooldowns are cleared between runs as there
(that part shows up as ``_reset`` and is not part of a run). Sampling adds its own overhead
per call, so read the shares, not the absolute times.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import print_profile, sampled_call_tree
from benchmarks.invoke_bench import CHAIN, _reset, build_router


async def _profile(runs: int) -> str:
    router = build_router()
    plan = router.plan_executable(CHAIN)
    for _ in range(200):
        _reset(router)
        await router.invoke(plan)

    async def once() -> None:
        _reset(router)
        await router.invoke(plan)

    return await sampled_call_tree(once, runs, interval=0.0001)


def main() -> dict[str, float]:
    """Print the profile (nothing is added to the results)."""
    return print_profile(_profile)


if __name__ == "__main__":
    main()
