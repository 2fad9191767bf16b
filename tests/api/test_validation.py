"""RequestValidator against hand-written requests: what the API accepts (docs/api-guide.md#strict-requests), what it refuses, and where it points; and the move loader's one check behind it (a placement's two forms agree)."""

from __future__ import annotations

import copy
import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.core import NOT_SET
from werkzeug.datastructures import Headers, MultiDict

from service.api.contract.faults import MAX_ERRORS
from service.api.contract.request_validator import RequestValidator
from service.api.contract.spec import load_spec
from service.api.schemas import load_move
from service.engine import BOARD_SIZE, PATCHES, Buy, Placement, orientation_cells, resolve_placement
from service.engine.errors import DoesNotFit
from service.engine.patches import ORIENTATION_ORDER

ORDER_1X2_LAST = [
    5,
    17,
    30,
    12,
    21,
    9,
    26,
    3,
    33,
    14,
    8,
    19,
    28,
    2,
    24,
    11,
    31,
    6,
    16,
    23,
    4,
    29,
    13,
    20,
    7,
    32,
    10,
    25,
    18,
    27,
    15,
    22,
    1,
]


class EnglishValidator:
    """RequestValidator with each fault's message in English (the validator gives catalogue Texts)."""

    def __init__(self, validator: RequestValidator):
        self._validator = validator

    def body_errors(self, operation_id, body):
        return english(self._validator.body_errors(operation_id, body))

    def query_errors(self, operation_id, args):
        values, errors = self._validator.query_errors(operation_id, args)
        return values, english(errors)

    def path_errors(self, operation_id, values):
        coerced, errors = self._validator.path_errors(operation_id, values)
        return coerced, english(errors)

    def header_errors(self, operation_id, headers):
        return english(self._validator.header_errors(operation_id, headers))


def english(errors: list[dict]) -> list[dict]:
    return [{**error, "message": str(error["message"])} for error in errors]


@pytest.fixture(scope="module")
def validator() -> EnglishValidator:
    return EnglishValidator(RequestValidator(load_spec()))


def buy(placement, patch_id=7):
    return {"action": "buy", "patch_id": patch_id, "placement": placement}


def faults(errors: list[dict]) -> list[tuple[str, str]]:
    return [(error["pointer"], error["message"]) for error in errors]


@pytest.mark.parametrize(
    "body",
    [
        {"action": "advance"},
        {"action": "place_leather", "row": 4, "col": 4},
        buy({"row": 0, "col": 0, "rotation": 90, "flipped": True}),
        buy({"row": 8, "col": 8}),  # rotation and flipped default
        buy({"row": 3, "col": 2, "rotation": None, "flipped": None}),  # null is the same as absent
        buy({"row": 3, "col": 2, "cells": None}),  # the other form's field, as null
        buy({"cells": [[0, 1], [1, 0], [1, 1], [2, 0]]}),
        buy({"cells": [[4, 4]], "row": None, "col": None, "rotation": None, "flipped": None}),
        # Both forms, as /legal-moves and hints show them (the loader checks they agree).
        buy(
            {
                "row": 0,
                "col": 0,
                "rotation": 90,
                "flipped": False,
                "cells": [[0, 1], [1, 1], [2, 0], [2, 1], [2, 2], [3, 1], [4, 1]],
            }
        ),
        buy({"row": 1, "col": 0, "cells": [[1, 0]]}),
        buy({"row": 4.0, "col": 0.0, "rotation": 180.0}, patch_id=7.0),  # 1.0 counts as 1
        buy({"cells": [[0.0, 8.0]]}, patch_id=33),
    ],
    ids=repr,
)
def test_move_bodies_api_md_accepts(validator, body):
    assert validator.body_errors("makeMove", body) == []


