"""A Messages API server on 127.0.0.1 that keeps every request body and answers "ok".

Claude Code sends its first request (the listing, a typed skill's blocks) before any answer
matters; a short text answer ends the turn, so no tool is ever called. Bodies are read up to
MAX_BODY bytes and kept up to MAX_KEPT in all: a hostile or runaway client cannot fill memory.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .claude import DUMMY_KEY

MAX_BODY = 16 * 1024 * 1024
MAX_KEPT = 48 * 1024 * 1024
ANSWER = "ok"


def sse(model: str) -> bytes:
    """One streamed assistant message: the text ANSWER, end of turn."""
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_compare", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": ANSWER}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                           "usage": {"output_tokens": 1}}),
        ("message_stop", {"type": "message_stop"}),
    ]  # fmt: skip
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)


def message(model: str) -> bytes:
    return json.dumps(
        {"id": "msg_compare", "type": "message", "role": "assistant", "model": model,
         "content": [{"type": "text", "text": ANSWER}], "stop_reason": "end_turn", "stop_sequence": None,
         "usage": {"input_tokens": 1, "output_tokens": 1}}
    ).encode()  # fmt: skip


class RecordingServer:
    """`with RecordingServer() as server:` ... `server.requests` (bodies, in arrival order)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.kept = 0
        self.dropped = 0
        # Which keys the requests carried, as "dummy", "other" or "none" (never the key itself).
        self.keys: set[str] = set()
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                self._send(404, b'{"type":"error","error":{"type":"not_found_error","message":"offline"}}')

            def do_POST(self) -> None:
                try:
                    length = int(self.headers.get("content-length", 0))
                except ValueError:
                    length = -1
                if not 0 <= length <= MAX_BODY:
                    self._send(413, b'{"type":"error","error":{"type":"request_too_large","message":"too large"}}')
                    return
                raw = self.rfile.read(length)
                bearer = self.headers.get("authorization", "").removeprefix("Bearer ").strip()
                key = self.headers.get("x-api-key") or bearer
                server.keys.add("dummy" if key == DUMMY_KEY else "other" if key else "none")
                if self.path.split("?")[0].endswith("/count_tokens"):
                    self._send(200, b'{"input_tokens": 10}')
                    return
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                body = body if isinstance(body, dict) else {}
                server._keep(body, len(raw))
                model = str(body.get("model", ""))
                if not body.get("stream"):
                    self._send(200, message(model))
                    return
                payload = sse(model)
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def _send(self, status: int, payload: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _keep(self, body: dict[str, Any], size: int) -> None:
        with self._lock:
            if self.kept + size > MAX_KEPT:
                self.dropped += 1
                return
            self.kept += size
            self.requests.append(body)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> RecordingServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
