"""What a run costs: an estimate before (counted here, no model asked) and the real usage after.

The estimate is approximate and says so: input tokens are the request's characters divided by
CHARS_PER_TOKEN (Claude's tokenizer averages 3.5 to 4 characters a token on English and JSON;
3.5 errs on the high side), plus the tokens the API adds for tool use. Output is bounded by
max_tokens; a routing answer is usually a short sentence and one tool call (TYPICAL_OUTPUT).
Prices are list prices per million tokens by model family at the time of writing, to be checked
against your plan; an unknown model gets token counts and no price.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

CHARS_PER_TOKEN = 3.5
# The system prompt the API adds when tools are offered (Anthropic documents a few hundred tokens).
TOOL_USE_OVERHEAD = 350
TYPICAL_OUTPUT = 60
# (input, output) US dollars per million tokens.
PRICES = {"opus": (5.0, 25.0), "sonnet": (3.0, 15.0), "haiku": (1.0, 5.0)}


def price(model: str) -> tuple[float, float] | None:
    lowered = model.lower()
    return next((p for family, p in PRICES.items() if family in lowered), None)


def estimate_tokens(chars: int) -> int:
    """Input tokens for a request of `chars` characters (its JSON body), approximately."""
    return math.ceil(chars / CHARS_PER_TOKEN) + TOOL_USE_OVERHEAD


def dollars(model: str, input_tokens: int, output_tokens: int) -> float | None:
    rates = price(model)
    if rates is None:
        return None
    return (input_tokens * rates[0] + output_tokens * rates[1]) / 1_000_000


@dataclass(frozen=True, slots=True)
class CostEstimate:
    """Before a run: the requests that will be sent (not cached, each once) and their tokens."""

    model: str
    requests: int
    cached: int
    input_tokens: int
    # Typical and at most (every answer running to max_tokens).
    output_tokens: int
    output_tokens_max: int

    @property
    def dollars(self) -> float | None:
        return dollars(self.model, self.input_tokens, self.output_tokens)

    @property
    def dollars_max(self) -> float | None:
        return dollars(self.model, self.input_tokens, self.output_tokens_max)

    def to_dict(self) -> dict[str, Any]:
        return {
            "estimate": True,
            "model": self.model,
            "requests": self.requests,
            "cached": self.cached,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "output_tokens_max": self.output_tokens_max,
            "dollars": self.dollars,
            "dollars_max": self.dollars_max,
        }


@dataclass(frozen=True, slots=True)
class CostActual:
    """After a run: what the API reported for the requests it answered."""

    model: str
    requests: int
    input_tokens: int
    output_tokens: int

    @property
    def dollars(self) -> float | None:
        return dollars(self.model, self.input_tokens, self.output_tokens)

    def to_dict(self) -> dict[str, Any]:
        return {
            "estimate": False,
            "model": self.model,
            "requests": self.requests,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "dollars": self.dollars,
        }
