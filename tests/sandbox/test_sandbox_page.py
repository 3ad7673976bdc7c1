"""The sandbox (``python bot.py --sandbox``) played in a real browser: headless Chromium drives
the Preview page the way a newcomer would, as alice and bob, against the sandbox's AI.

Needs Debian's ``chromium`` and Playwright from PyPI (with that browser: nothing downloads one).
Without them the test skips, saying what is missing; under ``CI=true`` it fails instead."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sandbox.driver import (
    STEP_MS,
    SandboxPage,
    browser_page,
    missing_browser,
    place_a_die,
    running_sandbox,
)

try:
    from playwright.sync_api import expect
except ImportError:  # the fixture skips (or fails under CI), saying so
    expect = None  # type: ignore[assignment]


@pytest.fixture
def tavern(tmp_path: Path) -> Iterator[SandboxPage]:
    reason = missing_browser()
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"the sandbox browser test must run under CI: {reason}")
        pytest.skip(reason)
    with running_sandbox(tmp_path) as url, browser_page(url, tmp_path, tmp_path / "screenshots") as page:
        yield page
    assert (tmp_path / "sandbox.sqlite3").exists()


def test_nine_sons_and_a_flagon_plan_in_the_browser(tavern: SandboxPage) -> None:
    try:
        play_in_the_browser(tavern)
    except BaseException:
        tavern.shot("at-failure")  # what the page showed, beside the others
        (tavern.shots / "at-failure.html").write_text(tavern.page.content())
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
