"""Running skills, measured in one run against the local Messages API server (`make bench`).

1. skilldeck's own time per agent-loop turn: from the end of a response (its last byte written)
   to the next request arriving, for a trivial allowed tool call (goal: under 5 ms).
2. Streaming throughput of a 20,000-token response through skilldeck's backend, compared with
   the bare SDK reading the same stream in the same run (goal: at least 0.9 of it).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import Transcript, Workspace  # noqa: E402
from engine.llm import Request, backend_for  # noqa: E402
from engine.runner.loop import Runner  # noqa: E402
from tests.conftest import Tree, skill_text, write  # noqa: E402
from tests.llm_server import MessagesServer, Reply  # noqa: E402

TURNS = 40
TOKENS = 20_000


class Timed:
    """Wraps a backend: when each stream ended, and when the next one was asked for."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner = inner
        self.name = inner.name
        self.started: list[float] = []
        self.ended: list[float] = []

    async def stream(self, request):  # type: ignore[no-untyped-def]
        self.started.append(time.perf_counter())
        async for event in self.inner.stream(request):
            yield event
        self.ended.append(time.perf_counter())


async def turn_overhead() -> tuple[list[float], list[float]]:
    base = Path(tempfile.mkdtemp(prefix="skilldeck-run-bench-"))
    tree = Tree(base)
    tree.skill("loop", skill_text(body="Read the note.\n", name="loop", description="d", allowed__tools="Read"))
    note = write(tree.project / "note.txt", "x\n")
    with MessagesServer() as server:
        server.script(
            *[Reply(tool_uses=[{"id": f"t{i}", "name": "Read", "input": {"file_path": str(note)}}]) for i in range(TURNS)],
            Reply(text="done"),
        )
        env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(base / "state")}
        loc = tree.locations(environ=env)
        workspace = Workspace(loc)

        async def never(*_: object) -> str:
            return "deny"

        timed = Timed(backend_for("anthropic", env))
        runner = Runner(locations=loc, catalog=workspace.load(), backend=timed, permissions=workspace.permissions(),
                        transcript=Transcript.create("bench", env), ask=never, emit=lambda e: None, max_turns=TURNS + 2)  # fmt: skip
        await runner.invoke("loop")
        wire = [server.arrived[i + 1] - server.finished[i] for i in range(1, TURNS)]
        own = [timed.started[i + 1] - timed.ended[i] for i in range(1, TURNS)]
        return wire, own


async def bare_sdk_gaps() -> list[float]:
    """The same number of turns with the bare SDK and no tools: what the SDK and HTTP cost."""
    import anthropic

    with MessagesServer() as server:
        server.script(*[Reply(tool_uses=[{"id": f"t{i}", "name": "Read", "input": {"file_path": "/x"}}]) for i in range(TURNS)])
        client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        messages: list[dict] = [{"role": "user", "content": "go"}]  # type: ignore[type-arg]
        for i in range(TURNS):
            async with client.messages.stream(model="claude-sonnet-5-5", max_tokens=100, messages=messages) as stream:
                async for _event in stream:
                    pass
                final = await stream.get_final_message()
            messages = [*messages, {"role": "assistant", "content": [b.model_dump() for b in final.content]},
                        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{i}", "content": "x"}]}]  # fmt: skip
        return [server.arrived[i + 1] - server.finished[i] for i in range(1, TURNS - 1)]


async def throughput() -> tuple[float, float, float]:
    text = "word " * TOKENS
    request = Request("claude-sonnet-5-5", "", [{"role": "user", "content": "go"}])
    ours, bare = [], []
    with MessagesServer() as server:
        env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k"}
        backend = backend_for("anthropic", env)
        import anthropic

        client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        for _ in range(5):
            server.script(Reply(text=text, chunk=5), Reply(text=text, chunk=5))
            start = time.perf_counter()
            got = 0
            async for event in backend.stream(request):
                got += len(getattr(event, "text", ""))
            ours.append(time.perf_counter() - start)
            assert got == len(text)
            start = time.perf_counter()
            async with client.messages.stream(model=request.model, max_tokens=100, messages=request.messages) as stream:
                async for _event in stream:
                    pass
            bare.append(time.perf_counter() - start)
    # This machine's speed drifts: compare each pair measured back to back.
    return statistics.median(b / o for o, b in zip(ours, bare, strict=True)), min(ours), min(bare)  # type: ignore[return-value]


def main() -> int:
    wire, own = asyncio.run(turn_overhead())
    bare_gaps = asyncio.run(bare_sdk_gaps())
    print(
        f"agent-loop turn, skilldeck's own time (stream end -> next request asked of the SDK, a Read call "
        f"decided and run, transcript written): median {statistics.median(own) * 1000:.2f} ms, "
        f"max {max(own) * 1000:.2f} ms (goal < 5 ms)"
    )
    print(f"  on the wire (response written -> next request arrives): {statistics.median(wire) * 1000:.2f} ms; "
          f"the bare SDK's own loop: {statistics.median(bare_gaps) * 1000:.2f} ms")  # fmt: skip
    ratio, ours, bare = asyncio.run(throughput())
    print(f"streaming {TOKENS:,} tokens: skilldeck {ours * 1000:.0f} ms, bare SDK {bare * 1000:.0f} ms (best of 5), "
          f"throughput ratio {ratio:.2f}, median of back-to-back pairs (goal >= 0.9)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