@pytest.mark.parametrize(
    "body, expected",
    [
        (buy({"row": 0, "col": 0, "rotaton": 90}), [("/placement/rotaton", "unknown field 'rotaton'")]),
        (buy({"row": 9, "col": 0}), [("/placement/row", "9 is greater than the maximum of 8")]),
        (buy({"row": 0, "col": -1}), [("/placement/col", "-1 is less than the minimum of 0")]),
        (buy({"row": 0, "col": 0}, patch_id="7"), [("/patch_id", "'7' is not of type 'integer'")]),
        (buy({"row": 0, "col": 0}, patch_id=7.5), [("/patch_id", "7.5 is not of type 'integer'")]),
        (buy({"row": 0, "col": 0}, patch_id=True), [("/patch_id", "true is not of type 'integer'")]),
        (buy({"row": 0, "col": 0}, patch_id=34), [("/patch_id", "34 is greater than the maximum of 33")]),
        (buy({"row": 0, "col": 0}, patch_id=0), [("/patch_id", "0 is less than the minimum of 1")]),
        (
            buy({"row": 0, "col": 0, "rotation": 45}),
            [("/placement/rotation", "45 is not one of 0, 90, 180, 270, null")],
        ),
        (
            buy({"row": 0, "col": 0, "flipped": "yes"}),
            [("/placement/flipped", "'yes' is not of type 'boolean' or 'null'")],
        ),
        (
            # The orientation form's fields beside the cells need row and col.
            buy({"rotation": 90, "cells": [[1, 0]]}),
            [
                ("/placement/row", "missing required field 'row'"),
                ("/placement/col", "missing required field 'col'"),
            ],
        ),
        (buy({"row": 1, "cells": [[1, 0]]}), [("/placement/col", "missing required field 'col'")]),
        (
            buy({"row": 1, "col": 0, "cells": [[1, 9]]}),
            [("/placement/cells/0/1", "9 is greater than the maximum of 8")],
        ),
        (buy({}), [("/placement", "give either 'row' and 'col', or 'cells'")]),
        (buy({"row": 3}), [("/placement/col", "missing required field 'col'")]),
        (buy(None), [("/placement", "null is not of type 'object'")]),
        (buy([3, 4]), [("/placement", "[3, 4] is not of type 'object'")]),
        (buy({"cells": [[1]]}), [("/placement/cells/0", "a cell is a [row, col] pair")]),
        (buy({"cells": [[1, 2, 3]]}), [("/placement/cells/0", "a cell is a [row, col] pair")]),
        (buy({"cells": [[1, 9]]}), [("/placement/cells/0/1", "9 is greater than the maximum of 8")]),
        (buy({"cells": []}), [("/placement/cells", "has 0 items, expected at least 1")]),
        (buy({"cells": [[0, 0]] * 9}), [("/placement/cells", "has 9 items, expected at most 8")]),
        ({"action": "buy", "patch_id": 7}, [("/placement", "missing required field 'placement'")]),
        ({"action": "jump"}, [("/action", "'jump' is not one of 'advance', 'buy', 'place_leather'")]),
        ({"action": None}, [("/action", "null is not one of 'advance', 'buy', 'place_leather'")]),
        ({}, [("/action", "missing required field 'action'")]),
        ({"action": "advance", "patch_id": 3}, [("/patch_id", "unknown field 'patch_id'")]),
        (
            {"action": "advance", "a": 1, "b/c~": 2},
            [("/a", "unknown field 'a'"), ("/b~1c~0", "unknown field 'b/c~'")],
        ),
        ({"action": "place_leather", "row": 4}, [("/col", "missing required field 'col'")]),
        (
            {"action": "place_leather", "row": None, "col": "4"},
            [("/row", "null is not of type 'integer'"), ("/col", "'4' is not of type 'integer'")],
        ),
        ([], [("", "[] is not of type 'object'")]),
        ("advance", [("", "'advance' is not of type 'object'")]),
    ],
    ids=repr,
)
def test_move_bodies_api_md_refuses_say_where(validator, body, expected):
    assert faults(validator.body_errors("makeMove", body)) == expected


