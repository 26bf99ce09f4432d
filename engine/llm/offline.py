"""The offline backend: calls nothing, and answers with the exact request that would be sent."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from .wire import Event, Request, Stop, TextDelta, Usage

HOW_TO = (
    "Offline backend: nothing was sent. Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, and "
    "ANTHROPIC_BASE_URL for another server) to run this against a model. The request would be:"
)


class OfflineBackend:
    name = "offline"

    def warm(self) -> None:
        pass

    async def stream(self, request: Request) -> AsyncIterator[Event]:
        body = json.dumps(request.to_dict(), indent=2, ensure_ascii=False)
        yield TextDelta(f"{HOW_TO}\n\n```json\n{body}\n```\n")
        yield Usage(0, 0)
        yield Stop("end_turn")


def offline_request(text: str) -> dict[str, Any] | None:
    """The request an offline answer shows, or None when `text` is not one (the app summarises it)."""
    if not text.startswith(HOW_TO):
        return None
    body = text[len(HOW_TO) :].strip()
    if not (body.startswith("```json\n") and body.endswith("```")):
        return None
    try:
        request = json.loads(body[len("```json\n") : -3])
    except ValueError:
        return None
    return request if isinstance(request, dict) else None
