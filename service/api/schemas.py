"""marshmallow schemas: request bodies to engine values, and the patch catalogue out.

Requests reach these only after the spec validator accepted them, so loading
is conversion (1.0 to 1, null to the default), not a second validation, but
for the one rule the spec cannot state: a placement given in both forms must
name the same cells in each. The game's own view is the game-play core's
(service/games/views.py): it is stored with every commit.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from marshmallow import EXCLUDE, Schema, fields, post_load

from service.engine import (
    PATCHES,
    Advance,
    Buy,
    PlaceLeather,
    Placement,
    describe_placement,
    orientation_cells,
)
from service.games import DEFAULT_NAMES, NO_BOTS

from .problems import invalid_request


class _Loader(Schema):
    class Meta:
        # The spec validator has already refused unknown fields with a pointer.
        unknown = EXCLUDE


class PlayerSetupSchema(_Loader):
    name = fields.String(required=True)
    bot = fields.String(allow_none=True)


class CreateGameSchema(_Loader):
    """POST /games body -> keyword arguments for `new_game` plus player names."""

    players = fields.List(fields.Nested(PlayerSetupSchema), allow_none=True)
    seed = fields.Integer(allow_none=True)
    patch_order = fields.List(fields.Integer(), allow_none=True)
    first_player = fields.Integer(allow_none=True)
    time_board = fields.String(allow_none=True)

    @post_load
    def _to_setup(self, data: dict, **_kwargs) -> dict:
        players = data.get("players")
        names = tuple(p["name"] for p in players) if players else DEFAULT_NAMES
        # Levels are checked by the spec's enum, which tests/api/test_bot_games.py holds to LEVELS.
        bots = tuple(p.get("bot") for p in players) if players else NO_BOTS
        setup = {
            "seed": data.get("seed"),
            "patch_order": data.get("patch_order"),
            "first_player": data.get("first_player") or 0,
            "time_board": data.get("time_board") or "revised",
        }
        return {"names": names, "bots": bots, "setup": setup}


_CREATE_GAME = CreateGameSchema()


def load_create_game(body: dict) -> dict:
    """{"names": (n0, n1), "bots": (level or None, ...), "setup": {...}} from a validated POST /games body."""
    return _CREATE_GAME.load(body)


class PlacementField(fields.Field):
    """A placement object (an orientation, its cells, or both, as the spec allows) -> engine Placement.

    A field rather than a nested schema: a second schema pass doubled the
    cost of loading a buy, and the spec validator has already checked every
    member, so this is conversion only (1.0 to 1, null to the default).
    """

    def _deserialize(self, value, attr, data, **kwargs) -> Placement:
        given = value.get("cells")
        cells = None if given is None else tuple((int(r), int(c)) for r, c in given)
        if value.get("row") is None:
            # The spec lets the cells come alone, never row or col without the other.
            return Placement(None, None, 0, False, cells)
        return Placement(
            int(value["row"]),
            int(value["col"]),
            int(value.get("rotation") or 0),
            bool(value.get("flipped")),
            cells,
        )


class BuySchema(_Loader):
    patch_id = fields.Integer(required=True)
    placement = PlacementField(required=True)

    @post_load
    def _to_move(self, data: dict, **_kwargs) -> Buy:
        placement = data["placement"]
        if placement.has_orientation and placement.cells is not None:
            _check_same_cells(data["patch_id"], placement)
        return Buy(data["patch_id"], placement)


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
    twice = " (a cell named twice)" if len(set(given)) < len(given) else ""
    raise invalid_request(
        "The placement gives both forms and they name different cells: "
        "send the cells its orientation covers, or one form alone.",
        [
            {
                "pointer": "/placement/cells",
                "message": f"patch {patch_id} at {describe_placement(placement)} covers "
                f"{_cells_text(covered)}, not {_cells_text(given)}{twice}",
            }
        ],
    )


def _cells_text(cells: Iterable[tuple[int, int]]) -> str:
    return json.dumps([list(cell) for cell in cells])


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
