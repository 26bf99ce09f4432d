"""A local server that speaks the Anthropic Messages API (JSON and SSE streaming) on 127.0.0.1.

Each test scripts the replies in order and reads back every request exactly as sent; a request
whose messages the API would refuse (`shape_problem`) gets its 400 instead of a reply. A reply
can stream text and tool calls, or fail in each way the real API does: an HTTP error status,
an `error` event inside the stream, or a connection dropped mid-stream; or misbehave as a hostile
or broken server would: stall with the connection open, send pings forever, send malformed
events, stream a tool call's input as any raw text (`"raw"` instead of `"input"`).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
               429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}  # fmt: skip


ROLES = ("user", "assistant", "system")


def shape_problem(body: Any) -> str:
    """What the Messages API would refuse (400) in a request's messages, or "": a list of messages,
    each with a role the pinned SDK types (user, assistant, and system: the skill listing is a role
    "system" message, as Claude Code 2.1.328 sends it) and a string or a list of blocks, a system
    message's blocks all text."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list) or not messages:
        return "messages: a non-empty list is required"
    for n, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if role not in ROLES:
            return f"messages.{n}.role: unexpected role {role!r}"
        if not isinstance(content, (str, list)):
            return f"messages.{n}.content: a string or a list of blocks is required"
        if (
            role == "system"
            and isinstance(content, list)
            and any(not isinstance(b, dict) or b.get("type") != "text" for b in content)
        ):
            return f"messages.{n}.content: a system message holds text blocks only"
    return ""


