"""OpenAPI 3.0/3.1 documents as tools: one endpoint per operation, bound to an httpx invoker.

The flow: load the document (:mod:`.._documents`), walk its operations once
(:mod:`.operations`), build the contract from those records (:mod:`.contract`) and pair it
with an :class:`~.invoker.OpenApiInvoker`. Requests only ever go to the document's origin
(the ``servers`` entry on that origin), or to ``base_url`` when the application names it;
``headers`` (API keys) go only there. A document split across files is read whole first
(:func:`~.._document_sets.load_document_set`): the files its external ``$ref`` values name, on
the document's own origin or on one that ``allow_ref_origins=`` names.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..._contracts import ToolSpec
from ...errors import RegistrationError
from .._document_sets import DocumentSet, load_document_set
from .._fields import as_dict, short_description
from .._http import HttpTarget, origin_of, public_url
from .._network import NetworkChecker, NetworkPolicy
from .._options import OpenApiOptions
from .._route import RouteBuilder, UrlRegistration, left_out_note
from .contract import ContractBuilder
from .invoker import OpenApiInvoker
from .operations import openapi_version, walk_operations
from .schema import SchemaResolver

__all__ = ["OpenApiInvoker", "build_openapi_route"]

_KEYED = ("fields", "projection", "read_only", "retry", "cost_units", "records_path")
"""The options that may be a mapping keyed by operation."""


async def build_openapi_route(
    url: str,
    registration: UrlRegistration,
    *,
    target: HttpTarget,
    document_target: HttpTarget,
    base_url: str | None,
    network: NetworkChecker | None = None,
    loaded: DocumentSet | None = None,
) -> tuple[ToolSpec, OpenApiInvoker]:
    """Read the OpenAPI document at *url* and build the tool contract and its invoker.

    The ``servers`` the document names are learned from it: each base URL chosen there is
    checked by *network* (``base_url=`` is the application's and is not) before it is used.
    *loaded* is the document when already read (a local file).
    """
    route = RouteBuilder(registration, OpenApiOptions, noun="operation", keyed=_KEYED)
    where = public_url(url)
    checker = network or NetworkPolicy().checker()
    if loaded is None:
        loaded = await load_document_set(
            document_target,
            url,
            failure="could not fetch the OpenAPI document",
            allow_origins=ref_origins(route.options.get("allow_ref_origins")),
            network=checker,
        )
    document = loaded.document
    if not isinstance(document, dict):
        raise RegistrationError(f"{where} is not an OpenAPI document (not an object)")
    version = openapi_version(document)
    resolver = SchemaResolver(
        document, loaded.url, version, files=loaded.files, problems=loaded.problems, shown=loaded.shown
    )
    secrets = {h.lower() for h in target.headers}
    records = list(walk_operations(document, resolver))
    builder = ContractBuilder(records, document, resolver, url, base_url, secrets, route)
    endpoints, operations = builder.build()
    if base_url is None:
        for base in sorted({operation.base for operation in operations.values()}):
            await checker.check_learned(base, learned_from=url)
    info = as_dict(document.get("info"))
    title = " — ".join(t for t in (info.get("title"), info.get("description")) if isinstance(t, str))
    where = f"the OpenAPI document at {where}"
    spec = route.tool(
        where=where,
        description=short_description(title),
        endpoints=endpoints,
        known=builder.known,
        origin=target.origin,
        note=left_out_note(builder.left_out),
    )
    invoker = OpenApiInvoker(target, operations)
    invoker.left_out.update(builder.left_out)
    return spec, invoker


def ref_origins(option: Iterable[str] | str | None) -> frozenset[str]:
    """``allow_ref_origins=``: the origins (or URLs on them) other files may be read from."""
    if option is None:
        return frozenset()
    if isinstance(option, str):
        option = [option]
    out: set[str] = set()
    for entry in option:
        try:
            out.add(origin_of(entry))
        except ValueError:
            raise RegistrationError(
                f"allow_ref_origins= takes absolute http(s) URLs or origins, got {str(entry)[:200]!r}"
            ) from None
    return frozenset(out)