def test_every_orientation_of_every_patch_in_both_forms_loads_and_a_shifted_one_does_not_fit(validator):
    """Each of the 8 orientations of each patch, at the top-left corner and as far down and right
    as it fits, given in both forms (its cells in reverse order): the spec takes it and the loader
    gives the engine a Buy whose two forms it accepts. The same cells beside the orientation one
    row lower (or higher) are schema-valid too, and the engine refuses them (DoesNotFit: 422)."""
    tried = 0
    for patch_id in PATCHES:
        for rotation, flipped in ORIENTATION_ORDER:
            at_origin = orientation_cells(patch_id, Placement(0, 0, rotation, flipped))
            last_row = BOARD_SIZE - 1 - max(r for r, _ in at_origin)
            last_col = BOARD_SIZE - 1 - max(c for _, c in at_origin)
            for row, col in ((0, 0), (last_row, last_col)):
                orientation = {"row": row, "col": col, "rotation": rotation, "flipped": flipped}
                cells = orientation_cells(patch_id, Placement(**orientation))
                body = buy({**orientation, "cells": [list(cell) for cell in reversed(cells)]}, patch_id)
                assert validator.body_errors("makeMove", body) == [], body
                move = load_move(body)
                assert move == Buy(patch_id, Placement(row, col, rotation, flipped, cells)), body
                resolve_placement(patch_id, move.placement)  # DoesNotFit if the engine disagreed
                shifted = buy({**body["placement"], "row": row + 1 if row == 0 else row - 1}, patch_id)
                assert validator.body_errors("makeMove", shifted) == [], shifted
                with pytest.raises(DoesNotFit):
                    resolve_placement(patch_id, load_move(shifted).placement)
                tried += 1
    assert tried == 33 * 8 * 2


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"players": None, "seed": None, "patch_order": None, "first_player": None, "time_board": None},
        {
            "players": [{"name": "A"}, {"name": "x" * 40}],
            "seed": 2**53 - 1,
            "first_player": 1,
            "time_board": "original",
        },
        {"seed": 0, "first_player": 1.0, "time_board": "revised"},
        {"patch_order": ORDER_1X2_LAST},
        {"patch_order": ORDER_1X2_LAST, "seed": None},
    ],
    ids=repr,
)
def test_create_bodies_api_md_accepts(validator, body):
    assert validator.body_errors("createGame", body) == []


@pytest.mark.parametrize(
    "body, expected",
    [
        ({"seed": 1, "patch_order": ORDER_1X2_LAST}, [("", "seed and patch_order cannot both be given")]),
        ({"seed": 2**53}, [("/seed", "9007199254740992 is greater than the maximum of 9007199254740991")]),
        ({"seed": -1}, [("/seed", "-1 is less than the minimum of 0")]),
        ({"seed": "42"}, [("/seed", "'42' is not of type 'integer' or 'null'")]),
        ({"sede": 42}, [("/sede", "unknown field 'sede'")]),
        ({"players": [{"name": "A"}]}, [("/players", "has 1 item, expected exactly 2")]),
        (
            {"players": [{"name": ""}, {"name": "x" * 41}]},
            [
                ("/players/0/name", "'' is too short (at least 1 character)"),
                (
                    "/players/1/name",
                    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... is too long (at most 40 characters)",
                ),
            ],
        ),
        (
            {"players": [{"name": "A"}, {"name": "B", "colour": "red"}]},
            [("/players/1/colour", "unknown field 'colour'")],
        ),
        ({"players": [{"name": "A"}, {}]}, [("/players/1/name", "missing required field 'name'")]),
        ({"first_player": 2}, [("/first_player", "2 is not one of 0, 1, null")]),
        ({"time_board": "new"}, [("/time_board", "'new' is not one of 'revised', 'original', null")]),
        ({"patch_order": ORDER_1X2_LAST[:-1]}, [("/patch_order", "has 32 items, expected exactly 33")]),
        (
            {"patch_order": [1, *ORDER_1X2_LAST[:-1]]},
            [
                ("/patch_order/0", "the 1x2 patch (id 1) must be the last of patch_order"),
                ("/patch_order/32", "the last patch of patch_order must be the 1x2 patch (id 1)"),
            ],
        ),
        ({"patch_order": [17, *ORDER_1X2_LAST[1:]]}, [("/patch_order", "must name each patch once")]),
        (
            {"patch_order": [34, *ORDER_1X2_LAST[1:]]},
            [("/patch_order/0", "34 is greater than the maximum of 33")],
        ),
        ("{}", [("", "'{}' is not of type 'object'")]),
    ],
    ids=repr,
)
def test_create_bodies_api_md_refuses_say_where(validator, body, expected):
    assert faults(validator.body_errors("createGame", body)) == expected


def test_an_operation_without_a_body_has_no_body_check(validator):
    with pytest.raises(LookupError):
        validator.body_errors("getGame", {})
    with pytest.raises(KeyError):
        validator.body_errors("noSuchOperation", {})


def test_a_body_nested_as_deep_as_json_allows_gets_errors_not_an_exception(validator):
    depth = 5000
    while True:  # the deepest nesting json.loads accepts from here
        try:
            body = json.loads('{"players": ' + "[" * depth + "]" * depth + "}")
            break
        except RecursionError:
            depth -= 250
    errors = validator.body_errors("createGame", body)
    assert errors and all(error["pointer"].startswith("/players") for error in errors)