class _Quiet(ThreadingHTTPServer):
    """A client hanging up mid-stream (a cancelled run) is expected here, not an error to print."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@dataclass
class Reply:
    text: str = ""
    tool_uses: list[dict[str, Any]] = field(default_factory=list)
    stop_reason: str | None = None
    status: int = 200
    # Close the connection after this many SSE events (a lost connection mid-stream).
    drop_after: int | None = None
    # Send an `error` event after the first text delta (the API failing mid-stream).
    stream_error: str | None = None
    chunk: int = 8
    # Never answer (until the server shuts down): the client must time out.
    hang: bool = False
    # Seconds between streamed events, kept on a schedule (a model streaming at a steady rate).
    pace: float = 0.0
    # After this many events, send nothing more but keep the connection open (a stalled stream).
    stall_after: int | None = None
    # After this many events, send only `ping` events, every 50 ms, until the server closes.
    pings_after: int | None = None
    # After this many events, start a data line that never ends (64 KB writes until the client leaves).
    flood_after: int | None = None
    # Replace the event at this position with this raw SSE text (malformed data, bad bytes).
    corrupt: tuple[int, bytes] | None = None
    # An error reply's message (default: "status N").
    message: str = ""
    # Send these bytes as the whole body, with this Content-Encoding header (a compression bomb).
    encoded: tuple[str, bytes] | None = None

    def events(self, model: str) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = [
            ("message_start", {"type": "message_start", "message": {
                "id": "msg_local", "type": "message", "role": "assistant", "model": model, "content": [],
                "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 11, "output_tokens": 1}}}),
            ("ping", {"type": "ping"}),
        ]  # fmt: skip
        index = 0
        if self.text:
            out.append(
                (
                    "content_block_start",
                    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                )
            )
            for i in range(0, len(self.text), self.chunk):
                delta = {"type": "text_delta", "text": self.text[i : i + self.chunk]}
                out.append(("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}))
                if self.stream_error and i == 0:
                    out.append(("error", {"type": "error", "error": {"type": self.stream_error, "message": "Overloaded"}}))
            out.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
            index = 1
        for n, use in enumerate(self.tool_uses):
            block = {"type": "tool_use", "id": use.get("id", f"toolu_{n}"), "name": use["name"], "input": {}}
            out.append(("content_block_start", {"type": "content_block_start", "index": index, "content_block": block}))
            raw = use["raw"] if "raw" in use else json.dumps(use["input"])
            for i in range(0, len(raw), 10):
                delta = {"type": "input_json_delta", "partial_json": raw[i : i + 10]}
                out.append(("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}))
            out.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
            index += 1
        stop = self.stop_reason or ("tool_use" if self.tool_uses else "end_turn")
        out.append(
            (
                "message_delta",
                {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 7}},
            )
        )
        out.append(("message_stop", {"type": "message_stop"}))
        return out


class MessagesServer:
    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        # perf_counter() when each request arrived and when its reply was fully written.
        self.arrived: list[float] = []
        self.finished: list[float] = []
        self._lock = threading.Lock()
        self.closing = threading.Event()
        # Picks the reply from the request when no scripted reply is left (the routing lab's tests
        # answer by the request's text, in whatever order concurrent requests arrive).
        self.choose: Callable[[dict[str, Any]], Reply] | None = None
        # Requests being answered now, and the most at once (measured here, not by timing).
        self.in_flight = 0
        self.max_in_flight = 0
        # `gate(width, total)`: hold each request until `width` are in flight or `total` have
        # arrived, so that a client sending more than `width` at once is seen doing it.
        self._gate: tuple[int, int] | None = None
        self._flight = threading.Condition(self._lock)
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                server.arrived.append(time.perf_counter())
                with server._lock:
                    server.requests.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    problem = shape_problem(body)
                    if problem:
                        # Refused as the API refuses it, whatever was scripted (the script is kept).
                        reply = Reply(status=400, message=problem)
                    elif server.replies:
                        reply = server.replies.pop(0)
                    else:
                        reply = server.choose(body) if server.choose else Reply(text="(no scripted reply)")
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                    server._flight.notify_all()
                    if server._gate is not None:
                        width, total = server._gate
                        server._flight.wait_for(lambda: server.in_flight >= width or len(server.requests) >= total, 10)
                # Out of flight just before the last bytes go: once the client has the whole
                # answer it may send its next request, which must not find this one still counted.
                released = threading.Event()

                def release() -> None:
                    with server._lock:
                        if not released.is_set():
                            released.set()
                            server.in_flight -= 1

                try:
                    self._answer(body, reply, release)
                finally:
                    release()

            def _answer(self, body: dict[str, Any], reply: Reply, release: Callable[[], None]) -> None:
                if reply.hang:
                    server.closing.wait()
                    return
                if reply.encoded is not None:
                    self.send_response(reply.status)
                    self.send_header("content-type", "text/event-stream" if reply.status == 200 else "application/json")
                    self.send_header("content-encoding", reply.encoded[0])
                    self.send_header("content-length", str(len(reply.encoded[1])))
                    release()
                    self.end_headers()
                    self.wfile.write(reply.encoded[1])
                    return
                if reply.status != 200:
                    payload = json.dumps(
                        {
                            "type": "error",
                            "error": {
                                "type": ERROR_TYPES.get(reply.status, "api_error"),
                                "message": reply.message or f"status {reply.status}",
                            },
                        }
                    ).encode()
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    release()
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                events = reply.events(body.get("model", ""))
                if not body.get("stream"):
                    release()
                    self._json(reply, body)
                    return
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                start = time.perf_counter()
                for n, (name, data) in enumerate(events):
                    if reply.drop_after is not None and n >= reply.drop_after:
                        self.wfile.flush()
                        self.connection.shutdown(2)
                        return
                    if reply.stall_after is not None and n >= reply.stall_after:
                        self.wfile.flush()
                        server.closing.wait()
                        return
                    if reply.pings_after is not None and n >= reply.pings_after:
                        while not server.closing.wait(0.05):
                            self.wfile.write(b'event: ping\ndata: {"type": "ping"}\n\n')
                            self.wfile.flush()
                        return
                    if reply.flood_after is not None and n >= reply.flood_after:
                        self.wfile.write(b"event: content_block_delta\ndata: ")
                        while not server.closing.is_set():
                            self.wfile.write(b"x" * 65536)
                        return
                    if reply.corrupt is not None and n == reply.corrupt[0]:
                        self.wfile.write(reply.corrupt[1])
                        self.wfile.flush()
                        continue
                    # Pace the stream, but stop at once when the server is closing.
                    if (
                        reply.pace
                        and (ahead := start + n * reply.pace - time.perf_counter()) > 0.002
                        and server.closing.wait(ahead)
                    ):
                        return
                    if n == len(events) - 1:
                        release()
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                    if reply.pace or len(events) < 200 or n % 50 == 0:
                        self.wfile.flush()
                self.wfile.flush()
                server.finished.append(time.perf_counter())
                self.close_connection = True

            def _json(self, reply: Reply, body: dict[str, Any]) -> None:
                content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
                content += [
                    {"type": "tool_use", "id": u.get("id", f"toolu_{n}"), "name": u["name"], "input": u.get("input", {})}
                    for n, u in enumerate(reply.tool_uses)
                ]
                payload = json.dumps({"id": "msg_local", "type": "message", "role": "assistant", "model": body.get("model"), "content": content,
                                      "stop_reason": reply.stop_reason or ("tool_use" if reply.tool_uses else "end_turn"), "stop_sequence": None,
                                      "usage": {"input_tokens": 11, "output_tokens": 7}}).encode()  # fmt: skip
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = _Quiet(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def gate(self, width: int, total: int) -> None:
        with self._lock:
            self._gate = (width, total)

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self.replies.extend(replies)

    def __enter__(self) -> MessagesServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()
