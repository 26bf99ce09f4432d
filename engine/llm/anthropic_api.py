"""The Anthropic Messages API through the official SDK, streaming.

Configuration is Claude Code's: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL
(any Anthropic-compatible server), ANTHROPIC_MODEL; SKILLDECK_API_TIMEOUT (seconds) bounds a
whole request and SKILLDECK_STREAM_IDLE (seconds) the time without content (see stream.py).
Every failure becomes one `Error` event that says what to do, never an exception. The SDK is
imported here only, so nothing else pays for it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from .capped import capped_http_client
from .stream import MAX_RESPONSE_BYTES, Bounds, StreamFault, read_stream
from .wire import Error, Event, Request, has_key

ADVICE = {
    "no-key": "No API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or use the offline backend.",
    "auth": "The API key was refused (401): check ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN.",
    "forbidden": "Not allowed (403): this key cannot use this model or endpoint.",
    "not-found": "The API has no such endpoint or model (404): check ANTHROPIC_BASE_URL and the model name.",
    "request-too-large": "The request was too large for the API (413): start a new conversation, or send less.",
    "rate-limit": "Rate limited (429): wait a moment and retry.",
    "refused": "The API refused the request ({status}).",
    "server": "The API failed ({status}): retry in a moment.",
    "overloaded": "The API is overloaded (529): retry in a moment.",
    "connection": "The connection was lost: check the network or ANTHROPIC_BASE_URL, then retry.",
    "timeout": "The request timed out: retry, or check ANTHROPIC_BASE_URL.",
    "bad-request": "The API rejected the request (400)",
    "stalled": "The stream stalled: no content for too long (nothing, or only keep-alive pings). Retry; "
    "SKILLDECK_STREAM_IDLE sets the bound in seconds.",
    "malformed": "The API sent a stream skilldeck cannot read (malformed events). Retry, or check ANTHROPIC_BASE_URL.",
    "too-large": "The answer was larger than skilldeck accepts in one turn; it was dropped.",
}
RETRYABLE = ("rate-limit", "server", "overloaded", "connection", "timeout", "stalled", "malformed")
# The kind of each HTTP status the API documents; any other 4xx is "refused", any other 5xx "server".
STATUS_KINDS = {400: "bad-request", 401: "auth", 403: "forbidden", 404: "not-found", 413: "request-too-large",
                429: "rate-limit", 529: "overloaded"}  # fmt: skip


def _short(exc: BaseException, width: int = 300) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _error(kind: str, detail: str = "", status: int | str = 500) -> Error:
    message = ADVICE[kind].format(status=status) + (f" ({detail})" if detail else "")
    return Error(kind, message, kind in RETRYABLE)


def _status_error(status: int, body: object, fallback: str) -> Error:
    """An HTTP error status, labelled as it is, with the API's own message (the body's
    `error.message`, else the SDK's text). An `error` event inside a 200 stream carries its kind
    in the body's `error.type` (the SDK raises it with the stream's status)."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        error = body if isinstance(body, dict) else {}
    by_type = {"overloaded_error": "overloaded", "rate_limit_error": "rate-limit"}.get(str(error.get("type")))
    kind = STATUS_KINDS.get(status) or by_type or ("refused" if 400 <= status < 500 else "server")
    said = error.get("message")
    detail = _short(ValueError(said if isinstance(said, str) and said.strip() else fallback))
    return _error(kind, detail, status if status >= 400 else "an error event in the stream")


class AnthropicBackend:
    name = "anthropic"

    def __init__(self, environ: Mapping[str, str], max_response_bytes: int = MAX_RESPONSE_BYTES) -> None:
        self.environ = environ
        self.max_response_bytes = max_response_bytes
        self._client: Any = None

    def warm(self) -> None:
        """Import the SDK and build the client ahead of the first request (the import alone
        takes hundreds of milliseconds); safe to call from a thread."""
        if has_key(self.environ):
            self.client()

    def client(self) -> Any:
        if self._client is None:
            import anthropic

            kwargs: dict[str, Any] = {"max_retries": 0}
            http_client = capped_http_client(anthropic, self.max_response_bytes)
            if http_client is not None:
                kwargs["http_client"] = http_client
            if self.environ.get("SKILLDECK_API_TIMEOUT"):
                kwargs["timeout"] = float(self.environ["SKILLDECK_API_TIMEOUT"])
            if self.environ.get("ANTHROPIC_BASE_URL"):
                kwargs["base_url"] = self.environ["ANTHROPIC_BASE_URL"]
            if self.environ.get("ANTHROPIC_API_KEY"):
                kwargs["api_key"] = self.environ["ANTHROPIC_API_KEY"]
            elif self.environ.get("ANTHROPIC_AUTH_TOKEN"):
                kwargs["auth_token"] = self.environ["ANTHROPIC_AUTH_TOKEN"]
            self._client = anthropic.AsyncAnthropic(**kwargs)
        return self._client

    async def stream(self, request: Request) -> AsyncIterator[Event]:
        if not has_key(self.environ):
            yield _error("no-key")
            return
        import anthropic

        params: dict[str, Any] = {"model": request.model, "max_tokens": request.max_tokens, "messages": request.messages}
        if request.system:
            params["system"] = request.system
        if request.tools:
            params["tools"] = request.tools
        if request.effort:
            params["output_config"] = {"effort": request.effort}
        bounds = Bounds.from_environ(self.environ)
        try:
            async for event in read_stream(self.client(), params, bounds):
                yield event
        except StreamFault as exc:
            yield _error(exc.kind, exc.detail)
        except anthropic.APITimeoutError:
            yield _error("timeout")
        except anthropic.APIConnectionError as exc:
            yield _error("connection", str(exc))
        except anthropic.APIStatusError as exc:
            yield _status_error(exc.status_code, exc.body, str(exc.message))
        except anthropic.APIError as exc:
            # Errors sent inside the stream (an `error` event) arrive here.
            text = str(getattr(exc, "message", exc))
            yield _error("overloaded" if "overloaded" in text.lower() else "server", text)
        except ValueError as exc:
            # Data that is not JSON, bytes that are not UTF-8, events the SDK cannot build.
            yield _error("malformed", _short(exc))
        except Exception as exc:
            # The transport's own errors (a read timeout, a reset) arrive raw: never a traceback.
            yield _error("connection", f"{type(exc).__name__}: {_short(exc)}")
