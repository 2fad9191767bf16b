"""marshmallow schemas: validated request bodies to engine values, engine state to bodies.

Requests reach these only after the spec validator accepted them, so loading
is conversion (1.0 to 1, null to the default), not a second validation. The
engine's state, the stored record and the public view stay separate: the view
is built here and nowhere else.
"""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, post_load

from service.engine import (
    INCOME_SPACES,
    PATCHES,
    TRACK_END,
    Advance,
    Buy,
    GameState,
    PlaceLeather,
    Placement,
)

from .records import DEFAULT_NAMES, GameRecord


class _Loader(Schema):
    class Meta:
        # The spec validator has already refused unknown fields with a pointer.
        unknown = EXCLUDE


class PlayerNameSchema(_Loader):
    name = fields.String(required=True)


class CreateGameSchema(_Loader):
    """POST /games body -> keyword arguments for `new_game` plus player names."""

    players = fields.List(fields.Nested(PlayerNameSchema), allow_none=True)
    seed = fields.Integer(allow_none=True)
    patch_order = fields.List(fields.Integer(), allow_none=True)
    first_player = fields.Integer(allow_none=True)
    time_board = fields.String(allow_none=True)

    @post_load
    def _to_setup(self, data: dict, **_kwargs) -> dict:
        players = data.get("players")
        names = tuple(p["name"] for p in players) if players else DEFAULT_NAMES
        setup = {
            "seed": data.get("seed"),
            "patch_order": data.get("patch_order"),
            "first_player": data.get("first_player") or 0,
            "time_board": data.get("time_board") or "revised",
        }
        return {"names": names, "setup": setup}


class PlacementSchema(_Loader):
    row = fields.Integer(allow_none=True)
    col = fields.Integer(allow_none=True)
    rotation = fields.Integer(allow_none=True)
    flipped = fields.Boolean(allow_none=True)
    cells = fields.List(fields.List(fields.Integer()), allow_none=True)

    @post_load
    def _to_placement(self, data: dict, **_kwargs) -> Placement:
        cells = data.get("cells")
        if cells is not None:
            return Placement(None, None, 0, False, tuple(sorted((r, c) for r, c in cells)))
        return Placement(data["row"], data["col"], data.get("rotation") or 0,
                         bool(data.get("flipped")), None)


class BuySchema(_Loader):
    patch_id = fields.Integer(required=True)
    placement = fields.Nested(PlacementSchema, required=True)

    @post_load
    def _to_move(self, data: dict, **_kwargs) -> Buy:
        return Buy(data["patch_id"], data["placement"])


class PlaceLeatherSchema(_Loader):
    row = fields.Integer(required=True)
    col = fields.Integer(required=True)

    @post_load
    def _to_move(self, data: dict, **_kwargs) -> PlaceLeather:
        return PlaceLeather(data["row"], data["col"])


_CREATE_GAME = CreateGameSchema()
_MOVE_LOADERS = {"buy": BuySchema(), "place_leather": PlaceLeatherSchema()}


def load_create_game(body: dict) -> dict:
    """{"names": (n0, n1), "setup": {...}} from a validated POST /games body."""
    return _CREATE_GAME.load(body)


def load_move(body: dict):
    """The engine move for a validated move body."""
    loader = _MOVE_LOADERS.get(body["action"])
    return Advance() if loader is None else loader.load(body)


# --- views -----------------------------------------------------------------

def placement_view(placement: Placement) -> dict:
    """Both forms of a canonical placement, as API.md shows them."""
    return {
        "row": placement.row,
        "col": placement.col,
        "rotation": placement.rotation,
        "flipped": placement.flipped,
        "cells": [list(cell) for cell in placement.cells],
    }


def move_body(move) -> dict:
    """The request-body form of an engine move (canonical placement for buys)."""
    if isinstance(move, Buy):
        return {"action": "buy", "patch_id": move.patch_id, "placement": placement_view(move.placement)}
    if isinstance(move, PlaceLeather):
        return {"action": "place_leather", "row": move.row, "col": move.col}
    return {"action": "advance"}


class PatchSchema(Schema):
    id = fields.Integer()
    cost = fields.Integer()
    time = fields.Integer()
    income = fields.Integer()
    shape = fields.List(fields.String())
    cells = fields.Integer()


class PlayerSchema(Schema):
    name = fields.String()
    buttons = fields.Integer()
    position = fields.Integer()
    income = fields.Integer()
    empty_cells = fields.Integer()
    has_bonus = fields.Boolean()
    score = fields.Integer()
    # 81 plain ints or nulls: Raw avoids a field call per cell on the move path.
    quilt = fields.Raw()


class ResultSchema(Schema):
    scores = fields.List(fields.Integer())
    winner = fields.Integer()


class GameSchema(Schema):
    """The public `Game` body (API.md), dumped from a `GameView`."""

    id = fields.String()
    version = fields.Integer()
    status = fields.String()
    seed = fields.Integer(allow_none=True)
    time_board = fields.String()
    first_player = fields.Integer()
    turn = fields.Integer(allow_none=True)
    phase = fields.String(allow_none=True)
    circle = fields.List(fields.Integer())
    market = fields.List(fields.Integer())
    track_length = fields.Integer()
    income_spaces = fields.List(fields.Integer())
    leather_spaces = fields.List(fields.Integer())
    bonus_owner = fields.Integer(allow_none=True)
    players = fields.List(fields.Nested(PlayerSchema))
    moves_played = fields.Integer()
    result = fields.Nested(ResultSchema, allow_none=True)
    created_at = fields.String()
    updated_at = fields.String()


class GameView:
    """The attributes GameSchema reads, computed from a record at a version."""

    def __init__(self, record: GameRecord, version: int):
        state: GameState = record.state
        self.id = record.id
        self.version = version
        self.status = "finished" if state.finished else "active"
        self.seed = state.seed
        self.time_board = state.time_board
        self.first_player = state.first_player
        self.turn = state.turn
        self.phase = state.phase
        self.circle = state.circle
        self.market = state.market
        self.track_length = TRACK_END
        self.income_spaces = INCOME_SPACES
        self.leather_spaces = state.leather_spaces
        self.bonus_owner = state.bonus_owner
        self.players = [
            {
                "name": record.names[seat],
                "buttons": player.buttons,
                "position": player.position,
                "income": player.income,
                "empty_cells": player.empty_cells,
                "has_bonus": state.bonus_owner == seat,
                "score": state.score(seat),
                "quilt": state.quilt_grid(seat),
            }
            for seat, player in enumerate(state.players)
        ]
        self.moves_played = state.moves_played
        outcome = state.result
        self.result = None if outcome is None else {"scores": list(outcome.scores), "winner": outcome.winner}
        self.created_at = record.created_at
        self.updated_at = record.updated_at


GAME_SCHEMA = GameSchema()
PATCH_SCHEMA = PatchSchema(many=True)


def game_view(record: GameRecord, version: int) -> dict:
    """The public Game body of `record` at `version`."""
    return GAME_SCHEMA.dump(GameView(record, version))


def patches_view() -> dict:
    """GET /patches body."""
    return {"patches": PATCH_SCHEMA.dump([PATCHES[i] for i in sorted(PATCHES)])}
