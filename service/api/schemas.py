"""Request bodies to the core's values: marshmallow's one job in the service, for every body but a move's.

Requests reach these only after the spec validator accepted them, so loading
is conversion (1.0 to 1, null to the default), not a second validation (a
placement whose two forms name different cells is a wrong move, which the
engine refuses with `422`). A move's JSON form is the engine's own
(service/engine/moves.py), read by `move_from_json`. Nothing goes out through
marshmallow: the game's own view is the game-play core's plain dict
(service/games/views.py, stored with every commit), and so is the patch
catalogue's here.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import datetime

from marshmallow import EXCLUDE, Schema, fields, post_load

from service.engine import (
    PATCHES,
    Move,
    move_from_json,
)
from service.games import DEFAULT_NAMES, NO_BOTS
from service.games.clock import ClockSettings
from service.site.tournaments import DEFAULT_PAUSE_S, TournamentRequest


class _Loader(Schema):
    class Meta:
        # The spec validator has already refused unknown fields with a pointer.
        unknown = EXCLUDE


class PlayerSetupSchema(_Loader):
    name = fields.String()
    bot = fields.String(allow_none=True)
    open = fields.Boolean(allow_none=True)


class CreateGameSchema(_Loader):
    """POST /games body -> keyword arguments for `new_game` plus player names."""

    players = fields.List(fields.Nested(PlayerSetupSchema), allow_none=True)
    seed = fields.Integer(allow_none=True)
    patch_order = fields.List(fields.Integer(), allow_none=True)
    first_player = fields.Integer(allow_none=True)
    time_board = fields.String(allow_none=True)
    clock = fields.Dict(allow_none=True)
    listed = fields.Boolean(allow_none=True)
    rated = fields.Boolean(allow_none=True)

    @post_load
    def _to_setup(self, data: dict, **_kwargs) -> dict:
        players = data.get("players")
        # An open seat (or the creator's, named by its player) may come without a name: the default's.
        names = (
            tuple(p.get("name") or DEFAULT_NAMES[seat] for seat, p in enumerate(players))
            if players
            else DEFAULT_NAMES
        )
        open_seats = tuple(bool(p.get("open")) for p in players) if players else (False, False)
        # Levels are checked by the spec's enum, which tests/api/test_bot_games.py holds to LEVELS.
        bots = tuple(p.get("bot") for p in players) if players else NO_BOTS
        setup = {
            "seed": data.get("seed"),
            "patch_order": data.get("patch_order"),
            "first_player": data.get("first_player") or 0,
            "time_board": data.get("time_board") or "revised",
        }
        clock = data.get("clock")
        listed = data.get("listed")
        return {
            "names": names,
            "bots": bots,
            "clock": None if clock is None else ClockSettings.from_json(clock),
            "open_seats": open_seats,
            "listed": True if listed is None else listed,
            "rated": bool(data.get("rated")),
            "setup": setup,
        }


_CREATE_GAME = CreateGameSchema()


def load_create_game(body: dict) -> dict:
    """{"names": (n0, n1), "bots": (level or None, ...), "setup": {...}} from a validated POST /games body."""
    return _CREATE_GAME.load(body)


class _NameSchema(_Loader):
    """POST /games/{id}/seat: a name, required."""

    name = fields.String(required=True)

    @post_load
    def _to_name(self, data: dict, **_kwargs) -> str:
        return data["name"]


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """POST /players: the name, and whether the player is a bot account."""

    name: str
    bot: bool


class _NewPlayerSchema(_Loader):
    name = fields.String(required=True)
    bot = fields.Boolean(allow_none=True)

    @post_load
    def _to_player(self, data: dict, **_kwargs) -> NewPlayer:
        return NewPlayer(data["name"], bool(data.get("bot")))


class _JoinSchema(_Loader):
    """POST /games/{id}/join: the joiner's name, if it gives one."""

    name = fields.String(allow_none=True)

    @post_load
    def _to_name(self, data: dict, **_kwargs) -> str | None:
        return data.get("name")


@dataclass(frozen=True, slots=True)
class SeekRequest:
    """POST /seeks: the time control wanted, whether rated, and the rating range (None: the default)."""

    clock: ClockSettings
    rated: bool
    rating_range: int | None


class _SeekSchema(_Loader):
    clock = fields.Dict(required=True)
    rated = fields.Boolean(allow_none=True)
    range = fields.Integer(allow_none=True)

    @post_load
    def _to_request(self, data: dict, **_kwargs) -> SeekRequest:
        return SeekRequest(ClockSettings.from_json(data["clock"]), bool(data.get("rated")), data.get("range"))