def test_faults_are_capped_so_a_large_body_gets_a_small_answer(validator):
    body = {f"extra{n}": n for n in range(5000)}
    errors = validator.body_errors("createGame", body)
    assert len(errors) == MAX_ERRORS
    assert errors[0] == {"pointer": "/extra0", "message": "unknown field 'extra0'"}


def test_an_array_over_max_items_is_refused_by_its_length_not_its_items(validator):
    # Checking 5000 items that are out of the board too would cost 5000 times one.
    body = buy({"cells": [[9, 9]] * 5000})
    errors = validator.body_errors("makeMove", body)
    assert errors == [{"pointer": "/placement/cells", "message": "has 5000 items, expected at most 8"}]
    # Within maxItems, each item is still explained.
    errors = validator.body_errors("makeMove", buy({"cells": [[9, 9], [0, "a"], [0, 0, 0]]}))
    assert faults(errors) == [
        ("/placement/cells/0/0", "9 is greater than the maximum of 8"),
        ("/placement/cells/0/1", "9 is greater than the maximum of 8"),
        ("/placement/cells/1/1", "'a' is not of type 'integer'"),
        ("/placement/cells/2", "a cell is a [row, col] pair"),
    ]


def test_a_long_array_of_unsortable_items_is_refused_by_its_length(validator):
    # jsonschema's own uniqueItems is quadratic here (minutes); the array is over maxItems anyway.
    patch_order = [{"id": n} if n % 2 else str(n) for n in range(20000)]
    errors = validator.body_errors("createGame", {"patch_order": patch_order})
    assert errors[0] == {"pointer": "/patch_order", "message": "has 20000 items, expected exactly 33"}


@pytest.mark.parametrize(
    "args, values, expected",
    [
        ({"since": ["7"]}, {"since": 7}, []),
        ({"since": ["0"]}, {"since": 0}, []),
        ({}, {}, []),
        ({"since": ["abc"]}, {}, [("since", "'abc' is not of type 'integer'")]),
        ({"since": ["1.0"]}, {"since": 1}, []),  # like a body's 1.0: a whole number
        ({"since": ["2e1"]}, {"since": 20}, []),
        ({"since": ["0e999999999"]}, {"since": 0}, []),
        ({"since": ["1.5"]}, {}, [("since", "'1.5' is not of type 'integer'")]),
        ({"since": ["1e999999999"]}, {}, [("since", "'1e999999999' is not of type 'integer'")]),
        ({"since": ["NaN"]}, {}, [("since", "'NaN' is not of type 'integer'")]),
        ({"since": [""]}, {}, [("since", "'' is not of type 'integer'")]),
        ({"since": ["-1"]}, {}, [("since", "-1 is less than the minimum of 0")]),
        ({"since": ["1", "2"]}, {}, [("since", "must be given at most once")]),
        ({"since": ["3"], "page": ["x"]}, {"since": 3}, []),  # unknown parameters are ignored
    ],
    ids=repr,
)
def test_query_of_list_moves(validator, args, values, expected):
    coerced, errors = validator.query_errors("listMoves", args)
    assert coerced == values
    assert [(error["parameter"], error["message"]) for error in errors] == expected


def test_query_patch_id_of_legal_moves_from_a_werkzeug_multidict(validator):
    assert validator.query_errors("listLegalMoves", MultiDict([("patch_id", "33")])) == ({"patch_id": 33}, [])
    assert validator.query_errors("listLegalMoves", MultiDict([("patch_id", "34")])) == (
        {},
        [{"parameter": "patch_id", "message": "34 is greater than the maximum of 33"}],
    )
    assert validator.query_errors("listLegalMoves", MultiDict([("patch_id", "1"), ("patch_id", "2")]))[1] == [
        {"parameter": "patch_id", "message": "must be given at most once"}
    ]


@pytest.mark.parametrize(
    "values, coerced, expected",
    [
        ({"game_id": "abc", "number": "3"}, {"game_id": "abc", "number": 3}, []),
        (
            {"game_id": "abc", "number": "0"},
            {"game_id": "abc"},
            [("number", "0 is less than the minimum of 1")],
        ),
        ({"game_id": "abc", "number": "x"}, {"game_id": "abc"}, [("number", "'x' is not of type 'integer'")]),
    ],
    ids=repr,
)
def test_path_parameters_of_get_move(validator, values, coerced, expected):
    values_out, errors = validator.path_errors("getMove", values)
    assert values_out == coerced
    assert [(error["parameter"], error["message"]) for error in errors] == expected


