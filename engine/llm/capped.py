"""The HTTP client under the SDK, with every response body held to a byte bound.

Every body the SDK reads (a streamed answer, an error's JSON, any other reply) comes through
`Capped`: the bytes on the wire are counted, and so are the bytes they decode to. httpx would
inflate a `Content-Encoding: gzip` body after the transport, where a cap on the wire's bytes no
longer sees it (8 KB of gzip is 8 MB of text; a hostile base URL sent 1 GB that way). So the
body is decoded here, in bounded pieces, and handed on with its encoding header removed. An
encoding that cannot be decoded in bounded pieces here (br, zstd, anything unknown) is refused.
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

from .stream import MAX_RESPONSE_BYTES, StreamFault

# Most bytes one inflate step may produce: a bomb is never a single large buffer.
_PIECE = 256 * 1024
# More codings than this on one body is no real server's doing.
_MAX_CODINGS = 3


class _Inflate:
    """One gzip or deflate layer, inflated in pieces of at most _PIECE bytes."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        # deflate is the zlib format by the standard; some servers send it raw: tried on the first bytes.
        self.inner = zlib.decompressobj(zlib.MAX_WBITS | 16 if coding in ("gzip", "x-gzip") else zlib.MAX_WBITS)
        self.started = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        try:
            if not self.started and self.coding == "deflate" and data:
                self.started = True
                try:
                    first = self.inner.decompress(data, _PIECE)
                except zlib.error:
                    self.inner = zlib.decompressobj(-zlib.MAX_WBITS)
                    first = self.inner.decompress(data, _PIECE)
            else:
                self.started = True
                first = self.inner.decompress(data, _PIECE)
            piece = first
            while piece:
                yield piece
                piece = self.inner.decompress(self.inner.unconsumed_tail, _PIECE)
        except zlib.error as exc:
            raise StreamFault("malformed", f"the response's {self.coding} data is broken ({exc})") from None


def _codings(header: str) -> list[_Inflate]:
    names = [c.strip().lower() for c in header.split(",") if c.strip() and c.strip().lower() != "identity"]
    if len(names) > _MAX_CODINGS:
        raise StreamFault("malformed", f"the response is encoded {len(names)} times over ({header[:80]})")
    for name in names:
        if name not in ("gzip", "x-gzip", "deflate"):
            raise StreamFault("malformed", f"the response is encoded as {name[:40]!r}, which skilldeck does not read")
    # Applied in the order listed, so undone in reverse.
    return [_Inflate(name) for name in reversed(names)]


def _through(layers: list[_Inflate], data: bytes) -> Iterator[bytes]:
    if not layers:
        yield data
        return
    for piece in layers[0].feed(data):
        yield from _through(layers[1:], piece)


def capped_http_client(anthropic: Any, max_bytes: int = MAX_RESPONSE_BYTES) -> Any:
    """The SDK's default async HTTP client, whose responses fail with `StreamFault` past
    `max_bytes` on the wire or decoded; None when this SDK has no default client to build on."""
    default = getattr(anthropic, "DefaultAsyncHttpxClient", None)
    if default is None:
        return None
    base = next((c for c in getattr(default, "__mro__", ()) if c.__name__ == "AsyncClient"), None)
    if base is None:
        return None
    # httpx, or the fork the installed SDK depends on: whichever the SDK's own client comes from.
    httpx = sys.modules[base.__module__.split(".")[0]]

    def too_large() -> StreamFault:
        return StreamFault("too-large", f"the response passed {max_bytes:,} bytes")

    # The two bases below come from a module picked at run time, which mypy cannot see into:
    # it reads them as unknown names of type Any, hence the ignores.

    class Capped(httpx.AsyncByteStream):  # type: ignore[misc,name-defined]
        def __init__(self, inner: Any, encoding: str) -> None:
            self.inner = inner
            self.encoding = encoding

        async def __aiter__(self) -> AsyncIterator[bytes]:
            # Checked here, not when the headers came: a fault raised while the SDK sends the
            # request would reach the caller as a lost connection, not as what it is.
            layers = _codings(self.encoding)
            wire = decoded = 0
            async for chunk in self.inner:
                wire += len(chunk)
                if wire > max_bytes:
                    raise too_large()
                for piece in _through(layers, chunk):
                    decoded += len(piece)
                    if decoded > max_bytes:
                        raise too_large()
                    yield piece

        async def aclose(self) -> None:
            await self.inner.aclose()

    class Transport(httpx.AsyncHTTPTransport):  # type: ignore[misc,name-defined]
        async def handle_async_request(self, request: Any) -> Any:
            response = await super().handle_async_request(request)
            encoding = ", ".join(response.headers.get_list("content-encoding"))
            # Decoded by Capped: httpx must not decode it again (it reads this header later).
            if "content-encoding" in response.headers:
                del response.headers["content-encoding"]
            response.stream = Capped(response.stream, encoding)
            return response

    return default(transport=Transport())


__all__ = ["capped_http_client"]
