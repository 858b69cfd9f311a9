"""Where the 4-route chain's time goes: a pyinstrument profile of invoke() on a compiled Plan.

    python benchmarks/profile_invoke.py [runs]   # prints the call tree (pyinstrument: the dev group)

The same router and plan as ``invoke_bench``; cooldowns are cleared between runs as there
(that part shows up as ``_reset`` and is not part of a run). Sampling adds its own overhead
per call, so read the shares, not the absolute times.
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.invoke_bench import CHAIN, _reset, build_router


async def _profile(runs: int) -> str:
    from pyinstrument import Profiler

    router = build_router()
    plan = router.plan_executable(CHAIN)
    for _ in range(200):
        _reset(router)
        await router.invoke(plan)
    profiler = Profiler(interval=0.0001)
    profiler.start()
    for _ in range(runs):
        _reset(router)
        await router.invoke(plan)
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
