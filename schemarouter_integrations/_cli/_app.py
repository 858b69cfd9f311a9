"""The ``schemarouter-integrations`` command line (Typer): one command per job, thin.

Every command that reads a landscape takes ``--config FILE`` (or ``SCHEMAROUTER_CONFIG``) and
``--json``. Exit codes: 0 answered / ok, 1 failed, 2 usage or configuration error, 3 no route
or every route unavailable.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

import anyio
import typer

from .. import __version__
from ..config import RouterConfig
from ..errors import ConfigurationError
from . import _run, _session, _status
from ._help import epilog
from ._run import USAGE, Output

__all__ = ["app"]

app = typer.Typer(
    name="schemarouter-integrations",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help is plain text, on a terminal or not; tables and progress use rich
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"schemarouter-integrations {__version__}")
        raise typer.Exit(0)


@app.callback(epilog=epilog("main"))
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """One dependable data tool over many access paths: plan, query and probe a landscape file."""


ConfigOption = Annotated[
    Path,
    typer.Option(
        "--config", "-c", envvar="SCHEMAROUTER_CONFIG", metavar="FILE", help="The landscape file (TOML)."
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
QueryArgument = Annotated[
    str, typer.Argument(metavar="QUESTION", help='The question, e.g. "What is the band gap of Si?"')
]
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
        metavar="DIR",
        help="A folder keeping the last good copy of every fetched document (overrides the file's).",
    ),
]
StateOption = Annotated[
    Path | None,
    typer.Option(
        "--state",
        envvar="SCHEMAROUTER_STATE",
        metavar="FILE",
        help="A SQLite file keeping cooldowns, answers and rate limits between commands.",
    ),
]
ArgOption = Annotated[
    list[str] | None,
    typer.Option(
        "--arg",
        "-a",
        metavar="NAME=VALUE",
        help="A canonical argument NAME=VALUE (VALUE as JSON when it parses).",
    ),
]


def _with_config(
    path: Path,
    as_json: bool,
    work: Callable[[RouterConfig, Output], Awaitable[int]],
    *,
    strict: bool = False,
    document_cache: Path | None = None,
    state: Path | None = None,
) -> None:
    output = Output(as_json=as_json, strict=strict)
    try:
        config = _session.with_state(_session.load_landscape(path, document_cache), state)
    except ConfigurationError as exc:
        raise typer.Exit(output.error(USAGE, exc)) from None

    async def main() -> int:
        try:
            return await work(config, output)
        except Exception as exc:  # every error ends as a message and an exit code
            return output.error(_session.exit_code(exc), exc)

    raise typer.Exit(anyio.run(main))


def _ask(
    work: Callable[[RouterConfig, str, dict[str, object], Output], Awaitable[int]],
    query: str,
    path: Path,
    pairs: list[str] | None,
    as_json: bool,
    *,
    strict: bool,
    document_cache: Path | None,
    state: Path | None,
) -> None:
    """A command that asks *query* with the ``--arg`` *pairs* (``plan``, ``query``, ``gather``)."""
    arguments = _arguments(pairs, as_json)
    _with_config(
        path,
        as_json,
        lambda config, output: work(config, query, arguments, output),
        strict=strict,
        document_cache=document_cache,
        state=state,
    )


def _arguments(pairs: list[str] | None, as_json: bool) -> dict[str, object]:
    try:
        return _run.parse_arguments(pairs or [])
    except ConfigurationError as exc:
        raise typer.Exit(Output(as_json=as_json).error(USAGE, exc)) from None


@app.command(epilog=epilog("validate"))
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
    raise typer.Exit(
        _status.validate(config, output, connect=connect or strict, document_cache=document_cache)
    )


def _config_command(name: str, work: Callable[[RouterConfig, Output], Awaitable[int]], doc: str) -> None:
    """Register the command *name* that runs *work* on the landscape (``inspect``, ``probe``)."""

    def command(
        config: ConfigOption,
        as_json: JsonOption = False,
        strict: StrictOption = False,
        document_cache: CacheOption = None,
        state: StateOption = None,
    ) -> None:
        _with_config(config, as_json, work, strict=strict, document_cache=document_cache, state=state)

    command.__doc__ = doc
    app.command(name, epilog=epilog(name))(command)


NoCacheOption = Annotated[
    bool, typer.Option("--no-cache", help="Ask upstream: no answer from the answer cache.")
]


def _questions(
    query: QueryArgument,
    config: ConfigOption,
    arg: ArgOption = None,
    as_json: JsonOption = False,
    strict: StrictOption = False,
    document_cache: CacheOption = None,
    state: StateOption = None,
) -> None:
    """The parameters of the commands that ask a question (never called)."""


def _asking_command(
    name: str, work: Callable[..., Awaitable[int]], doc: str, *, cache_switch: bool = False
) -> None:
    """Register the command *name* that asks a question through *work* (``plan``, ``query``,
    ``gather``): the parameters of :func:`_questions`, and ``--no-cache`` with *cache_switch*."""

    def command(**given: Any) -> None:
        chosen = functools.partial(work, no_cache=given.pop("no_cache")) if cache_switch else work
        question = (given.pop("query"), given.pop("config"), given.pop("arg"), given.pop("as_json"))
        _ask(chosen, *question, **given)

    parameters = list(inspect.signature(_questions, eval_str=True).parameters.values())
    if cache_switch:
        parameters.append(inspect.Parameter("no_cache", _KEYWORD, default=False, annotation=NoCacheOption))
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__doc__ = doc
    app.command(name, epilog=epilog(name))(command)


_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
_asking_command(
    "plan", _run.plan, "Show the compiled plan: the chain and every rejected candidate with its reason."
)
_asking_command(
    "query",
    _run.query,
    "Ask the question: retries, fallback and cooldowns as the landscape says.",
    cache_switch=True,
)
_asking_command(
    "gather",
    _run.gather,
    "Ask every route that can answer and merge the records (needs router.gather).",
)
_config_command(
    "inspect",
    _status.inspect,
    "Show the registered tools, bindings, probes, pending routes and the availability store.",
)
_config_command(
    "probe",
    _status.probe,
    "Run every declared health probe once and report its outcome (and the pending routes).",
)


@app.command(epilog=epilog("demo"))
def demo(
    svg: Annotated[
        Path | None, typer.Option("--svg", metavar="FILE", help="Also save the output as an SVG picture.")
    ] = None,
) -> None:
    """Run the offline demo: an outage, the router and LangChain's with_fallbacks side by side."""
    import importlib.util

    if importlib.util.find_spec("langchain_core") is None:
        typer.echo(
            'the demo races LangChain runnables: pip install "schemarouter-integrations[cli,langchain]"',
            err=True,
        )
        raise typer.Exit(USAGE)
    from schemarouter_integrations._demo import main

    try:
        main(["--svg", str(svg)] if svg is not None else [])
    except Exception as exc:  # the demo's own failure: exit 1 with what went wrong
        typer.echo(f"the demo failed: {type(exc).__name__}: {exc}", err=True)
        raise typer.Exit(1) from exc


@app.command("serve-mcp", epilog=epilog("serve-mcp"))
def serve_mcp(
    config: ConfigOption,
    transport: Annotated[
        str, typer.Option("--transport", metavar="stdio|http", help="stdio or http.")
    ] = "stdio",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", help="The HTTP port (transport http), served at /mcp.")
    ] = 8000,
    strict: StrictOption = False,
    document_cache: CacheOption = None,
    state: StateOption = None,
) -> None:
    """Serve the landscape's router as an MCP server (one read-only tool)."""
    _with_config(
        config,
        False,
        lambda landscape, output: _run.serve_mcp(landscape, transport, port, output),
        strict=strict,
        document_cache=document_cache,
        state=state,
    )
