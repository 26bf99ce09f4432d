"""The Anthropic Messages API through the official SDK, streaming.

Configuration is Claude Code's: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL
(any Anthropic-compatible server), ANTHROPIC_MODEL; SKILLDECK_API_TIMEOUT (seconds) bounds a
request. Every failure becomes one `Error` event that says what to do. The SDK is imported here only, so nothing else pays for it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from . import Error, Event, Request, Stop, TextDelta, ToolUse, Usage, has_key

ADVICE = {
    "no-key": "No API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or use the offline backend.",
    "auth": "The API key was refused (401): check ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN.",
    "forbidden": "Not allowed (403): this key cannot use this model or endpoint.",
    "rate-limit": "Rate limited (429): wait a moment and retry.",
    "server": "The API failed (500): retry in a moment.",
    "overloaded": "The API is overloaded (529): retry in a moment.",
    "connection": "The connection was lost: check the network or ANTHROPIC_BASE_URL, then retry.",
    "timeout": "The request timed out: retry, or check ANTHROPIC_BASE_URL.",
    "bad-request": "The API rejected the request (400)",
}


def _error(kind: str, detail: str = "") -> Error:
    message = ADVICE[kind] + (f" ({detail})" if detail else "")
    return Error(kind, message, kind in ("rate-limit", "server", "overloaded", "connection", "timeout"))


class AnthropicBackend:
    name = "anthropic"

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = environ
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
        try:
            finished = False
            async with self.client().messages.stream(**params) as stream:
                async for event in stream:
                    kind = event.type
                    if kind == "text":
                        yield TextDelta(event.text)
                    elif kind == "content_block_stop" and event.content_block.type == "tool_use":
                        block = event.content_block
                        yield ToolUse(block.id, block.name, dict(block.input or {}))
                    elif kind == "message_stop":
                        finished = True
                if not finished:
                    # The server closed the stream before message_stop: the answer is cut off.
                    yield _error("connection", "the stream ended before the message did")
                    return
                final = await stream.get_final_message()
            yield Usage(final.usage.input_tokens, final.usage.output_tokens)
            yield Stop(final.stop_reason or "end_turn")
        except anthropic.AuthenticationError as exc:
            yield _error("auth", str(exc.message))
        except anthropic.PermissionDeniedError as exc:
            yield _error("forbidden", str(exc.message))
        except anthropic.RateLimitError as exc:
            yield _error("rate-limit", str(exc.message))
        except anthropic.BadRequestError as exc:
            yield _error("bad-request", str(exc.message))
        except anthropic.APITimeoutError:
            yield _error("timeout")
        except anthropic.APIConnectionError as exc:
            yield _error("connection", str(exc))
        except anthropic.APIStatusError as exc:
            # An `error` event inside a 200 stream carries its kind in the body.
            body = exc.body if isinstance(exc.body, dict) else {}
            error = body.get("error") if isinstance(body.get("error"), dict) else body
            kind = {"overloaded_error": "overloaded", "rate_limit_error": "rate-limit"}.get(str(error.get("type")), "server")
            yield _error("overloaded" if exc.status_code == 529 else kind, f"HTTP {exc.status_code}")
        except anthropic.APIError as exc:
            # Errors sent inside the stream (an `error` event) arrive here.
            text = str(getattr(exc, "message", exc))
            yield _error("overloaded" if "overloaded" in text.lower() else "server", text)
