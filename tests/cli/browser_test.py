#!/usr/bin/env python3
"""browser_test.py - opens a page of `leuctra view` in headless Chromium and steps through a
game with the page's buttons, the arrow keys, the game list and the URL fragment, checking
after each step that the position the page shows (#position) is what `leuctra apply` gives for
the game's moves so far.  Drives Chromium over the DevTools protocol with a small websocket
client from the standard library.  Leaves a screenshot in the leuctra binary's folder
(build/browser_view.png).  Without /usr/bin/chromium it prints a skip note and passes.
Ends with "N passed, N failed, N skipped"."""
import base64
import http.client
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

LEUCTRA = os.environ.get("LEUCTRA", "build/leuctra")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
results = {"passed": 0, "failed": 0, "skipped": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    if not ok:
        print(f"FAIL {name} {detail}")


def leuctra(*args):
    p = subprocess.run([LEUCTRA, *args], capture_output=True, text=True, timeout=120)
    if p.returncode:
        raise RuntimeError(f"leuctra {' '.join(args)}: {p.stderr.strip()}")
    return p.stdout


class DevTools:
    """One websocket to a page target: sends commands, returns their results (events are dropped)."""

    def __init__(self, url):
        m = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        self.sock = socket.create_connection((m.group(1), int(m.group(2))), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {m.group(3)} HTTP/1.1\r\nHost: {m.group(1)}:{m.group(2)}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        reply = b""
        while b"\r\n\r\n" not in reply:
            reply += self.sock.recv(4096)
        if b" 101 " not in reply.split(b"\r\n")[0]:
            raise RuntimeError("websocket handshake refused: " + reply.decode(errors="replace"))
        self.buffer = reply.split(b"\r\n\r\n", 1)[1]
        self.next_id = 0

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("DevTools connection closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _send(self, text):
        payload = text.encode()
        mask = os.urandom(4)     # clients must mask their frames (RFC 6455)
        n = len(payload)
        header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0xFE]) + struct.pack(">H", n)
                                  if n < 65536 else bytes([0xFF]) + struct.pack(">Q", n))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _receive(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            message += self._read(n)
            if b0 & 0x80:
                return json.loads(message)

    def call(self, method, **params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = self._receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def evaluate(self, expression):
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def key(self, name, code):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=name, code=name, windowsVirtualKeyCode=code)


def chromium_flags(profile):
    return [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}"]


def start_browser(profile, url):
    proc = subprocess.Popen(chromium_flags(profile) + ["--remote-debugging-port=0", "--window-size=1200,800", url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = proc.stderr.readline()
        m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
        if m:
            # Keep reading its log so that a full pipe never stalls the browser.
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            return proc, int(m.group(1))
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError("Chromium did not start its DevTools server")


def page_target(port, url_part):
    for _ in range(100):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/json/list")
        targets = json.loads(conn.getresponse().read())
        for t in targets:
            if t.get("type") == "page" and url_part in t.get("url", ""):
                return t["webSocketDebuggerUrl"]
        time.sleep(0.1)
    raise RuntimeError("no page target")


def make_page(tmp):
    rec = os.path.join(tmp, "games.lrec")
    leuctra("selfplay", "--games", "3", "--out", rec, "--visits", "20", "--variant", "crossings", "--size", "8x8",
            "--threads", "2", "--quiet", "--max-plies", "30")
    html = os.path.join(tmp, "games.html")
    leuctra("view", rec, "-o", html)
    games = {}
    for line in leuctra("records", "dump", rec).splitlines():
        index = int(re.match(r"game=(\d+)", line).group(1))
        games[index] = line.split(" moves:")[1].split()
    return html, games


def expected(moves, ply):
    return leuctra("apply", "--variant", "crossings", "--size", "8x8", *moves[:ply]).strip()


def shown(tools):
    for _ in range(50):
        state = tools.evaluate("[document.getElementById('ply').textContent, document.getElementById('position').textContent]")
        if state and state[1]:
            return int(state[0]), state[1]
        time.sleep(0.1)
    return -1, ""


def step_through(tools, games):
    moves = games[1]
    ply, pos = shown(tools)
    check("opens at the fragment's game 1 ply 2", (ply, pos) == (2, expected(moves, 2)), f"{ply} {pos}")
    steps = [("next", 3), ("next", 4), ("ArrowRight", 5), ("ArrowRight", 6), ("prev", 5), ("ArrowLeft", 4),
             ("last", len(moves)), ("first", 0), ("End", len(moves)), ("Home", 0)]
    for action, want in steps:
        if action.startswith(("Arrow", "Home", "End")):
            tools.key(action, {"ArrowLeft": 37, "ArrowRight": 39, "Home": 36, "End": 35}[action])
        else:
            tools.evaluate(f"document.getElementById('{action}').click()")
        ply, pos = shown(tools)
        check(f"{action} shows ply {want}", ply == want and pos == expected(moves, want), f"{ply} {pos!r}")
    tools.evaluate("const s = document.getElementById('game'); s.value = '2'; s.dispatchEvent(new Event('change'))")
    for _ in range(3):
        tools.evaluate("document.getElementById('next').click()")
    ply, pos = shown(tools)
    check("game list picks game 2", (ply, pos) == (3, expected(games[2], 3)), f"{ply} {pos}")


def screenshot(tools, path):
    tools.evaluate("location.hash = '#game=0&ply=6'")
    time.sleep(0.3)
    png = base64.b64decode(tools.call("Page.captureScreenshot", format="png")["data"])
    with open(path, "wb") as f:
        f.write(png)
    check("screenshot", png.startswith(b"\x89PNG") and len(png) > 1000)


def check_dump_dom(profile, html, games):
    """The fragment alone, through --dump-dom: what a page opened from a link shows."""
    url = "file://" + html + "#game=1&ply=7"
    dom = subprocess.run(chromium_flags(profile + "-dump") + ["--dump-dom", url], capture_output=True, text=True,
                         timeout=120).stdout
    m = re.search(r"<div id=\"position\">([^<]*)</div>", dom)
    check("dump-dom at #game=1&ply=7", m and m.group(1) == expected(games[1], 7), m.group(1) if m else dom[-300:])


def run_browser(tmp):
    html, games = make_page(tmp)
    profile = os.path.join(tmp, "profile")
    proc, port = start_browser(profile, "file://" + html + "#game=1&ply=2")
    try:
        tools = DevTools(page_target(port, "games.html"))
        step_through(tools, games)
        screenshot(tools, os.path.join(os.path.dirname(os.path.abspath(LEUCTRA)), "browser_view.png"))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    check_dump_dom(profile, html, games)


def main():
    if not os.access(CHROMIUM, os.X_OK):
        print(f"skip: {CHROMIUM} not found (apt-get install chromium), so no browser test")
        results["skipped"] += 1
    else:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                run_browser(tmp)
            except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
                check("browser session", False, str(e))
    print(f"{results['passed']} passed, {results['failed']} failed, {results['skipped']} skipped")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
