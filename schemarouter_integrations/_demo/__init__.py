"""The demo: the primary data API hangs; SchemaRouter and LangChain ``with_fallbacks`` side by side.

Everything runs on loopback, with no network and no LLM key: each contender gets its own three
HTTP servers (the servers of the outage benchmarks, :mod:`.servers`): the primary
``mp_api``, its same-provider mirror ``mp_mirror`` and a second provider ``oqmd``. After a
healthy warm-up the primary starts to hang (it reads every request and never answers) and three
LangChain runnables ask the same questions, one after another, side by side:

* ``with_fallbacks``: ``RunnableLambda(primary).with_fallbacks([mirror, oqmd])``; no memory, so
  every question waits for the 0.5 s client timeout before the mirror answers.
* ``SchemaRouterTool``: the first question pays the timeout, the primary cools down, and the
  next questions go straight to the mirror.
* ``SchemaRouterTool`` hedged (``HedgePolicy(after_seconds=0.05)``): even the first question
  starts the mirror after 50 ms.

Then the terminal shows the route health (the primary cooling down, with its reason), the
primary coming back, a trusted health probe reopening it before its cooldown ends, and the next
question answered by it again.

Run: ``schemarouter-integrations demo`` (extras ``[cli,langchain]``), ``make demo`` in a source
checkout (its own small venv, ``.venv-demo``) or ``python cookbook/demo.py``; ``--width N`` sets
the width, ``--svg PATH`` also saves a picture.
"""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    """Run the demo on this terminal (``--width N``, ``--svg PATH``)."""
    import anyio
    from rich.console import Console

    from schemarouter_integrations._demo.story import run

    parser = argparse.ArgumentParser(
        prog="schemarouter-integrations demo", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--width", type=int, help="the width in columns (default: the terminal's)")
    parser.add_argument("--svg", type=Path, help="also save the output as an SVG picture")
    options = parser.parse_args(argv)
    console = Console(record=options.svg is not None, width=options.width)
    anyio.run(run, console)
    if options.svg is not None:
        console.save_svg(str(options.svg), title="schemarouter-integrations demo")
        print(f"saved {options.svg.name}")
