"""The one document loader of registration: fetch, decode and parse a JSON (or YAML) document.

Every adapter that reads a document by URL (an OpenAPI document, an OPTIMADE ``/info``)
goes through :func:`load_document`: one bounded request on the route's :class:`HttpTarget`,
the body decoded as JSON (or, for OpenAPI, JSON else YAML with the safe loader) and every
failure raised as a :class:`DocumentError`, a ``RegistrationError`` naming the public URL.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Literal, NoReturn

import anyio.to_thread
import yaml

from ..errors import InvocationError, InvocationUnavailableError, RegistrationError
from ._http import HttpTarget, public_url

MAX_DOCUMENT_NODES = 2_000_000
ACCEPT_DOCUMENT = "application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.5"
Syntax = Literal["json", "json_or_yaml"]


class DocumentError(RegistrationError):
    """A document that could not be read or parsed.

    ``reason`` is what went wrong without the URL prefix; ``unavailable`` is true when the
    server could not be reached at all (a timeout, a refused connection), so that looking
    elsewhere on the same server will not help either.
    """

    def __init__(self, message: str, *, reason: str, unavailable: bool = False) -> None:
        super().__init__(message)
        self.reason = reason
        self.unavailable = unavailable


async def load_document(
    target: HttpTarget, url: str, *, syntax: Syntax = "json", failure: str = "could not read"
) -> Any:
    """The document at *url* as JSON data; any failure is a :class:`DocumentError`.

    A failed request reads ``"<failure> <public url>: <why>"``. ``syntax="json_or_yaml"``
    accepts YAML too (aliases bounded to :data:`MAX_DOCUMENT_NODES` nodes).
    """
    where = public_url(url)
    try:
        if syntax == "json":
            return await target.fetch_json("GET", url)
        fetched = await target.fetch("GET", url, accept=ACCEPT_DOCUMENT)
    except InvocationError as exc:
        unavailable = isinstance(exc, InvocationUnavailableError)
        raise DocumentError(f"{failure} {where}: {exc}", reason=str(exc), unavailable=unavailable) from exc
    # a large document (or a YAML alias bomb being refused) takes seconds to parse: never on the loop
    parse = functools.partial(parse_document, fetched.body, where=where)
    return await anyio.to_thread.run_sync(parse, abandon_on_cancel=True)


def parse_document(body: bytes, *, where: str) -> Any:
    """JSON, else YAML (safe loader), normalised to plain JSON data."""
    try:
        return json.loads(body)
    except RecursionError:
        _refuse(f"{where} is nested too deeply")
    except ValueError:
        pass
    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        return _plain(yaml.load(body, Loader=loader), [MAX_DOCUMENT_NODES])
    except (yaml.YAMLError, RecursionError) as exc:
        _refuse(f"{where} is neither JSON nor YAML: {_first_line(exc)}")
    except OverflowError:  # YAML aliases can expand a small text exponentially
        _refuse(f"{where} expands to more than {MAX_DOCUMENT_NODES} nodes")


def _refuse(message: str) -> NoReturn:
    raise DocumentError(message, reason=message) from None


def _plain(value: Any, budget: list[int]) -> Any:
    """YAML data as JSON data (string keys, dates as text), at most ``budget[0]`` nodes."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    if isinstance(value, dict):
        return {str(k): _plain(v, budget) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, budget) for v in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
