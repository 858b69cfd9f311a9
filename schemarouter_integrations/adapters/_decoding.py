"""Bounded decoding of compressed HTTP bodies.

httpx decompresses each received chunk at once, so a few hundred bytes of nested gzip
(``Content-Encoding: gzip, gzip``) can become gigabytes in memory before any size check
sees them. Routes therefore read the raw body and decode it here, never producing more
than :data:`PIECE_BYTES` at a time at any layer, so the caller's size limit holds for the
decoded body and memory stays bounded whatever the compression ratio.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

ACCEPT_ENCODING = "gzip, deflate"
"""What routes ask servers for: the encodings :class:`BodyDecoder` can bound."""

PIECE_BYTES = 64 * 1024
MAX_LAYERS = 4
_IDENTITY = frozenset({"", "identity"})


class _Inflater:
    """One gzip or deflate layer that yields its output in bounded pieces."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        # gzip: a gzip header; deflate: zlib-wrapped, or raw as some servers send it
        wbits = zlib.MAX_WBITS | 16 if encoding in ("gzip", "x-gzip") else zlib.MAX_WBITS
        self._inflate = zlib.decompressobj(wbits)
        self._raw_allowed = encoding == "deflate"

    def feed(self, data: bytes) -> Iterator[bytes]:
        pending = data
        while True:
            try:
                piece = self._inflate.decompress(pending, PIECE_BYTES)
            except zlib.error as exc:
                if not self._raw_allowed:
                    raise ValueError(f"the {self.encoding} body is corrupt ({exc})") from None
                self._raw_allowed = False
                self._inflate = zlib.decompressobj(-zlib.MAX_WBITS)
                continue
            self._raw_allowed = False
            pending = self._inflate.unconsumed_tail
            if piece:
                yield piece
            elif not pending:
                return


class BodyDecoder:
    """Decodes a raw body per its ``Content-Encoding`` header, in bounded pieces.

    Raises ``ValueError`` for an encoding it does not know, too many layers or a corrupt body.
    """

    def __init__(self, content_encoding: str) -> None:
        names = [name.strip().lower() for name in content_encoding.split(",")]
        names = [name for name in names if name not in _IDENTITY]
        unknown = sorted({name for name in names if name not in ("gzip", "x-gzip", "deflate")})
        if unknown:
            raise ValueError(
                f"the response uses content-encoding {', '.join(unknown)}, which was not asked for"
            )
        if len(names) > MAX_LAYERS:
            raise ValueError(f"the response is compressed {len(names)} times over")
        # the last encoding applied is the first to undo
        self._layers = [_Inflater(name) for name in reversed(names)]

    def decode(self, raw: bytes) -> Iterator[bytes]:
        """The decoded pieces of the next *raw* chunk, none longer than :data:`PIECE_BYTES`."""
        yield from self._through(raw, 0)

    def _through(self, data: bytes, layer: int) -> Iterator[bytes]:
        if layer == len(self._layers):
            if data:
                yield data
            return
        for piece in self._layers[layer].feed(data):
            yield from self._through(piece, layer + 1)
