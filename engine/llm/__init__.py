"""Model backends: what they speak (wire), the Anthropic Messages API with its bounded stream
(anthropic_api, stream, capped), and offline. Imports nothing else of the engine."""

from __future__ import annotations

import os
from collections.abc import Mapping

from .wire import (
    ALIASES,
    DEFAULT_MODEL,
    DEFAULT_MODEL_ID,
    MAX_TOKENS,
    RUN_ENVIRON,
    UNFINISHED,
    Backend,
    Error,
    Event,
    Request,
    Stop,
    TextDelta,
    ToolUse,
    Usage,
    has_key,
    listing_in_messages,
    listing_message,
    resolve_model,
    run_environ,
    unfinished,
    with_listing,
)


def backend_for(name: str | None, environ: Mapping[str, str] | None = None) -> Backend:
    """`anthropic` when asked for or when a key is set, else `offline`."""
    env = os.environ if environ is None else environ
    if name == "anthropic" or (name is None and has_key(env)):
        from .anthropic_api import AnthropicBackend

        return AnthropicBackend(env)
    from .offline import OfflineBackend

    return OfflineBackend()


__all__ = [
    "ALIASES",
    "DEFAULT_MODEL",
    "DEFAULT_MODEL_ID",
    "MAX_TOKENS",
    "RUN_ENVIRON",
    "UNFINISHED",
    "Backend",
    "Error",
    "Event",
    "Request",
    "Stop",
    "TextDelta",
    "ToolUse",
    "Usage",
    "backend_for",
    "has_key",
    "listing_in_messages",
    "listing_message",
    "resolve_model",
    "run_environ",
    "unfinished",
    "with_listing",
]
