"""Request bodies to the core's values (marshmallow for a game's setup), and the patch catalogue out.

Requests reach these only after the spec validator accepted them, so loading
is conversion (1.0 to 1, null to the default), not a second validation, but
for the one rule the spec cannot state: a placement given in both forms must
name the same cells in each. A move's JSON form is the engine's own
(service/engine/moves.py), read by `move_from_json`; the game's own view is
the game-play core's (service/games/views.py): it is stored with every commit.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from marshmallow import EXCLUDE, Schema, fields, post_load

from service.engine import (
    PATCHES,
    Buy,
    Move,
    Placement,
    describe_placement,
    move_from_json,
    orientation_cells,
)
from service.games import DEFAULT_NAMES, NO_BOTS
from service.games.clock import ClockSettings
from service.languages import Text

from .problems import invalid_request


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
            "setup": setup,
        }


_CREATE_GAME = CreateGameSchema()


def load_create_game(body: dict) -> dict:
    """{"names": (n0, n1), "bots": (level or None, ...), "setup": {...}} from a validated POST /games body."""
    return _CREATE_GAME.load(body)


def load_move(body: dict) -> Move:
    """The engine move for a validated move body: its JSON form, read by the engine.

    Not a marshmallow schema: the form is the engine's (Move.to_json and
    move_from_json) and the spec validator has checked every member, so only
    the one rule the spec cannot state is left to check here.
    """
    move = move_from_json(body)
    if isinstance(move, Buy) and move.placement.has_orientation and move.placement.cells is not None:
        _check_same_cells(move.patch_id, move.placement)
    return move


def _check_same_cells(patch_id: int, placement: Placement) -> None:
    """400 unless both forms of `placement` name the same cells: as a set, each once, in any order.

    So an entry of /legal-moves or a hint, which show both forms, can be sent
    back as it came, and a client whose two forms disagree hears which cells
    its orientation names instead of having one form silently win.
    """
    covered = orientation_cells(patch_id, placement)
    assert placement.cells is not None  # the caller's condition
    if placement.cells == covered:  # both sorted row-major
        return
    given = placement.cells
    values = {
        "patch": patch_id,
        "placement": describe_placement(placement),
        "covered": _cells_text(covered),
        "given": _cells_text(given),
    }
    if len(set(given)) < len(given):
        message = Text(
            "patch {patch} at {placement} covers {covered}, not {given} (a cell named twice)", values
        )
    else:
        message = Text("patch {patch} at {placement} covers {covered}, not {given}", values)
    raise invalid_request(
        Text(
            "The placement gives both forms and they name different cells: "
            "send the cells its orientation covers, or one form alone."
        ),
        [{"pointer": "/placement/cells", "message": message}],
    )


def _cells_text(cells: Iterable[tuple[int, int]]) -> str:
    return json.dumps([list(cell) for cell in cells])


class PatchSchema(Schema):
    id = fields.Integer()
    cost = fields.Integer()
    time = fields.Integer()
    income = fields.Integer()
    shape = fields.List(fields.String())
    cells = fields.Integer()


PATCH_SCHEMA = PatchSchema(many=True)


def patches_view() -> dict:
    """GET /patches body."""
    return {"patches": PATCH_SCHEMA.dump([PATCHES[i] for i in sorted(PATCHES)])}
