"""OpenAPI documents on the application's own disk: a path or a ``file://`` URL.

``add_url("./openapi.yaml", kind="openapi", ...)`` reads the file (JSON or YAML) and the
local files its external ``$ref`` values name, relative to the file that names them, each
once (at most :data:`~._documents.MAX_REFERENCED_FILES`, all of them within
``max_response_bytes`` together). A reference to a file that cannot be read (missing, or not
on this disk) is recorded and is an error only when it is followed, as for a document read by
URL. The file is the application's: the API's address comes from ``base_url=``, else from the
first absolute http(s) URL of the document's ``servers``, and is checked like any address the
application gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlparse

import anyio
import anyio.to_thread

from ..errors import RegistrationError
from ._document_sets import DocumentSet, external_refs
from ._documents import MAX_REFERENCED_FILES, DocumentError, parse_document
from ._openapi.servers import first_absolute_server

__all__ = ["api_base_of", "is_local_document", "load_local_document_set"]


def is_local_document(url: str) -> bool:
    """Whether *url* names a file on this disk: a ``file://`` URL or a path (no ``scheme://``)."""
    return url.startswith("file://") or "://" not in url


def local_path(url: str) -> Path:
    """The path a ``file://`` URL or a path names (absolute, ``~`` expanded)."""
    if url.startswith("file://"):
        parsed = urlparse(url)
        if parsed.netloc not in ("", "localhost"):
            raise RegistrationError(f"{url[:200]!r} names a file on another host; only local files are read")
        return Path(unquote(parsed.path))
    return Path(url).expanduser().resolve()


async def load_local_document_set(url: str, *, max_bytes: int) -> DocumentSet:
    """The document in the file *url* names and the local files its references bring in."""
    root = local_path(url)
    return await anyio.to_thread.run_sync(_load, root, max_bytes, abandon_on_cancel=True)


def _load(root: Path, max_bytes: int) -> DocumentSet:
    root_url = root.as_uri()
    budget = [max_bytes]
    document = _read(root, budget, str(root))
    found = DocumentSet(root_url, document)
    refs = external_refs(document, root_url, rewrite=False)
    pending = [(written, absolute, str(root)) for written, absolute in refs]
    seen = {root_url}
    while pending:
        written, absolute, where = pending.pop(0)
        found.written.setdefault(absolute, (written, where))
        file = urldefrag(absolute).url
        if file in seen:
            continue
        seen.add(file)
        if len(seen) - 1 > MAX_REFERENCED_FILES:
            reason = f"{root} refers to more than {MAX_REFERENCED_FILES} other files (the limit)"
            raise DocumentError(reason, reason=reason)
        if not file.startswith("file://"):
            found.problems[file] = f"{file[:200]} is not a local file; a local document refers to local files"
            continue
        path = local_path(file)
        try:
            data = _read(path, budget, str(path))
        except DocumentError as exc:
            if "max_response_bytes" in exc.reason:
                raise
            found.problems[file] = str(exc)
            continue
        found.files[file] = data
        pending.extend((w, a, str(path)) for w, a in external_refs(data, file, rewrite=True))
    return found


def _read(path: Path, budget: list[int], where: str) -> Any:
    try:
        size = path.stat().st_size
        if size > budget[0]:
            raise _too_large(where)
        body = path.read_bytes()
    except OSError as exc:
        reason = f"could not read {where}: {exc.strerror or exc}"
        raise DocumentError(reason, reason=reason) from None
    budget[0] -= len(body)
    if budget[0] < 0:
        raise _too_large(where)
    return parse_document(body, where=where)


def _too_large(where: str) -> DocumentError:
    reason = f"{where} and the files it refers to hold more bytes than max_response_bytes"
    return DocumentError(reason, reason=reason)


def api_base_of(document: Any, base_url: str | None) -> str:
    """Where the operations of a local document are sent: *base_url*, else its first server."""
    if base_url is not None:
        return base_url
    servers = document.get("servers") if isinstance(document, dict) else None
    found = first_absolute_server(servers)
    if found is None:
        raise RegistrationError(
            "a local OpenAPI document needs base_url= (its servers name no absolute http(s) URL)"
        )
    return found
