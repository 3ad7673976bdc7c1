"""CPU per move of the engine and the UI hooks the bot calls for it, without Discord or a database.

    python -m bench.move_cpu                    # 6 seeded games per kind
    python -m bench.move_cpu --games 2 --only farkle
    python -m bench.move_cpu --json after.json --before before.json   # a before/after table
    python -m bench.move_cpu --repeat 3         # the least of 3 runs per kind
    python -m bench.move_cpu --profile /tmp/move.prof                  # cProfile of the whole run

Every seat is a random player (no AI: an AI's search would swamp the rest): a seeded choice of
a seat among those to act and of one of its legal actions. For each move the bench does what
the bot does for a click, in the order it does it, and times each part (``time.process_time``):

- **load**: the game of the saved version. The bot copies the game it kept when it saved
  (sessions.live, only for games whose class overrides ``Game.copy``), else restores it from
  the saved JSON (``from_dict(orjson.loads(...))``).
- **play**: ``to_act``, ``is_private_action`` and ``play``, then the save: ``to_dict`` and the
  JSON text (storage.records.encode_json).
- **view**: ``game.view(None)`` (the board's text and picture read it).
- **board**: the board's controls (cogs.board_controls.board_controls: the buttons or the game's
  move menu and its own rows) and the turn ping's question (the UI's ``ask``).
- **private**: for a game with secrets, each seat's prompt key (cogs.prompts.prompt_key: the
  seat's view against the public one, the move's one public view where prompt_key takes it)
  and, when it changed, its private message (the UI's
  ``private_message``), as cogs.seat_messages decides whether to edit a DM.

Run it from a tree's root to measure that tree (``git archive main | tar -x -C /tmp/before``,
copy this file into it, run it there with ``--json before.json``).
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from engine import Game  # noqa: E402

KINDS = {"ninesons": 2, "farkle": 3, "flagon": 4}  # players per game
PARTS = ("load", "play", "view", "board", "private")
MAX_MOVES = 1500  # a safety net for a random game that would not end


def new_game(kind: str, players: list[str], seed: int) -> Game:
    from engine import registry

    return registry.get(kind).new_game(players, seed)


def record(kind: str, game_id: int, players: list[str], seed: int) -> Any:
    from storage import GameRecord, SeatRecord

    seats = [
        SeatRecord(
            seat=p, position=i, user_id=1000 + i, ai_level=None, display_name=f"player {i} of {game_id}"
        )
        for i, p in enumerate(players)
    ]
    return GameRecord(
        id=game_id,
        kind=kind,
        guild_id=1,
        channel_id=2,
        host_user_id=1000,
        status="active",
        options={},
        seed=seed,
        state=None,
        version=1,
        board_message_id=3,
        result=None,
        created_at=0.0,
        updated_at=0.0,
        seats=seats,
    )


def play_games(kind: str, games: int) -> dict[str, Any]:
    from dataclasses import replace

    from cogs.presenter import MenuCache, board_controls
    from cogs.prompts import prompt_key
    from cogs.ui import ui_for
    from render import text

    ui = ui_for(kind)
    key_of: Any = prompt_key  # its signature differs between trees
    keys_take_public = "public" in inspect.signature(prompt_key).parameters
    spent = dict.fromkeys(PARTS, 0.0)
    moves = 0
    for seed in range(games):
        players = [f"p{i}" for i in range(1, KINDS[kind] + 1)]
        rec = record(kind, 100 + seed, players, seed)
        names = text.seat_names(rec.seats, "plain")
        menus = MenuCache()
        chooser = random.Random(seed)
        kept = new_game(kind, players, seed)
        saved = orjson.dumps(kept.to_dict())
        keys: dict[str, str] = {}
        hidden = type(kept).HIDDEN_INFORMATION
        played = 0
        while not kept.is_over and played < MAX_MOVES:
            t0 = time.process_time()
            fast_copy = type(kept).copy is not Game.copy
            game = kept.copy() if fast_copy else type(kept).from_dict(orjson.loads(saved))
            t1 = time.process_time()
            seat = chooser.choice(sorted(game.to_act()))
            action = chooser.choice(game.legal_actions(seat))
            game.is_private_action(seat, action)
            events = game.play(seat, action)
            saved = orjson.dumps(game.to_dict(), option=orjson.OPT_NON_STR_KEYS)
            t2 = time.process_time()
            rec = replace(rec, version=rec.version + 1)
            public = game.view(None)
            t3 = time.process_time()
            if not game.is_over:
                to_act = game.to_act()
                board_controls(rec, game, to_act, names, menus)
                for p in to_act:
                    ui.ask(game, p)
            t4 = time.process_time()
            if hidden:
                for p in players:
                    # a delivery keys every seat against its one public view (where prompt_key takes it)
                    key = key_of(game, p, public) if keys_take_public else key_of(game, p)
                    own = [e for e in events if e.to == p]
                    if key != keys.get(p) or own:
                        keys[p] = key
                        ui.private_message(rec, game, p, own, page=0)
            t5 = time.process_time()
            for part, dt in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
                spent[part] += dt
            moves += 1
            played += 1
            kept = game
    total = sum(spent.values())
    return {
        "kind": kind,
        "games": games,
        "moves": moves,
        "us_per_move": round(total / moves * 1e6, 1),
        **{f"{part}_us": round(spent[part] / moves * 1e6, 1) for part in PARTS},
    }


def table(rows: list[dict[str, Any]], before: dict[str, dict[str, Any]]) -> str:
    head = f"{'kind':<9} {'games':>5} {'moves':>6} " + " ".join(f"{p:>8}" for p in PARTS) + f" {'µs/move':>8}"
    if before:
        head += f" {'before':>8} {'ratio':>6}"
    lines = [head]
    for r in rows:
        line = (
            f"{r['kind']:<9} {r['games']:>5} {r['moves']:>6} "
            + " ".join(f"{r[f'{p}_us']:>8.0f}" for p in PARTS)
            + f" {r['us_per_move']:>8.0f}"
        )
        b = before.get(r["kind"])
        if b:
            line += f" {b['us_per_move']:>8.0f} {b['us_per_move'] / r['us_per_move']:>5.1f}x"
        lines.append(line)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games per kind")
    parser.add_argument("--only", nargs="*", choices=list(KINDS))
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per kind; the least CPU is kept (a shared machine)"
    )
    parser.add_argument("--json", type=Path, help="write the rows here")
    parser.add_argument("--before", type=Path, help="rows of another tree (--json) to compare with")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the run here")
    args = parser.parse_args(argv)
    from cogs.plugins import load_plugins

    load_plugins()
    kinds = args.only or list(KINDS)
    for kind in kinds:  # warm: card files, caches filled once per process in the bot
        play_games(kind, 1)
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    rows = [
        min((play_games(kind, args.games) for _ in range(args.repeat)), key=lambda r: r["us_per_move"])
        for kind in kinds
    ]
    if profiler:
        profiler.disable()
        profiler.dump_stats(args.profile)
    before = {r["kind"]: r for r in json.loads(args.before.read_text())} if args.before else {}
    print("CPU µs per move (time.process_time), by part:")
    print(table(rows, before))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return rows


if __name__ == "__main__":
    main()
