"""The ``schemarouter-integrations`` command line (Typer): one command per job, thin.

Every command that reads a landscape takes ``--config FILE`` (or ``SCHEMAROUTER_CONFIG``) and
``--json``. Exit codes: 0 answered / ok, 1 failed, 2 usage or configuration error, 3 no route
or every route unavailable.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated

import anyio
import typer

from ..config import RouterConfig, load_config
from ..errors import ConfigurationError
from . import _run
from ._run import USAGE, Output

__all__ = ["app"]

app = typer.Typer(
    name="schemarouter-integrations",
    help="One dependable data tool over many access paths: plan, query and probe a landscape file.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

ConfigOption = Annotated[
    Path, typer.Option("--config", "-c", envvar="SCHEMAROUTER_CONFIG", help="The landscape file (TOML).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
QueryArgument = Annotated[str, typer.Argument(help='The question, e.g. "What is the band gap of Si?"')]
StrictOption = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Fail (exit 1) when a route's document cannot be read, instead of leaving it pending.",
    ),
]
CacheOption = Annotated[
    Path | None,
    typer.Option(
        "--document-cache",
        envvar="SCHEMAROUTER_DOCUMENT_CACHE",
        help="A folder keeping the last good copy of every fetched document (overrides the file's).",
    ),
]
ArgOption = Annotated[
    list[str] | None,
    typer.Option("--arg", "-a", help="A canonical argument NAME=VALUE (VALUE as JSON when it parses)."),
]


def _with_config(
    path: Path,
    as_json: bool,
    work: Callable[[RouterConfig, Output], Awaitable[int]],
    *,
    strict: bool = False,
    document_cache: Path | None = None,
) -> None:
    output = Output(as_json=as_json, strict=strict)
    try:
        config = _run.with_document_cache(load_config(path), document_cache)
    except ConfigurationError as exc:
        raise typer.Exit(output.error(USAGE, exc)) from None

    async def main() -> int:
        try:
            return await work(config, output)
        except Exception as exc:  # every error ends as a message and an exit code
            return output.error(_run.exit_code(exc), exc)

    raise typer.Exit(anyio.run(main))


def _arguments(pairs: list[str] | None, as_json: bool) -> dict[str, object]:
    try:
        return _run.parse_arguments(pairs or [])
    except ConfigurationError as exc:
        raise typer.Exit(Output(as_json=as_json).error(USAGE, exc)) from None


@app.command()
def validate(
    config: ConfigOption,
    as_json: JsonOption = False,
    connect: Annotated[
        bool,
        typer.Option("--connect", help="Also read every route's document and list the routes left pending."),
    ] = False,
    strict: StrictOption = False,
    document_cache: CacheOption = None,
) -> None:
    """Check a landscape file without contacting any service (--connect, --strict: read the routes too)."""
    output = Output(as_json=as_json, strict=strict)
    raise typer.Exit(_run.validate(config, output, connect=connect or strict, document_cache=document_cache))


@app.command()
def plan(
    query: QueryArgument,
    config: ConfigOption,
    arg: ArgOption = None,
    as_json: JsonOption = False,
    strict: StrictOption = False,
    document_cache: CacheOption = None,
) -> None:
    """Show the compiled plan: the chain and every rejected candidate with its reason."""
    arguments = _arguments(arg, as_json)
    _with_config(
        config,
        as_json,
        lambda c, o: _run.plan(c, query, arguments, o),
        strict=strict,
        document_cache=document_cache,
    )


@app.command()
def query(
    query: QueryArgument,
    config: ConfigOption,
    arg: ArgOption = None,
    as_json: JsonOption = False,
    strict: StrictOption = False,
    document_cache: CacheOption = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Ask upstream: no answer from the answer cache.")
    ] = False,
) -> None:
    """Ask the question: retries, fallback and cooldowns as the landscape says."""
    arguments = _arguments(arg, as_json)
    _with_config(
        config,
        as_json,
        lambda c, o: _run.query(c, query, arguments, o, no_cache=no_cache),
        strict=strict,
        document_cache=document_cache,
    )


@app.command()
def gather(
    query: QueryArgument,
    config: ConfigOption,
    arg: ArgOption = None,
    as_json: JsonOption = False,
    strict: StrictOption = False,
    document_cache: CacheOption = None,
) -> None:
    """Ask every route that can answer and merge the records (needs router.gather)."""
    arguments = _arguments(arg, as_json)
    _with_config(
        config,
        as_json,
        lambda c, o: _run.gather(c, query, arguments, o),
        strict=strict,
        document_cache=document_cache,
    )


@app.command()
def inspect(
    config: ConfigOption,
    as_json: JsonOption = False,
    strict: StrictOption = False,
    document_cache: CacheOption = None,
) -> None:
    """Show the registered tools, bindings, probes, pending routes and the availability store."""
    _with_config(config, as_json, _run.inspect, strict=strict, document_cache=document_cache)


@app.command()
def probe(
    config: ConfigOption,
    as_json: JsonOption = False,
    strict: StrictOption = False,
    document_cache: CacheOption = None,
) -> None:
    """Run every declared health probe once and report its outcome (and the pending routes)."""
    _with_config(config, as_json, _run.probe, strict=strict, document_cache=document_cache)


@app.command()
def demo(
    svg: Annotated[Path | None, typer.Option("--svg", help="Also save the output as an SVG picture.")] = None,
) -> None:
    """Run the offline demo (cookbook/demo.py of a source checkout)."""
    script = _demo_script()
    if script is None:
        typer.echo("the demo runs from a source checkout: cookbook/demo.py was not found", err=True)
        raise typer.Exit(USAGE)
    extra = ["--svg", str(svg)] if svg is not None else []
    raise typer.Exit(subprocess.call([sys.executable, str(script), *extra]))


@app.command("serve-mcp")
def serve_mcp(
    config: ConfigOption,
    transport: Annotated[str, typer.Option("--transport", help="stdio or http.")] = "stdio",
    port: Annotated[int, typer.Option("--port", help="The HTTP port (transport http).")] = 8000,
    strict: StrictOption = False,
    document_cache: CacheOption = None,
) -> None:
    """Serve the landscape's router as an MCP server (one read-only tool)."""
    _with_config(
        config,
        False,
        lambda landscape, output: _run.serve_mcp(landscape, transport, port, output),
        strict=strict,
        document_cache=document_cache,
    )


def _demo_script() -> Path | None:
    checkout = Path(__file__).resolve().parents[2]
    for root in (Path.cwd(), checkout):
        script = root / "cookbook" / "demo.py"
        if script.is_file():
            return script
    return None
