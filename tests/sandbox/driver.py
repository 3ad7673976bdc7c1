"""Driving ``python bot.py --sandbox`` in a real browser (Debian's Chromium through Playwright,
which never downloads a browser): the sandbox test and ``bench.doc_images`` (the README's
screenshot) use it."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

try:
    from playwright.sync_api import expect
except ImportError:  # missing_browser() says so
    expect = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("SANDBOX_TEST_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STEP_MS = 15_000  # one click's bot work, and the page's next publication, well inside this


def missing_browser() -> str | None:
    """Why the browser test cannot run here, or None."""
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if find_spec("playwright") is None:
        return 'Playwright is not installed (pip install -e ".[test]")'
    if find_spec("simcord.preview") is None or find_spec("linkify_it") is None:
        return 'simcord\'s Preview is not installed (pip install -e ".[test]")'
    return None


@contextlib.contextmanager
def running_sandbox(folder: Path) -> Iterator[str]:
    """``python bot.py --sandbox`` in ``folder`` (its own sandbox.sqlite3); yields the page's address,
    stops it at the end (it must exit cleanly)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL")}
    log = folder / "sandbox.log"
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "bot.py"), "--sandbox"],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=log.open("w"),
        text=True,
    )
    try:
        assert process.stdout is not None
        url = None
        for line in process.stdout:  # the banner comes first; it names the address
            if match := re.search(r"http://127\.0\.0\.1:\d+/#\S+", line):
                url = match.group(0)
                break
        assert url is not None, log.read_text()
        yield url
    finally:
        process.terminate()
        try:
            assert process.wait(timeout=20) == 0, log.read_text()
        finally:
            process.kill()


@contextlib.contextmanager
def browser_page(url: str, folder: Path, shots: Path) -> Iterator[SandboxPage]:
    """A fresh headless Chromium (its own profile in ``folder``) on the sandbox page."""
    from playwright.sync_api import sync_playwright

    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(folder / "chromium-profile"),
            executable_path=str(CHROMIUM),
            args=CHROMIUM_FLAGS,
            headless=True,
            viewport={"width": 1280, "height": 900},
        )
        try:
            page = context.new_page()
            page.goto(url)
            page.locator("#channel-composer-input").wait_for(timeout=STEP_MS)
            yield SandboxPage(page, shots)
        finally:
            context.close()


class SandboxPage:
    """The Preview page, used by hand: the "Viewing as" picker, the slash-command composer,
    buttons and selects; each step waits for what a person would wait for."""

    def __init__(self, page: Any, shots: Path) -> None:
        self.page = page
        self.shots = shots

    def wait_done(self) -> None:
        """Until the page shows the outcome of the last action; a refused one fails the test."""
        status = self.page.locator("#action-status")
        deadline = time.monotonic() + STEP_MS / 1000
        while (text := status.inner_text()).endswith("…") and time.monotonic() < deadline:
            self.page.wait_for_timeout(100)
        if "not completed" in text or "uncertain" in text:
            self.shot("refused")
            activity = self.page.locator("#activity-list").inner_text()
            diagnostics = self.page.locator("#inspector-panel").inner_text()
            raise AssertionError(f"{text}\n{activity}\n{diagnostics}")

    def act_as(self, member: str) -> None:
        picker = self.page.locator("#viewer-picker")
        wanted = picker.locator("option").filter(has_text=re.compile(f"^{member}$")).get_attribute("value")
        if picker.input_value() == wanted:
            return
        picker.select_option(wanted)
        self.page.wait_for_timeout(200)  # the switch starts ("Switching viewer…"), then settles
        self.wait_done()

    def slash(self, command: str, value: str | None = None) -> None:
        """Type ``command``, take it from the picker, and pick ``value`` for its first option
        from the autocomplete list."""
        composer = self.page.locator("#channel-composer-input")
        composer.click()
        self.page.keyboard.type(command)
        self.page.locator(".command-entry").first.wait_for(timeout=STEP_MS)
        self.page.keyboard.press("Tab")
        if value is not None:
            self.page.keyboard.type(value[:4])
            self.page.locator(f".command-suggestion[data-value='{value}']").click(timeout=STEP_MS)
        self.page.locator("#send-message").click()
        self.wait_done()

    def click(self, label: str) -> None:
        self.page.get_by_role("button", name=label).last.click(timeout=STEP_MS)
        self.wait_done()

    def message_with(self, text: str):
        """The newest message that says ``text`` and offers a select."""
        return (
            self.page.locator("article.channel-message")
            .filter(has_text=text)
            .filter(has=self.page.locator(".select-trigger"))
            .last
        )

    def choose(self, text: str, index: int = 0) -> list[str]:
        """In the select of the newest message saying ``text``, the option at ``index``;
        returns every option's label."""
        message = self.message_with(text)
        try:
            message.wait_for(timeout=STEP_MS)
        except Exception:
            self.shot("missing-select")
            raise
        trigger = self.page.locator(".select-trigger").last  # the newest message's
        for attempt in range(12):  # a publication arriving as it opens re-renders it closed: again
            if trigger.get_attribute("aria-expanded") != "true":
                if attempt % 2:
                    trigger.click()
                else:  # the keyboard way: the timeline may scroll under a mouse click
                    trigger.focus()
                    self.page.keyboard.press("ArrowDown")
            self.page.wait_for_timeout(300)
            if trigger.get_attribute("aria-expanded") == "true":
                break
        if trigger.get_attribute("aria-expanded") != "true":
            self.shot("select-closed")
        expect(trigger).to_have_attribute("aria-expanded", "true")
        options = self.page.locator(f"[id='{trigger.get_attribute('aria-controls')}'] .select-option")
        options.first.wait_for(state="attached", timeout=STEP_MS)
        labels = [options.nth(i).inner_text() for i in range(options.count())]
        for _ in range(index):
            self.page.keyboard.press("ArrowDown")
        self.page.keyboard.press("Enter")
        expect(self.page.locator("#action-status")).to_have_text("Callback completed", timeout=STEP_MS)
        self.wait_done()
        return labels

    def wait_text(self, text: str) -> None:
        try:
            self.page.get_by_text(text).last.wait_for(timeout=STEP_MS)
        except Exception:
            self.shot("missing-text")
            raise

    def latest_ping(self) -> str:
        return self.page.get_by_text("it's your turn in").last.inner_text()

    def shot(self, name: str) -> Path:
        path = self.shots / f"{name}.png"
        self.page.screenshot(path=path)
        return path


def place_a_die(tavern: SandboxPage, member: str) -> None:
    """``member`` places a die by clicking: a "Place a …" button, then a cell in the select that
    opens on the board itself."""
    tavern.act_as(member)
    tavern.page.get_by_role("button", name=re.compile(r"^Place a \d$")).last.click(timeout=STEP_MS)
    tavern.wait_done()
    tavern.choose("/game rules ninesons")  # the board's footer
    tavern.wait_text("Last: ")  # the board shows the move
