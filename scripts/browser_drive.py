"""Plays a few moves on zero serve's page in headless Chromium by clicking, over the DevTools protocol on a
pipe (--remote-debugging-pipe: no WebSocket library needed), then uses its analysis, board flip, move list,
save and load, and prints what the page shows as JSON. A second URL (a Bagh Chal server) is opened too, and its
board drawing reported."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

URL = sys.argv[1]
SECOND_URL = sys.argv[2] if len(sys.argv) > 2 else None
TIMEOUT = 60


class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="zero-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4.
        hi_r, hi_w = os.dup(to_chrome_r), os.dup(from_chrome_w)

        def child_fds():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen(
            [shutil.which("chromium") or "chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={self.profile}",
             "--remote-debugging-pipe", "about:blank"],
            pass_fds=(3, 4, hi_r, hi_w), preexec_fn=child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for fd in (to_chrome_r, from_chrome_w, hi_r, hi_w):
            os.close(fd)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_chrome, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed the DevTools pipe")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def open(self, url):
        target = self.send("Target.createTarget", {"url": url}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1,
                                                         "mobile": False})

    def js(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_idle(self):
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            if self.js("document.readyState === 'complete' && document.body.dataset.busy === '0'"):
                return
            time.sleep(0.05)
        raise RuntimeError("the page stayed busy")

    def wait_history_change(self, before):
        """Waits until the move list differs from `before` (a click's request has been answered), then idle."""
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            if browser_history(self) != before:
                self.wait_idle()
                return
            time.sleep(0.05)
        raise RuntimeError(f"the move list stayed {before!r}")

    def click(self, selector):
        """A real mouse click (pressed and released) at the centre of the element."""
        box = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                      " if (!e) return null; const r = e.getBoundingClientRect();"
                      " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        if box is None:
            raise RuntimeError(f"nothing matches {selector}")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def set_file(self, selector, path):
        """Chooses `path` in the file input `selector`, as a person would in the file dialog."""
        root = self.send("DOM.getDocument")["root"]["nodeId"]
        node = self.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        self.send("DOM.setFileInputFiles", {"files": [path], "nodeId": node})

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def browser_history(browser):
    return browser.js("document.getElementById('history').textContent")


READ_PAGE = """(() => {
  const cells = {};
  for (const s of document.querySelectorAll('#board .stack')) cells[s.parentElement.dataset.square] = s.dataset.pieces;
  return { cells, position: document.getElementById('board').dataset.position,
           history: document.getElementById('history').textContent,
           status: document.getElementById('status').textContent,
           eval: document.getElementById('eval').textContent,
           error: document.getElementById('error').textContent,
           targets: [...document.querySelectorAll('.sq.target')].map(e => e.dataset.square).sort() };
})()"""


def main():
    browser = Browser()
    report = {}
    try:
        browser.open(URL)
        browser.wait_idle()
        report["start"] = browser.js(READ_PAGE)
        browser.click('[data-square="c3"]')
        report["after_select"] = browser.js(READ_PAGE)
        browser.click('[data-square="d4"]')
        browser.wait_history_change("")
        report["after_first"] = browser.js(READ_PAGE)
        report["after_first"]["link"] = browser.js("document.getElementById('share').href")
        report["after_first"]["address"] = browser.js("location.href")
        # A second move: any movable piece, then its highlighted destinations until the move is made.
        before = report["after_first"]["history"]
        browser.click(".sq.movable")
        for _ in range(10):
            browser.wait_idle()
            if browser_history(browser) != before:
                break
            browser.click(".sq.target")
        browser.wait_idle()
        report["after_second"] = browser.js(READ_PAGE)
        browser.click("#undo")
        browser.wait_history_change(report["after_second"]["history"])
        report["after_undo"] = browser.js(READ_PAGE)
        analyse_flip_step_save_load(browser, report)
        # The position's address opened in a new tab shows that position, with no moves played yet.
        browser.open(report["after_first"]["link"])
        browser.wait_idle()
        report["shared"] = browser.js(READ_PAGE)
        browser.open(URL + "#position=nonsense")
        browser.wait_idle()
        report["bad_address"] = browser.js(READ_PAGE)
        if SECOND_URL:
            browser.open(SECOND_URL)
            browser.wait_idle()
            report["second"] = browser.js(READ_PAGE)
            report["second"]["lines"] = browser.js("document.querySelectorAll('#lines line').length")
            report["second"]["counts"] = browser.js("document.getElementById('counts').textContent")
    finally:
        browser.close()
    print(json.dumps(report))


def analyse_flip_step_save_load(browser, report):
    browser.click("#analyse")
    browser.wait_idle()
    report["analysis"] = browser.js(READ_PAGE)
    report["analysis"]["text"] = browser.js("document.getElementById('analysis').textContent")
    report["analysis"]["hint"] = browser.js("[...document.querySelectorAll('.sq.hint')].map(e => e.dataset.square)")
    report["analysis"]["bar"] = browser.js("document.getElementById('evalbar').dataset.first")
    browser.click("#flip")
    report["flipped_first_square"] = browser.js("document.querySelector('#board .sq').dataset.square")
    browser.click("#flip")
    browser.click("#prev")
    browser.wait_idle()
    report["viewing"] = browser.js(READ_PAGE)
    browser.click("#live")
    browser.wait_idle()
    report["live"] = browser.js(READ_PAGE)
    browser.click("#save")
    deadline = time.time() + TIMEOUT
    while not browser.js("document.body.dataset.saved || ''") and time.time() < deadline:
        time.sleep(0.05)
    record = browser.js("document.body.dataset.saved")
    report["saved"] = record
    browser.click("#new-first")
    browser.wait_history_change(report["live"]["history"])
    with tempfile.NamedTemporaryFile("w", suffix=".pdn", delete=False) as f:
        f.write(record)
    try:
        browser.set_file("#load-file", f.name)
        browser.wait_history_change("")
    finally:
        os.unlink(f.name)
    report["loaded"] = browser.js(READ_PAGE)


main()
