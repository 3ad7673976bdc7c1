"""The shape of a Dragon Farkle state (``FarkleGame.s``): one JSON-safe dict, typed here.

Player-keyed maps are keyed by player id; cards are named by card id. ``to_dict`` adds ``rng``
(the Rng's state); the live state never holds it.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class TurnState(TypedDict):
    """The fields every turn starts afresh (engine.farkle.core.turn_fields)."""

    brawl_gained: dict[str, list[str]]  # items gained in this turn's Brawl
    phase: str  # a name in engine.farkle.phases.PHASES
    action: str | None  # this turn's choice: "recruit", "brawl", "battle"
    actor: str  # who rolls (the defender while defending) or chooses
    defender: str | None  # the Brawl defender
    battle_ok: bool  # the current player may attack the dragon (army checked at turn start)
    roll: list[int] | None  # soldier dice on the table, sorted
    event: str | None  # the Event die's face
    pool: int  # dice left to roll; 0 after hot dice (refilled to ``full``)
    full: int  # dice rolled after hot dice
    set_aside: list[int]
    total: int  # soldiers gained this turn (Recruit) or this attack / defence (Brawl)
    last_value: int  # value of the last kept selection (Rally doubles it)
    attack_score: int | None  # the Brawl attacker's score, once done
    attack_full: int  # dice the Brawl attacker rolls
    damage: int  # Final Battle damage dealt this turn
    no_loss: bool  # this Final Battle roll costs no soldiers
    comp_uses: dict[str, int]  # active Companion uses this turn
    shield_used: bool  # the block_dragon Companion has acted this turn
    scout_used: bool  # the ignore_battle_farkle Companion has acted this turn
    claimer: str | None  # the Brawl winner choosing an item (phase "claim")


class FarkleState(TurnState):
    version: int
    players: list[str]  # seat order
    options: dict[str, Any]  # resolved lobby options (rules.OPTIONS)
    custom_cards: dict[str, Any] | None  # CardSet.to_dict() of another card set; None = house cards
    armies: dict[str, int]
    companions: dict[str, str]  # each player's face-up Companion
    hands: dict[str, list[str]]  # Magic Items held (secret)
    stuck: dict[str, list[str]]  # items given to a player that they cannot use
    pending: dict[str, list[str]]  # items gained this turn, lost on a Farkle
    item_deck: list[str]
    item_discard: list[str]
    companion_deck: list[str]
    companion_discard: list[str]
    turn: int  # seat index of the current player
    first: int  # seat index of the first player (a round ends when play returns to it)
    round: int
    discarding: list[str]  # players above the item limit (phase "discard")
    winner: str | None
    end_reason: str | None
    turn_number: int
    rng: NotRequired[int]  # only in to_dict's output
