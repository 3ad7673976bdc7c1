"""The board pictures show exactly the pixels they showed before the drawing was made cheaper
(issue 25): for stored views of every game, the PNG decodes to the same pixels as the PNG the
renderer of main (18a3b9d) drew from the same view, compared as a SHA-256 of the decoded RGB.

The views are stored (tests/engine/render_pixels.json), not replayed from the AIs, so a change of
an AI or a rule does not change what is compared. After a deliberate change of a picture, write
the digests again from the new renderer and say so in the commit:

    python -m tests.engine.test_render_pixels --write
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from cogs.plugins import load_plugins
from render import png, render_png
from render.farkle import picture as farkle_picture

load_plugins(ui=False)

FIXTURE = Path(__file__).with_name("render_pixels.json")
WIDE = "W" * 32  # the widest name Discord allows


def pixels_digest(png: bytes) -> str:
    """SHA-256 of what a viewer sees: the decoded picture as RGB, with its size."""
    image = Image.open(io.BytesIO(png))
    rgb = image.convert("RGB")
    return hashlib.sha256(f"{rgb.size}".encode() + rgb.tobytes()).hexdigest()


def _positions() -> list[dict[str, Any]]:
    """Boards of every game: positions of seeded AI games (the bench's), some with the widest
    names, and Farkle's battle and end boards."""
    from bench.render_cpu import GAMES, sample_views

    out: list[dict[str, Any]] = []
    for kind in GAMES:
        sampled = sample_views(kind, 240, every=5)
        picked = sampled[:: len(sampled) // 10][:10]
        for i, (view, names) in enumerate(picked):
            out.append({"kind": kind, "view": view, "names": names})
            if i % 4 == 0:
                out.append({"kind": kind, "view": view, "names": dict.fromkeys(names, WIDE)})
    for battle, face in ((True, "dragon"), (False, "rally"), (True, None)):
        view = farkle_picture._sample_view(4, battle, face or "")
        out.append({"kind": "farkle", "view": view, "names": {p: f"player {p}" for p in view["players"]}})
    return out


def _cases() -> list[dict[str, Any]]:
    if not FIXTURE.exists():  # being written (--write)
        return []
    return json.loads(FIXTURE.read_text())["cases"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"{c['kind']}")
def test_picture_pixels_unchanged(case: dict[str, Any]) -> None:
    png = render_png(case["kind"], case["view"], case["names"])
    assert png is not None
    assert pixels_digest(png) == case["rgb_sha256"]


def test_stdlib_zlib_writes_the_same_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without isal installed, the PNG is deflated by the stdlib's zlib: same pixels."""
    monkeypatch.setattr(png, "_deflate", lambda data: zlib.compress(data, 1))
    for case in _cases()[::7]:
        drawn = render_png(case["kind"], case["view"], case["names"])
        assert drawn is not None
        assert pixels_digest(drawn) == case["rgb_sha256"]


def test_every_game_is_compared() -> None:
    kinds = [c["kind"] for c in _cases()]
    assert {k: kinds.count(k) >= 10 for k in ("farkle", "ninesons", "flagon")} == {
        "farkle": True,
        "ninesons": True,
        "flagon": True,
    }


def _write() -> None:
    cases = []
    for case in _positions():
        png = render_png(case["kind"], case["view"], case["names"])
        assert png is not None
        cases.append({**case, "rgb_sha256": pixels_digest(png)})
    FIXTURE.write_text(json.dumps({"cases": cases}, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{len(cases)} pictures -> {FIXTURE}")


if __name__ == "__main__" and "--write" in sys.argv:
    _write()
