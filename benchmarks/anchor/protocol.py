"""What both workers share (standard library only): the JSON-lines loop and the timers.

The orchestrator writes one request a line to a worker's stdin (``{"op": ..., **arguments}``)
and reads one answer a line from its stdout (``{"ok": ...}`` or ``{"error": ...}``). Anything a
library prints goes to stderr, so it cannot garble the answers.
"""

from __future__ import annotations

import gc
import json
import sys
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from typing import Any


def serve(handlers: dict[str, Callable[..., Any]]) -> None:
    """Answer requests from stdin until ``{"op": "quit"}`` or end of input."""
    answers = sys.stdout
    sys.stdout = sys.stderr
    for line in sys.stdin:
        request = json.loads(line)
        op = request.pop("op")
        if op == "quit":
            break
        try:
            reply: dict[str, Any] = {"ok": handlers[op](**request)}
        except Exception as exc:  # reported to the orchestrator, which stops the comparison
            reply = {"error": f"{op}: {type(exc).__name__}: {exc}"}
        answers.write(json.dumps(reply) + "\n")
        answers.flush()


Sample = tuple[float, float]  # wall seconds, CPU seconds of this process


def timed(
    run: Callable[[], object], repeats: int, *, before: Callable[[], object] | None = None
) -> list[Sample]:
    """Wall and CPU seconds of *repeats* calls of *run*; *before* runs untimed ahead of each."""
    samples = []
    for _ in range(repeats):
        if before is not None:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        samples.append((time.perf_counter() - start, time.process_time() - start_cpu))
    return samples


async def atimed(
    run: Callable[[], Awaitable[object]],
    repeats: int,
    *,
    before: Callable[[], object] | None = None,
    check: Callable[[Any], None] | None = None,
) -> list[Sample]:
    """As :func:`timed` for a coroutine function; *check* inspects each outcome, untimed."""
    samples = []
    for _ in range(repeats):
        if before is not None:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        outcome = await run()
        samples.append((time.perf_counter() - start, time.process_time() - start_cpu))
        if check is not None:
            check(outcome)
    return samples


def traced_bytes(build: Callable[[], object], warm: Callable[[], object] | None = None) -> dict[str, int]:
    """Bytes that *build* allocates and keeps (after a collection), and its peak, by tracemalloc.

    *warm* runs first, untraced: modules a package imports on first use (ours loads its
    schema checker with the first contract) are loaded once per process, not per tool.
    """
    if warm is not None:
        warm()
    gc.collect()
    tracemalloc.start()
    kept = build()
    gc.collect()
    retained, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del kept
    return {"retained_bytes": retained, "peak_bytes": peak}
