"""Pages looked at as a person would: headless Chromium over the DevTools protocol.

:func:`render` opens a local page in a fresh headless Chromium (talking to it
over ``--remote-debugging-pipe``: file descriptors 3 and 4, JSON messages
ending in a NUL byte, so no port and no third-party client), waits for it to
load, and returns what a reader would meet: a screenshot of the whole page,
the console's errors and uncaught exceptions, and every request the page
made. :func:`png_pixels` decodes the screenshot with zlib alone.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def chromium() -> str | None:
    """The Chromium command, or None when there is none (Debian's binary itself
    rather than its shell launcher, which may take file descriptor 3)."""
    if os.access("/usr/lib/chromium/chromium", os.X_OK):
        return "/usr/lib/chromium/chromium"
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class Rendered:
    """What a page showed: the screenshot (PNG bytes), console errors, requests."""

    png: bytes
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    width: int = 0
    height: int = 0
    #: The values of the ``steps`` run in the page (:func:`render`), in order.
    values: list[Any] = field(default_factory=list)


class _Pipe:
    def __init__(self, write: int, read: int) -> None:
        self.write_fd, self.read_fd = write, read
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None, timeout: float = 60) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        wanted = self.next_id
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for reply in self._read():
                if reply.get("id") == wanted:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
                self.events.append(reply)
        raise TimeoutError(method)

    def wait_for(self, method: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(e.get("method") == method for e in self.events):
                return
            self.events.extend(self._read())
        raise TimeoutError(method)

    def _read(self) -> list[dict[str, Any]]:
        while b"\0" not in self.buffer:
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buffer += chunk
        *messages, self.buffer = self.buffer.split(b"\0")
        return [json.loads(m) for m in messages if m]


def render(path: Path, width: int = 1000, scale: float = 0.5, timeout: float = 90,
           steps: Sequence[str] = ()) -> Rendered:
    """Load ``path`` in headless Chromium ``width`` CSS pixels wide, run each of
    ``steps`` (JavaScript expressions, a promise awaited; their JSON values are
    :attr:`Rendered.values`) and take a screenshot of the whole page at ``scale``."""
    command = chromium()
    assert command is not None
    to_child, from_parent = os.pipe()   # chromium reads commands on its fd 3
    to_parent, from_child = os.pipe()   # and writes replies on its fd 4

    with tempfile.TemporaryDirectory() as profile:
        # a Python trampoline puts the pipes' ends on descriptors 3 and 4 and
        # becomes Chromium (no preexec_fn, which is unsafe with threads)
        plumb = ("import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
                 "os.execv(sys.argv[3], sys.argv[3:])")
        process = subprocess.Popen(
            [sys.executable, "-c", plumb, str(to_child), str(from_child), command,
             "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--disable-extensions", "--remote-debugging-pipe",
             f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(to_child, from_child))
        os.close(to_child)
        os.close(from_child)
        pipe = _Pipe(from_parent, to_parent)
        found_values: list[Any] = []
        try:
            target = pipe.send("Target.createTarget", {"url": "about:blank"}, timeout=timeout)
            session = pipe.send("Target.attachToTarget",
                                {"targetId": target["targetId"], "flatten": True})["sessionId"]
            for domain in ("Runtime", "Log", "Network", "Page"):
                pipe.send(f"{domain}.enable", session=session)
            pipe.send("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False},
                      session=session)
            pipe.send("Page.navigate", {"url": path.resolve().as_uri()}, session=session)
            pipe.wait_for("Page.loadEventFired", timeout)
            for step in steps:
                done = pipe.send("Runtime.evaluate", {
                    "expression": step, "awaitPromise": True, "returnByValue": True},
                    session=session, timeout=timeout)
                if "exceptionDetails" in done:
                    raise RuntimeError(f"{step}: {done['exceptionDetails']}")
                found_values.append(done.get("result", {}).get("value"))
            metrics = pipe.send("Page.getLayoutMetrics", session=session)
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            shot = pipe.send("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"],
                         "scale": scale}}, session=session, timeout=timeout)
            found = Rendered(base64.b64decode(shot["data"]), width=int(size["width"]),
                             height=int(size["height"]), values=found_values)
            for event in pipe.events:
                method, params = event.get("method"), event.get("params", {})
                if method == "Runtime.exceptionThrown":
                    details = params.get("exceptionDetails", {})
                    thrown = details.get("exception", {}).get("description", "")
                    found.errors.append(f"{details.get('text')} {thrown}".strip())
                elif method == "Runtime.consoleAPICalled" and params.get("type") in (
                        "error", "assert"):
                    found.errors.append(str(params.get("args")))
                elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                    found.errors.append(str(params["entry"].get("text")))
                elif method == "Network.requestWillBeSent":
                    found.requests.append(str(params.get("request", {}).get("url")))
            pipe.send("Browser.close")
        finally:
            os.close(from_parent)
            os.close(to_parent)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return found


def png_pixels(data: bytes) -> tuple[int, int, Counter[bytes]]:
    """Width, height and a count of each pixel's colour (RGB bytes) of an 8-bit
    RGB or RGBA PNG, decoded with zlib and the PNG filters written out here."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour_type = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour_type in (2, 6), (depth, colour_type)
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    colours: Counter[bytes] = Counter()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous, strict=True))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = previous[i]
                c = previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        row = bytes(line)
        colours.update(row[i:i + 3] for i in range(0, stride, channels))
        previous = line
    return width, height, colours