@dataclass(frozen=True, slots=True)
class ChallengeRequest:
    """POST /challenges: whom (None: open), the clock (None: none), whether rated, the challenger's seat (None: drawn)."""

    to: str | None
    clock: ClockSettings | None
    rated: bool
    seat: int | None


class _ChallengeSchema(_Loader):
    to = fields.String(allow_none=True)
    clock = fields.Dict(allow_none=True)
    rated = fields.Boolean(allow_none=True)
    seat = fields.Integer(allow_none=True)

    @post_load
    def _to_request(self, data: dict, **_kwargs) -> ChallengeRequest:
        clock = data.get("clock")
        return ChallengeRequest(
            data.get("to"),
            None if clock is None else ClockSettings.from_json(clock),
            bool(data.get("rated")),
            data.get("seat"),
        )


class _DeclineSchema(_Loader):
    reason = fields.String(allow_none=True)

    @post_load
    def _to_reason(self, data: dict, **_kwargs) -> str:
        return data.get("reason") or "generic"


def _epoch_ms(moment: datetime) -> int:
    """An aware time as epoch milliseconds, a part of a millisecond dropped (as the service shows times)."""
    return calendar.timegm(moment.utctimetuple()) * 1000 + moment.microsecond // 1000


class _TournamentSchema(_Loader):
    name = fields.String(required=True)
    system = fields.String(required=True)
    rounds = fields.Integer(allow_none=True)
    double = fields.Boolean(allow_none=True)
    clock = fields.Dict(required=True)
    rated = fields.Boolean(allow_none=True)
    starts_at = fields.AwareDateTime(required=True)
    max_players = fields.Integer(required=True)
    min_rating = fields.Integer(allow_none=True)
    max_rating = fields.Integer(allow_none=True)
    pause_s = fields.Integer(allow_none=True)
    listed = fields.Boolean(allow_none=True)

    @post_load
    def _to_request(self, data: dict, **_kwargs) -> TournamentRequest:
        pause_s = data.get("pause_s")
        listed = data.get("listed")
        return TournamentRequest(
            name=data["name"],
            system=data["system"],
            rounds=data.get("rounds"),
            double=bool(data.get("double")),
            clock=ClockSettings.from_json(data["clock"]),
            rated=bool(data.get("rated")),
            starts_ms=_epoch_ms(data["starts_at"]),
            max_players=data["max_players"],
            min_rating=data.get("min_rating"),
            max_rating=data.get("max_rating"),
            pause_s=DEFAULT_PAUSE_S if pause_s is None else pause_s,
            listed=True if listed is None else listed,
        )


_NAME = _NameSchema()
_NEW_PLAYER = _NewPlayerSchema()
_JOIN = _JoinSchema()
_SEEK = _SeekSchema()
_CHALLENGE = _ChallengeSchema()
_DECLINE = _DeclineSchema()
_TOURNAMENT = _TournamentSchema()


def load_name(body: dict) -> str:
    """The name of a validated POST /games/{id}/seat body."""
    return _NAME.load(body)


def load_new_player(body: dict) -> NewPlayer:
    """The player a validated POST /players body asks for."""
    return _NEW_PLAYER.load(body)


def load_join(body: dict) -> str | None:
    """The joiner's name (None: none given) of a validated POST /games/{id}/join body."""
    return _JOIN.load(body)


def load_seek(body: dict) -> SeekRequest:
    """The seek a validated POST /seeks body asks for."""
    return _SEEK.load(body)


def load_challenge(body: dict) -> ChallengeRequest:
    """The challenge a validated POST /challenges body asks for."""
    return _CHALLENGE.load(body)


def load_decline(body: dict) -> str:
    """The reason of a validated POST /challenges/{id}/decline body (default `generic`)."""
    return _DECLINE.load(body)


def load_tournament(body: dict) -> TournamentRequest:
    """The tournament a validated POST /tournaments body asks for (its fields not yet judged together)."""
    return _TOURNAMENT.load(body)


def load_move(body: dict) -> Move:
    """The engine move for a validated move body: its JSON form, read by the engine.

    Not a marshmallow schema: the form is the engine's (Move.to_json and
    move_from_json) and the spec validator has checked every member. A
    placement whose two forms name different cells is the engine's to refuse
    (`422 does_not_fit`), as a move that is wrong for the game.
    """
    return move_from_json(body)


def patches_view() -> dict:
    """GET /patches body: every patch, by id."""
    return {
        "patches": [
            {
                "id": patch.id,
                "cost": patch.cost,
                "time": patch.time,
                "income": patch.income,
                "shape": list(patch.shape),
                "cells": patch.cells,
            }
            for patch in (PATCHES[i] for i in sorted(PATCHES))
        ]
    }
