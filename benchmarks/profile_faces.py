"""Where a face's time goes on top of ``router.invoke``: a pyinstrument profile of one face's
tool over the one healthy in-process route of ``one_route_bench`` (no callback, no listener).

    python benchmarks/profile_faces.py [runs] [langchain|llamaindex|mcp]   # needs pyinstrument

Sampling adds its own overhead per call, so read the shares, not the absolute times.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import print_profile, sampled_call_tree
from benchmarks.one_route_bench import langchain_calls, llamaindex_calls, mcp_calls

FACES = {"langchain": langchain_calls, "llamaindex": llamaindex_calls, "mcp": mcp_calls}


def _face() -> str:
    named = [arg for arg in sys.argv[1:] if arg in FACES]
    return named[0] if named else "langchain"


async def _profile(runs: int) -> str:
    ours = FACES[_face()]()["ours"]
    for _ in range(300):
        await ours()
    return await sampled_call_tree(ours, runs, interval=0.00005)


def main() -> dict[str, float]:
    """Print the profile of the face named on the command line (nothing is added to the results)."""
    return print_profile(_profile)


if __name__ == "__main__":
    main()
