"""A recording Messages API server that plays a script of tool calls to Claude Code.

Claude Code sends one main conversation (the request whose `tools[]` offers Bash) and side
requests (titles, quota probes, token counts). The main conversation is answered statelessly
from how many `tool_result` blocks it already carries: none means "send the first call", one
means "send the second", and so on; after the last call a plain text ends the turn. Side
requests get a short harmless text. Every request body is kept, so the recorder can read each
`tool_result` exactly as the model would have seen it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.llm_server import Reply

SUBAGENT_ANSWER = "Subagent answer, line one.\nLine two."

# Called once per finished call, before the next one is sent: (index of the call, its tool_result block).
Between = Callable[[int, dict[str, Any]], None]


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every tool_result block in a request's conversation, in order."""
    out: list[dict[str, Any]] = []
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            out += [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    return out


def result_text(block: dict[str, Any]) -> str:
    """A tool_result's text, whether its content is a string or a list of blocks."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return ""


def is_subagent(body: dict[str, Any]) -> bool:
    """A fork's or an agent's request: Claude Code marks it in the first system block."""
    system = body.get("system")
    first = system[0] if isinstance(system, list) and system else None
    return isinstance(first, dict) and "cc_is_subagent=true" in str(first.get("text", ""))


def is_main(body: dict[str, Any]) -> bool:
    # A general-purpose fork is offered tools too: without the subagent mark it would be played
    # the main script (and call the forked skill again, forever). Not "offers Bash": a bare
    # deny of Bash takes it out of the main conversation's tools.
    return bool(body.get("tools")) and bool(body.get("messages")) and not is_subagent(body)


class ScriptServer:
    def __init__(
        self, calls: list[dict[str, Any]], between: Between, subagent: Callable[[dict[str, Any]], bool] = is_subagent
    ) -> None:
        self.calls = calls
        self.between = between
        # Which requests are a subagent's, answered SUBAGENT_ANSWER (the invocation recorder also
        # knows a typed fork's, which Claude Code does not mark in print mode).
        self.subagent = subagent
        self.requests: list[dict[str, Any]] = []
        self.results: dict[int, dict[str, Any]] = {}
        self.done = threading.Event()
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                self._send(404, b'{"type":"error","error":{"type":"not_found_error","message":"offline"}}')

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {}
                if self.path.split("?")[0].endswith("/count_tokens"):
                    self._send(200, b'{"input_tokens": 10}')
                    return
                with server._lock:
                    server.requests.append(body)
                    reply = server._reply(body)
                if not body.get("stream"):
                    content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
                    content += [{"type": "tool_use", **u} for u in reply.tool_uses]
                    stop = "tool_use" if reply.tool_uses else "end_turn"
                    message = {"id": "msg_oracle", "type": "message", "role": "assistant", "model": body.get("model"),
                               "content": content, "stop_reason": stop, "stop_sequence": None,
                               "usage": {"input_tokens": 11, "output_tokens": 7}}  # fmt: skip
                    self._send(200, json.dumps(message).encode())
                    return
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                for name, data in reply.events(str(body.get("model", ""))):
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

            def _send(self, status: int, payload: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _reply(self, body: dict[str, Any]) -> Reply:
        if self.subagent(body):
            # A fork's final answer, in two lines so that the result's layout shows.
            return Reply(text=SUBAGENT_ANSWER)
        if not is_main(body):
            return Reply(text="ok")
        results = tool_results(body)
        step = len(results)
        for index, block in enumerate(results):
            # A retried request carries the same results: look at each finished call once.
            if index not in self.results:
                self.results[index] = block
                self.between(index, block)
        if step < len(self.calls):
            call = self.calls[step]
            return Reply(tool_uses=[{"id": f"toolu_oracle_{step:03d}", "name": call["tool"], "input": call["input"]}])
        self.done.set()
        return Reply(text="done")

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    def __enter__(self) -> ScriptServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
