"""The sandbox (``python bot.py --sandbox``) played in a real browser: headless Chromium drives
the Preview page the way a newcomer would, as alice, bob and the sandbox's AI.

Needs Debian's ``chromium`` and Playwright from PyPI (with that browser: nothing downloads one).
Without them the test skips, saying what is missing; under ``CI=true`` it fails instead."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the test skips (or fails under CI), saying so
    expect = None

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("SANDBOX_TEST_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
STEP_MS = 15_000  # one click's bot work, and the page's next publication, well inside this


def missing_browser() -> str | None:
    """Why the browser test cannot run here, or None."""
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if find_spec("playwright") is None:
        return "Playwright is not installed (pip install -e \".[test]\")"
    if find_spec("simcord.preview") is None or find_spec("linkify_it") is None:
        return "simcord's Preview is not installed (pip install -e \".[test]\")"
    return None


@pytest.fixture
def sandbox_url(tmp_path: Path) -> Iterator[str]:
    """``python bot.py --sandbox`` in a fresh folder (its own sandbox.sqlite3); the page's address."""
    reason = missing_browser()
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"the sandbox browser test must run under CI: {reason}")
        pytest.skip(reason)
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL")}
    process = subprocess.Popen([sys.executable, str(ROOT / "bot.py"), "--sandbox"], cwd=tmp_path, env=env,
                               stdout=subprocess.PIPE, stderr=(tmp_path / "sandbox.log").open("w"), text=True)
    try:
        assert process.stdout is not None
        url = None
        for line in process.stdout:  # the banner comes first; it names the address
            if match := re.search(r"http://127\.0\.0\.1:\d+/#\S+", line):
                url = match.group(0)
                break
        assert url is not None, (tmp_path / "sandbox.log").read_text()
        yield url
    finally:
        process.terminate()
        try:
            assert process.wait(timeout=20) == 0, (tmp_path / "sandbox.log").read_text()
        finally:
            process.kill()
    assert (tmp_path / "sandbox.sqlite3").exists()


class SandboxPage:
    """The Preview page, used by hand: the "Viewing as" picker, the slash-command composer,
    buttons and selects; each step waits for what a person would wait for."""

    def __init__(self, page, shots: Path) -> None:
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
        return (self.page.locator("article.channel-message").filter(has_text=text)
                .filter(has=self.page.locator(".select-trigger")).last)

    def choose(self, text: str, index: int = 0) -> list[str]:
        """In the select of the newest message saying ``text``, the option at ``index``;
        returns every option's label."""
        message = self.message_with(text)
        try:
            message.wait_for(timeout=STEP_MS)
        except Exception:
            self.shot("missing-select")
            raise
        trigger = message.locator(".select-trigger").first
        for _ in range(10):  # a publication arriving as it opens re-renders it closed: open it again
            if trigger.get_attribute("aria-expanded") != "true":
                trigger.focus()  # the keyboard way: the timeline may scroll under a mouse click
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


@pytest.fixture
def browser_page(sandbox_url: str, tmp_path: Path) -> Iterator[SandboxPage]:
    from playwright.sync_api import sync_playwright

    shots = tmp_path / "screenshots"
    shots.mkdir()
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS,
            headless=True, viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(sandbox_url)
            page.locator("#channel-composer-input").wait_for(timeout=STEP_MS)
            yield SandboxPage(page, shots)
        finally:
            context.close()


def place_a_die(tavern: SandboxPage, member: str) -> None:
    """``member`` places a die by clicking: a "Place a …" button, then a cell in the private select."""
    tavern.act_as(member)
    tavern.page.get_by_role("button", name=re.compile(r"^Place a \d$")).last.click(timeout=STEP_MS)
    tavern.wait_done()
    tavern.choose("— choose:")
    tavern.wait_text("Last: ")  # the board shows the move


def test_nine_sons_and_a_flagon_plan_in_the_browser(browser_page: SandboxPage) -> None:
    try:
        play_in_the_browser(browser_page)
    except BaseException:
        browser_page.shot("at-failure")  # what the page showed, beside the others
        (browser_page.shots / "at-failure.html").write_text(browser_page.page.content())
        raise


def play_in_the_browser(tavern: SandboxPage) -> None:
    assert tavern.page.locator("#viewer-picker").input_value() != ""
    tavern.act_as("alice")
    tavern.slash("/game new", "ninesons")
    tavern.wait_text("The Nine Sons of the Dragon — lobby")
    tavern.act_as("bob")
    tavern.click("Join")
    tavern.wait_text("Seats (2/2)")
    tavern.act_as("alice")
    tavern.click("Start")
    tavern.wait_text("it's your turn in The Nine Sons")

    first = re.findall(r"@(alice|bob), it's your turn", tavern.latest_ping())[-1]  # the ping says who begins
    place_a_die(tavern, first)
    if first == "bob":
        place_a_die(tavern, "alice")
    # bob sees the new board picture and his turn ping
    tavern.act_as("bob")
    tavern.wait_text("@bob, it's your turn in The Nine Sons")
    board_image = tavern.page.get_by_role("button", name="Open Embed 1 image in image preview").last
    for _ in range(2):  # a picture replaced while the page fetched it stays "unavailable" on the page
        if tavern.page.get_by_text("Embed 1 image unavailable").count() == 0:  # (the Preview's): reload it
            break
        tavern.page.reload()
        tavern.page.locator("#channel-composer-input").wait_for(timeout=STEP_MS)
        tavern.act_as("bob")
    expect(board_image).to_be_visible(timeout=STEP_MS)
    assert (board_image.bounding_box() or {}).get("width", 0) > 100
    tavern.shot("ninesons")

    # Flagon: alice against an AI seat; setup in public, then a plan in her private prompt
    tavern.act_as("alice")
    tavern.slash("/game cancel")
    tavern.wait_text("was cancelled")
    tavern.slash("/game new", "flagon")
    tavern.wait_text("The Dragon & Flagon — lobby")
    assert tavern.choose("The Dragon & Flagon — lobby")[0].startswith("AI")
    tavern.wait_text("Seats (2/8)")
    tavern.click("Start")
    setup_step = tavern.page.get_by_role("button", name=re.compile(r"^(🎭|📍)"))
    for _ in range(6):  # two characters and their start squares, the AI choosing in between
        tavern.wait_text("it's your turn in The Dragon & Flagon")
        if setup_step.count() == 0:
            break
        setup_step.last.click(timeout=STEP_MS)
        tavern.wait_done()
        tavern.choose("— choose:")
    tavern.wait_text("plan your cards")  # the ping: setup is over
    tavern.click("🔒 Show my hand / plan")
    tavern.shot("flagon-prompt")
    assert tavern.choose("slot I: choose a card")  # a card for the first empty slot
    tavern.wait_text("You planned")
    tavern.shot("flagon")
    tavern.act_as("bob")  # the plan is alice's alone
    assert tavern.page.get_by_text("You planned").count() == 0
