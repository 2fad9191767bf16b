"""Request bodies to engine values, engine state to response bodies.

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


_CREATE_GAME = CreateGameSchema()


def load_create_game(body: dict) -> dict:
    """{"names": (n0, n1), "setup": {...}} from a validated POST /games body."""
    return _CREATE_GAME.load(body)


class PlacementField(fields.Field):
    """A placement object (either form, as the spec allows) -> engine Placement.

    A field rather than a nested schema: a second schema pass doubled the
    cost of loading a buy, and the spec validator has already checked every
    member, so this is conversion only (1.0 to 1, null to the default).
    """

    def _deserialize(self, value, attr, data, **kwargs) -> Placement:
        cells = value.get("cells")
        if cells is not None:
            return Placement(None, None, 0, False, tuple(sorted((int(r), int(c)) for r, c in cells)))
        return Placement(int(value["row"]), int(value["col"]), int(value.get("rotation") or 0),
                         bool(value.get("flipped")), None)


class BuySchema(_Loader):
    patch_id = fields.Integer(required=True)
    placement = PlacementField(required=True)

    @post_load
    def _to_move(self, data: dict, **_kwargs) -> Buy:
        return Buy(data["patch_id"], data["placement"])


class PlaceLeatherSchema(_Loader):
    row = fields.Integer(required=True)
    col = fields.Integer(required=True)

    @post_load
    def _to_move(self, data: dict, **_kwargs) -> PlaceLeather:
        return PlaceLeather(data["row"], data["col"])


_MOVE_LOADERS = {"buy": BuySchema(), "place_leather": PlaceLeatherSchema()}
_ADVANCE = Advance()


def load_move(body: dict):
    """The engine move for a validated move body (its schema chosen by `action`)."""
    loader = _MOVE_LOADERS.get(body["action"])
    return _ADVANCE if loader is None else loader.load(body)


# --- views -----------------------------------------------------------------

def placement_view(placement: Placement) -> dict:
    """Both forms of a canonical placement, as docs/api-guide.md#placements-and-orientation shows them."""
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


PATCH_SCHEMA = PatchSchema(many=True)


def _player_view(record: GameRecord, state: GameState, seat: int) -> dict:
    player = state.players[seat]
    return {
        "name": record.names[seat],
        "buttons": player.buttons,
        "position": player.position,
        "income": player.income,
        "empty_cells": player.empty_cells,
        "has_bonus": state.bonus_owner == seat,
        "score": state.score(seat),
        "quilt": state.quilt_grid(seat),
    }


def game_view(record: GameRecord, version: int) -> dict:
    """The public `Game` body (docs/api-guide.md#resources) of `record` at `version`, fields in the spec's order.

    Built as a plain dict rather than dumped through a marshmallow schema:
    it is made on every move, and a schema dump cost more than the rest of
    the move's Python work together.
    """
    state: GameState = record.state
    outcome = state.result
    return {
        "id": record.id,
        "version": version,
        "status": "finished" if outcome is not None else "active",
        "seed": state.seed,
        "time_board": state.time_board,
        "first_player": state.first_player,
        "turn": state.turn,
        "phase": state.phase,
        "circle": list(state.circle),
        "market": list(state.market),
        "track_length": TRACK_END,
        "income_spaces": list(INCOME_SPACES),
        "leather_spaces": list(state.leather_spaces),
        "bonus_owner": state.bonus_owner,
        "players": [_player_view(record, state, 0), _player_view(record, state, 1)],
        "moves_played": state.moves_played,
        "result": None if outcome is None else {"scores": list(outcome.scores), "winner": outcome.winner},
        "created_at": record.created_at,
        "updated_at": record.updated_at,
    }


def patches_view() -> dict:
    """GET /patches body."""
    return {"patches": PATCH_SCHEMA.dump([PATCHES[i] for i in sorted(PATCHES)])}