IF_MATCH_MESSAGE = 'must be * or a comma-separated list of strong entity tags such as "3"'
IF_NONE_MATCH_MESSAGE = 'must be * or a comma-separated list of quoted entity tags such as "3" or W/"3"'
KEY_MESSAGE = "must be 1 to 64 visible ASCII characters (! to ~)"


@pytest.mark.parametrize("value", ['"3"', "*", '"a","b"', '"a", "b"', '"1" ,\t"2"', '""', '"x!#~"'])
def test_if_match_forms_rfc_9110_allows(validator, value):
    assert validator.header_errors("makeMove", {"If-Match": value}) == []


@pytest.mark.parametrize("value", ["3", 'W/"3"', '"3", W/"4"', "", '"3', '"a" "b"', '*, "3"', "**", '"a"b"'])
def test_if_match_forms_refused(validator, value):
    assert validator.header_errors("makeMove", {"If-Match": value}) == [
        {"header": "If-Match", "message": IF_MATCH_MESSAGE}
    ]


@pytest.mark.parametrize("operation_id", ["getGame", "listMoves", "getMove", "listLegalMoves"])
def test_if_none_match_takes_weak_tags_on_every_game_read(validator, operation_id):
    for value in ['"3"', 'W/"3"', "*", '"1", W/"2"']:
        assert validator.header_errors(operation_id, {"If-None-Match": value}) == []
    for value in ["3", "W/3", 'w/"3"', '"3",']:
        assert validator.header_errors(operation_id, {"If-None-Match": value}) == [
            {"header": "If-None-Match", "message": IF_NONE_MATCH_MESSAGE}
        ]


@pytest.mark.parametrize(
    "key, ok",
    [
        ("a", True),
        ("!~", True),
        ("k" * 64, True),
        ("0b8e7c52-move-12", True),
        ("a b", False),
        ("k" * 65, False),
        ("", False),
        ("caf\u00e9", False),
        ("tab\there", False),
    ],
)
def test_idempotency_key(validator, key, ok):
    expected = [] if ok else [{"header": "Idempotency-Key", "message": KEY_MESSAGE}]
    assert validator.header_errors("makeMove", {"Idempotency-Key": key}) == expected


def test_headers_are_found_case_insensitively_and_authorization_is_left_to_the_code(validator):
    headers = Headers([("if-match", "3"), ("IDEMPOTENCY-KEY", "ok"), ("Authorization", "not a bearer token")])
    assert validator.header_errors("makeMove", headers) == [
        {"header": "If-Match", "message": IF_MATCH_MESSAGE}
    ]
    assert validator.header_errors("makeMove", Headers([("Authorization", "")])) == []


def test_headers_an_operation_does_not_declare_are_not_checked(validator):
    assert validator.header_errors("createGame", {"If-Match": "3", "Idempotency-Key": "a b"}) == []


# Every request that the spec calls valid, as schemathesis (which fuzzes the service) reads it, passes.
_SPEC_AS_SCHEMATHESIS_READS_IT = schemathesis.openapi.from_dict(copy.deepcopy(load_spec()))


@pytest.mark.parametrize(
    "path, method",
    [
        ("/games", "POST"),
        ("/games/{game_id}/moves", "POST"),
        ("/games/{game_id}/moves", "GET"),
        ("/games/{game_id}/moves/{number}", "GET"),
        ("/games/{game_id}/legal-moves", "GET"),
    ],
)
def test_requests_generated_from_the_spec_pass(validator, path, method):
    operation = _SPEC_AS_SCHEMATHESIS_READS_IT[path][method]
    operation_id = operation.definition.raw["operationId"]

    @given(operation.as_strategy())
    @settings(
        max_examples=40,
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    def check(case):
        errors = [] if case.body in (NOT_SET, None) else validator.body_errors(operation_id, case.body)
        errors += validator.query_errors(operation_id, {k: [str(v)] for k, v in (case.query or {}).items()})[
            1
        ]
        errors += validator.header_errors(operation_id, case.headers or {})
        errors += validator.path_errors(operation_id, {k: str(v) for k, v in case.path_parameters.items()})[1]
        assert errors == [], (case.body, case.query, case.headers, case.path_parameters)

    check()
