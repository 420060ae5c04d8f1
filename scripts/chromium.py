"""Headless Chromium through chromedriver's WebDriver API, for the page tests
(scripts/web_test.py, scripts/npm_test.py): serve a folder on 127.0.0.1, load a page, poll a
script until the page says it is done.

Only localhost traffic: Chromium is told not to reach the network (the flags in
webdriver.json), and WebGPU is on (`--enable-unsafe-webgpu` offers SwiftShader's CPU adapter
on machines without a GPU).
"""

import functools
import http.server
import json
import os
import socket
import subprocess
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def webdriver(port, method, path, body=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)["value"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript",
                      ".mjs": "text/javascript"}

    def log_message(self, *args):
        pass


def chrome_options():
    flags = os.environ.get("WASM_BINDGEN_TEST_WEBDRIVER_JSON", os.path.join(ROOT, "webdriver.json"))
    with open(flags) as f:
        options = json.load(f)["goog:chromeOptions"]
    options["args"] = options["args"] + ["--headless=new", "--no-sandbox"]
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if os.path.exists(chromium):
        options["binary"] = chromium
    return options


def load_page(site, page, read_script, timeout=300):
    """Serves `site`, opens `page` (a path under it) in headless Chromium and runs
    `read_script` (WebDriver's synchronous script: its `return` value) every half second
    until what it returns has a `state` other than "running", or `timeout` seconds pass.
    Returns the last value read."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{page}"
    port = free_port()
    driver = subprocess.Popen(
        [os.environ.get("CHROMEDRIVER", "chromedriver"), f"--port={port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    session = None
    shown = None
    try:
        for _ in range(100):
            try:
                if webdriver(port, "GET", "/status").get("ready"):
                    break
            except OSError:
                pass
            time.sleep(0.1)
        session = webdriver(port, "POST", "/session", {
            "capabilities": {"alwaysMatch": {"goog:chromeOptions": chrome_options()}}})["sessionId"]
        webdriver(port, "POST", f"/session/{session}/url", {"url": url})
        deadline = time.time() + timeout
        while True:
            shown = webdriver(port, "POST", f"/session/{session}/execute/sync",
                              {"script": read_script, "args": []})
            # A WebDriver error (the page still loading, say) reads as running.
            running = not isinstance(shown, dict) or shown.get("state", "running") == "running"
            if not running or time.time() > deadline:
                break
            time.sleep(0.5)
    finally:
        if session:
            try:
                webdriver(port, "DELETE", f"/session/{session}")
            except OSError:
                pass
        driver.terminate()
        driver.wait()
        server.shutdown()
    return shown
