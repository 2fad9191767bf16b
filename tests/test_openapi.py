"""openapi.yaml itself: a valid OpenAPI 3.2 document that says what docs/api-guide.md says, and the response checker on it."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
import schemathesis
import yaml
from openapi_spec_validator import OpenAPIV32SpecValidator

from service.api.contract.faults import compile_schema, schema_errors
from service.api.contract.request_validator import RequestValidator
from service.api.contract.spec import HTTP_METHODS, load_spec, resolve_pointer, spec_bytes
from service.problems import CATALOGUE
from tests.support.contract import ResponseContract

REPOSITORY = Path(__file__).resolve().parent.parent

# The codes each error status may carry: the catalogue's entries that the spec lists, which
# test_the_problem_codes_are_the_catalogues and test_the_guides_error_table_is_the_catalogue hold
# openapi.yaml and docs/api-guide.md#errors to.
ERROR_CODES: dict[int, set[str]] = {}
for _entry in CATALOGUE.values():
    if _entry.in_spec:
        ERROR_CODES.setdefault(_entry.status, set()).add(_entry.code)
# What gunicorn refuses before routing (request line or headers too large), answered as
# problem+json by service/run/gunicorn_worker.py, on every operation.
REFUSED_BEFORE_ROUTING = {"414", "431"}
# `503 overloaded` (service/api/middleware/admission.py) may refuse any operation but these probes.
NEVER_SHED = {"healthz", "getMetrics"}

# Every core operation (docs/api-guide.md#resources) and the statuses the contract lets it answer (405 and unrouted 404s are global).
API_MD_OPERATIONS = {
    ("get", "/patches"): ("listPatches", {"200"}),
    # 401 (extension, issue 20): a bearer token that is not a player's.
    # 422 (extension, issue 38): a rated lobby game that cannot be rated.
    # 403 (extension, issue 40): a bot account's token.
    ("post", "/games"): (
        "createGame",
        {"201", "400", "401", "403", "409", "413", "415", "422", "429", "503"},
    ),
    ("get", "/games/{game_id}"): ("getGame", {"200", "304", "400", "404", "503"}),
    ("get", "/games/{game_id}/moves"): ("listMoves", {"200", "304", "400", "404", "503"}),
    ("get", "/games/{game_id}/moves/{number}"): ("getMove", {"200", "304", "400", "404", "503"}),
    ("post", "/games/{game_id}/moves"): (
        "makeMove",
        {"201", "400", "401", "404", "409", "412", "413", "415", "422", "429", "503"},
    ),
    ("get", "/games/{game_id}/legal-moves"): ("listLegalMoves", {"200", "304", "400", "404", "503"}),
    ("get", "/games/{game_id}/seat"): ("getSeat", {"200", "400", "401", "404", "503"}),
    ("get", "/games/{game_id}/events"): ("streamEvents", {"200", "204", "400", "404", "429", "503"}),
    ("get", "/healthz"): ("healthz", {"200"}),
    ("get", "/readyz"): ("readyz", {"200", "503"}),
    ("get", "/openapi.yaml"): ("getOpenapi", {"200"}),
}

# Extensions (docs/api-guide.md#extensions): pictures, pages, resigning and hints.
EXTENSION_OPERATIONS = {
    ("post", "/games/{game_id}/resign"): (
        "resignGame",
        {"201", "400", "401", "404", "409", "412", "413", "415", "422", "429", "503"},
    ),
    ("get", "/games/{game_id}/hint"): ("getHint", {"200", "304", "400", "404", "409", "429", "503"}),
    ("get", "/games/{game_id}/board.svg"): ("getBoardSvg", {"200", "304", "400", "404", "503"}),
    ("get", "/games/{game_id}/board.txt"): ("getBoardText", {"200", "304", "400", "404", "503"}),
    ("get", "/patches/{patch_id}.svg"): ("getPatchSvg", {"200", "400", "404"}),
    ("get", "/"): ("getHome", {"302"}),
    ("get", "/docs"): ("getDocs", {"200"}),
    ("get", "/docs/{asset}"): ("getDocsAsset", {"200", "304", "404"}),
    ("get", "/play"): ("getPlay", {"200"}),
    ("get", "/play/{asset}"): ("getPlayAsset", {"200", "304", "404"}),
    ("get", "/problems/{problem}"): ("getProblemPage", {"200", "404"}),
    ("get", "/rules"): ("getRules", {"200", "400"}),
    ("get", "/bots"): ("listBots", {"200"}),
    ("post", "/games/{game_id}/analysis"): ("requestAnalysis", {"202", "400", "404", "409", "429", "503"}),
    ("get", "/games/{game_id}/analysis"): ("getAnalysis", {"200", "202", "400", "404", "409", "503"}),
    ("get", "/games/{game_id}/analysis.svg"): ("getAnalysisSvg", {"200", "202", "400", "404", "409", "503"}),
    ("get", "/metrics"): ("getMetrics", {"200", "404"}),
    # Players and the lobby (issue 20).
    ("post", "/players"): ("createPlayer", {"201", "400", "413", "415", "429"}),
    ("get", "/players/me"): ("getMe", {"200", "400", "401"}),
    ("get", "/players/me/games"): ("listMyGames", {"200", "400", "401"}),
    ("post", "/players/me/stream-tickets"): ("issueStreamTicket", {"201", "400", "401"}),
    ("get", "/players/me/events"): ("streamPlayerEvents", {"200", "400", "401", "429"}),
    ("get", "/players/{player_id}"): ("getPlayer", {"200", "400", "404"}),
    ("get", "/games"): ("listGames", {"200", "400", "401", "404"}),
    ("post", "/games/{game_id}/rematch"): (
        "rematchGame",
        {"200", "201", "202", "400", "401", "404", "409", "413", "415", "429"},
    ),
    # Offers (issue 38).
    ("delete", "/games/{game_id}/rematch"): ("dismissRematch", {"200", "400", "401", "404"}),
    ("post", "/games/{game_id}/takeback"): (
        "takebackGame",
        {"201", "202", "400", "401", "404", "409", "413", "415"},
    ),
    ("delete", "/games/{game_id}/takeback"): ("dismissTakeback", {"200", "400", "401", "404"}),
    ("get", "/leaderboard"): ("getLeaderboard", {"200", "400"}),
    ("post", "/seeks"): ("createSeek", {"201", "400", "401", "403", "409", "413", "415", "429"}),
    ("get", "/seeks/{seek_id}"): ("getSeek", {"200", "400", "401", "404"}),
    ("delete", "/seeks/{seek_id}"): ("cancelSeek", {"200", "400", "401", "404"}),
    ("post", "/games/{game_id}/join"): (
        "joinGame",
        {"201", "400", "401", "403", "404", "409", "413", "415", "422", "429"},
    ),
    ("post", "/games/{game_id}/seat"): ("nameSeat", {"200", "400", "401", "404", "409", "413", "415", "429"}),
    # Challenges and blocks (issue 38).
    ("post", "/challenges"): (
        "createChallenge",
        {"201", "400", "401", "403", "404", "409", "413", "415", "422", "429"},
    ),
    ("get", "/challenges/{challenge_id}"): ("getChallenge", {"200", "400", "404"}),
    ("delete", "/challenges/{challenge_id}"): (
        "withdrawChallenge",
        {"200", "400", "401", "403", "404", "409"},
    ),
    ("post", "/challenges/{challenge_id}/accept"): (
        "acceptChallenge",
        {"201", "400", "401", "403", "404", "409", "413", "415", "422", "429"},
    ),
    ("post", "/challenges/{challenge_id}/decline"): (
        "declineChallenge",
        {"200", "400", "401", "403", "404", "409", "413", "415"},
    ),
    ("get", "/players/me/challenges"): ("listMyChallenges", {"200", "400", "401"}),
    ("get", "/players/me/blocks"): ("listBlocks", {"200", "400", "401"}),
    ("post", "/players/me/blocks/{player_id}"): ("blockPlayer", {"200", "400", "401", "404", "422"}),
    ("delete", "/players/me/blocks/{player_id}"): ("unblockPlayer", {"200", "400", "401"}),
    # Vacations (issue 41).
    ("post", "/players/me/vacation"): ("startVacation", {"200", "400", "401", "409", "413", "415"}),
    ("delete", "/players/me/vacation"): ("endVacation", {"200", "400", "401", "409"}),
    # Webhooks (issue 41).
    ("get", "/players/me/webhooks"): ("listWebhooks", {"200", "400", "401"}),
    ("post", "/players/me/webhooks"): ("createWebhook", {"201", "400", "401", "409", "413", "415", "422"}),
    ("delete", "/players/me/webhooks/{webhook_id}"): ("deleteWebhook", {"204", "400", "401", "404"}),
    ("get", "/players/me/webhooks/{webhook_id}/deliveries"): (
        "listWebhookDeliveries",
        {"200", "400", "401", "404"},
    ),
    # Tournaments (issue 39).
    ("get", "/tournaments"): ("listTournaments", {"200", "400"}),
    ("post", "/tournaments"): (
        "createTournament",
        {"201", "400", "401", "403", "413", "415", "422", "429"},
    ),
    ("get", "/tournaments/{tournament_id}"): ("getTournament", {"200", "400", "404"}),
    ("post", "/tournaments/{tournament_id}/join"): (
        "joinTournament",
        {"200", "400", "401", "403", "404", "409", "413", "415", "429"},
    ),
    ("post", "/tournaments/{tournament_id}/withdraw"): (
        "withdrawFromTournament",
        {"200", "400", "401", "404", "409", "413", "415"},
    ),
    ("post", "/tournaments/{tournament_id}/start"): (
        "startTournament",
        {"200", "400", "401", "403", "404", "409", "413", "415"},
    ),
    ("post", "/tournaments/{tournament_id}/cancel"): (
        "cancelTournament",
        {"200", "400", "401", "403", "404", "409", "413", "415"},
    ),
    ("get", "/tournaments/{tournament_id}/events"): (
        "streamTournamentEvents",
        {"200", "204", "400", "404", "429"},
    ),
    # Issue 41: game records.
    ("get", "/games/{game_id}/record"): ("getGameRecord", {"200", "304", "400", "404"}),
    ("post", "/games/import"): ("importGame", {"201", "400", "413", "415", "422", "429"}),
    ("get", "/players/{player_id}/games.ndjson"): ("exportPlayerGames", {"200", "400", "404"}),
}


@pytest.fixture(scope="module")
def spec() -> dict:
    return load_spec()


@pytest.fixture(scope="module")
def contract(spec) -> ResponseContract:
    return ResponseContract(spec)


def operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                yield path, method, operation


def walk(node, pointer=""):
    """Every (pointer, dict) in the document."""
    if isinstance(node, dict):
        yield pointer, node
        for key, value in node.items():
            yield from walk(value, f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{pointer}/{index}")


def test_the_spec_is_valid_openapi_3_2(spec):
    # 3.2 for itemSchema: the event stream's events, each described (docs/api-guide.md#live-updates).
    assert spec["openapi"] == "3.2.0"
    errors = [error.message for error in OpenAPIV32SpecValidator(spec).iter_errors()]
    assert errors == []


def test_a_checkout_serves_the_repository_file(spec):
    # The one openapi.yaml is the root's: no copy in the source package to drift (setup.py copies it into a build).
    assert not (REPOSITORY / "service" / "openapi.yaml").exists()
    assert spec_bytes() == (REPOSITORY / "openapi.yaml").read_bytes()
    assert load_spec() == yaml.safe_load((REPOSITORY / "openapi.yaml").read_text(encoding="utf-8"))


def test_every_operation_of_api_md_with_its_statuses(spec):
    declared = {
        (method, path): (op["operationId"], set(op["responses"])) for path, method, op in operations(spec)
    }
    expected = {
        key: (op_id, statuses | REFUSED_BEFORE_ROUTING | (set() if op_id in NEVER_SHED else {"503"}))
        for key, (op_id, statuses) in {**API_MD_OPERATIONS, **EXTENSION_OPERATIONS}.items()
    }
    assert declared == expected


def test_operation_ids_are_unique(spec):
    ids = [op["operationId"] for _, _, op in operations(spec)]
    assert len(ids) == len(set(ids))


def test_every_ref_resolves(spec):
    refs = [(pointer, node["$ref"]) for pointer, node in walk(spec) if isinstance(node.get("$ref"), str)]
    assert len(refs) > 50
    for pointer, ref in refs:
        assert isinstance(resolve_pointer(spec, ref), dict), f"{pointer}: {ref}"


def test_the_problem_codes_are_the_catalogues(spec):
    listed = spec["components"]["schemas"]["ProblemCode"]["enum"]
    assert len(listed) == len(set(listed))
    assert set(listed) == set().union(*ERROR_CODES.values())


# A row of docs/api-guide.md's error table: | 404 | `game_not_found` | when |
GUIDE_ERROR_ROW = re.compile(r"^\| (\d{3}) \| `(\w+)` \| .+ \|$")


def test_the_guides_error_table_is_the_catalogue():
    guide = (REPOSITORY / "docs" / "api-guide.md").read_text(encoding="utf-8")
    errors = guide.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    rows = [match.groups() for line in errors.splitlines() if (match := GUIDE_ERROR_ROW.match(line))]
    assert len(rows) == len({code for _, code in rows})
    assert {(int(status), code) for status, code in rows} == {
        (status, code) for status, codes in ERROR_CODES.items() for code in codes
    }


def test_each_error_response_allows_exactly_its_status_and_codes(spec):
    # A response may narrow a status to some of its codes (503: storage_unavailable
    # alone, or with bots_unavailable where a bot game may be refused); together
    # the responses of a status cover all of them.
    covered: dict[int, set[str]] = {}
    for name, response in spec["components"]["responses"].items():
        problem = response.get("content", {}).get("application/problem+json")
        if problem is None:
            continue
        narrowing = problem["schema"]["allOf"][1]["properties"]
        status = narrowing["status"]["const"]
        codes = set(narrowing["code"].get("enum", [narrowing["code"].get("const")]))
        assert codes <= ERROR_CODES[status], name
        covered.setdefault(status, set()).update(codes)
    assert covered == ERROR_CODES


def test_moves_seats_and_resigning_need_a_seat_token_and_nothing_else_does(spec):
    secured = {op["operationId"] for _, _, op in operations(spec) if op.get("security")}
    # Issue 20: a player token; optional ({} first) where a player is optional.
    players = {
        "getMe",
        "listMyGames",
        "issueStreamTicket",
        "streamPlayerEvents",
        "createSeek",
        "getSeek",
        "cancelSeek",
        # Issue 38.
        "createChallenge",
        "withdrawChallenge",
        "declineChallenge",
        "listMyChallenges",
        "listBlocks",
        "blockPlayer",
        "unblockPlayer",
        # Issue 41.
        "startVacation",
        "endVacation",
        # Issue 39.
        "createTournament",
        "joinTournament",
        "withdrawFromTournament",
        "startTournament",
        "cancelTournament",
        # Issue 41.
        "createWebhook",
        "listWebhooks",
        "deleteWebhook",
        "listWebhookDeliveries",
    }
    optional_player = {"createGame", "joinGame", "acceptChallenge", "listGames"}
    assert (
        secured
        == {"makeMove", "getSeat", "nameSeat", "resignGame", "rematchGame"}
        | {"dismissRematch", "takebackGame", "dismissTakeback"}
        | players
        | optional_player
    )
    for _, _, op in operations(spec):
        if op["operationId"] in optional_player:
            assert op["security"] == [{}, {"playerToken": []}]
    scheme = spec["components"]["securitySchemes"]["seatToken"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")


def test_discriminator_mappings_name_the_branch_with_that_value(spec):
    # Moves and history entries by `action`, stream events by `event`.
    discriminated = [(pointer, node) for pointer, node in walk(spec) if "discriminator" in node]
    assert len(discriminated) == 4
    for pointer, node in discriminated:
        name = node["discriminator"]["propertyName"]
        mapping = node["discriminator"]["mapping"]
        assert sorted(mapping.values()) == sorted(branch["$ref"] for branch in node["oneOf"]), pointer
        for value, ref in mapping.items():
            assert resolve_pointer(spec, ref)["properties"][name]["const"] == value, pointer


def test_unique_item_arrays_are_short(spec):
    # The validator skips uniqueItems on arrays over maxItems (it is quadratic); every such array needs one.
    for pointer, node in walk(spec):
        if node.get("uniqueItems") is True:
            assert node.get("maxItems", 10**9) <= 64, pointer


def test_request_bodies_forbid_unknown_fields(spec):
    validator = RequestValidator(spec)
    assert (
        str(validator.body_errors("createGame", {"colour": "red"})[0]["message"]) == "unknown field 'colour'"
    )
    body_schemas = [
        op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        for _, _, op in operations(spec)
        # (POST /games/import takes text, a game record: it has no fields.)
        if "application/json" in op.get("requestBody", {}).get("content", {})
    ]
    for ref in body_schemas:
        for pointer, node in walk(resolve_pointer(spec, ref)):
            if node.get("type") == "object":
                assert node.get("additionalProperties") is False, (ref, pointer)


def examples_of(spec):
    """(where, schema, value) for every example of the document, its $refs followed."""
    for pointer, node in walk(spec):
        if "schema" in node and isinstance(node["schema"], dict):
            for name, example in node.get("examples", {}).items():
                value = (
                    resolve_pointer(spec, example["$ref"])["value"] if "$ref" in example else example["value"]
                )
                yield f"{pointer}/examples/{name}", node["schema"], value
            if "example" in node:
                yield f"{pointer}/example", node["schema"], node["example"]
        if isinstance(node.get("examples"), list) and "type" in node:
            for index, value in enumerate(node["examples"]):
                yield f"{pointer}/examples/{index}", node, value


def test_every_example_validates_against_its_schema(spec):
    examples = list(examples_of(spec))
    assert len(examples) > 40
    for where, schema, value in examples:
        assert schema_errors(compile_schema(spec, schema), value) == [], where


def test_request_examples_pass_the_request_validator(spec):
    validator = RequestValidator(spec)
    for _, _, op in operations(spec):
        for name, example in (
            op.get("requestBody", {})
            .get("content", {})
            .get("application/json", {})
            .get("examples", {})
            .items()
        ):
            assert validator.body_errors(op["operationId"], example["value"]) == [], (op["operationId"], name)


def test_the_catalogue_example_is_self_consistent(spec):
    # The self-check of docs/rules.md#pieces: 166 cells and 38 income buttons over patches 1..33.
    example = spec["paths"]["/patches"]["get"]["responses"]["200"]["content"]["application/json"]["examples"]
    patches = example["catalogue"]["value"]["patches"]
    assert [patch["id"] for patch in patches] == list(range(1, 34))
    assert all(patch["cells"] == "".join(patch["shape"]).count("X") for patch in patches)
    assert sum(patch["cells"] for patch in patches) == 166
    assert sum(patch["income"] for patch in patches) == 38


def test_schemathesis_builds_the_stateful_workflow_from_the_links(spec):
    links = spec["paths"]["/games"]["post"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in links.values()} == {
        "getGame",
        "listMoves",
        "listLegalMoves",
        "makeMove",
        "streamEvents",
    }
    assert {link["parameters"].get("header.Authorization") for link in links.values()} >= {
        "Bearer {$response.body#/tokens/0}",
        "Bearer {$response.body#/tokens/1}",
    }
    # Raises InvalidStateMachine naming the link when one names an unknown operation or parameter.
    schemathesis.openapi.from_dict(copy.deepcopy(spec)).as_state_machine()


# The response checker, on the spec's own examples and on responses that break it.


def concrete(path: str) -> str:
    return path.replace("{game_id}", "3f1c9a6e0b7d4e52a8c1f0d9e2b4a7c6").replace("{number}", "1")


def test_every_response_example_passes_the_checker(spec, contract):
    checked = 0
    for path, method, op in operations(spec):
        for status, response in op["responses"].items():
            response = resolve_pointer(spec, response["$ref"]) if "$ref" in response else response
            headers = {
                name: str((resolve_pointer(spec, h["$ref"]) if "$ref" in h else h)["example"])
                for name, h in response.get("headers", {}).items()
                if "example" in (resolve_pointer(spec, h["$ref"]) if "$ref" in h else h)
            }
            for media_type, media in response.get("content", {}).items():
                for example in media.get("examples", {}).values():
                    value = (
                        resolve_pointer(spec, example["$ref"])["value"]
                        if "$ref" in example
                        else example["value"]
                    )
                    body = answer(value)
                    answered = contract.check(
                        method, concrete(path), int(status), {**headers, "Content-Type": media_type}, body
                    )
                    assert answered == op["operationId"]
                    checked += 1
    assert checked > 30


def answer(doc: object) -> bytes:
    """A JSON body as the service writes it: the text and a final newline."""
    return json.dumps(doc).encode() + b"\n"


def problem(status: int, code: str) -> bytes:
    return answer({"type": "about:blank", "title": "t", "status": status, "detail": "d", "code": code})


PROBLEM = {"Content-Type": "application/problem+json"}


def test_the_checker_matches_concrete_paths_to_templates(contract):
    moves = answer({"moves": []})
    headers = {"Content-Type": "application/json", "ETag": '"4"'}
    assert contract.check("GET", "/games/abc/moves?since=3", 200, headers, moves) == "listMoves"
    assert contract.check("GET", "/games/abc/moves/3", 404, PROBLEM, problem(404, "not_found")) == "getMove"
    assert (
        contract.check("GET", "/games/abc/legal-moves", 404, PROBLEM, problem(404, "game_not_found"))
        == "listLegalMoves"
    )
    assert contract.check("GET", "/games/abc", 304, {"ETag": '"4"'}, b"") == "getGame"
    assert (
        contract.check(
            "GET",
            "/openapi.yaml",
            200,
            {"Content-Type": "application/yaml"},
            (REPOSITORY / "openapi.yaml").read_bytes(),
        )
        == "getOpenapi"
    )


def test_the_checker_refuses_a_json_body_without_its_final_newline(contract):
    headers = {"Content-Type": "application/json", "ETag": '"4"'}
    with pytest.raises(AssertionError, match="ends with a newline"):
        contract.check("GET", "/games/abc/moves", 200, headers, json.dumps({"moves": []}).encode())
    with pytest.raises(AssertionError, match="ends with a newline"):
        contract.check("GET", "/nowhere", 404, PROBLEM, problem(404, "not_found").rstrip(b"\n"))


def test_unrouted_paths_and_undeclared_methods_have_their_own_answers(contract):
    assert contract.check("GET", "/nowhere", 404, PROBLEM, problem(404, "not_found")) is None
    assert (
        contract.check(
            "DELETE", "/games/abc", 405, {**PROBLEM, "Allow": "GET"}, problem(405, "method_not_allowed")
        )
        is None
    )
    with pytest.raises(AssertionError, match="must be 404"):
        contract.check("GET", "/nowhere", 200, {}, b"")
    with pytest.raises(AssertionError, match="expected code 'not_found'"):
        contract.check("GET", "/nowhere", 404, PROBLEM, problem(404, "game_not_found"))
    with pytest.raises(AssertionError, match="must be 405"):
        contract.check("DELETE", "/games/abc", 404, PROBLEM, problem(404, "not_found"))
    with pytest.raises(AssertionError, match="'allow' is missing"):
        contract.check("DELETE", "/games/abc", 405, PROBLEM, problem(405, "method_not_allowed"))


@pytest.mark.parametrize(
    "request_line, status, headers, body, complaint",
    [
        (("GET", "/games/abc"), 201, {}, b"", "getGame declares no 201"),
        (
            ("GET", "/games/abc"),
            404,
            {"Content-Type": "application/json"},
            problem(404, "game_not_found"),
            "Content-Type 'application/json'",
        ),
        (
            ("GET", "/games/abc"),
            404,
            PROBLEM,
            problem(404, "version_mismatch"),
            "/code: 'version_mismatch' is not one of 'game_not_found', 'not_found'",
        ),
        (("GET", "/games/abc"), 404, PROBLEM, b"{\n", "does not parse"),
        (("GET", "/games/abc"), 304, {}, b"", "required header 'etag' is missing"),
        (("GET", "/games/abc"), 304, {"ETag": '"4"'}, b"{}", "declared without a body"),
        (("GET", "/games/abc"), 304, {"ETag": 'W/"4"'}, b"", "header etag"),
        (
            ("POST", "/games/abc/moves"),
            503,
            PROBLEM,
            problem(503, "storage_unavailable"),
            "'retry-after' is missing",
        ),
        (
            ("POST", "/games/abc/moves"),
            503,
            {**PROBLEM, "Retry-After": "soon"},
            problem(503, "storage_unavailable"),
            "'soon' is not of type 'integer'",
        ),
        (
            ("POST", "/games/abc/moves"),
            409,
            PROBLEM,
            problem(409, "wrong_phase")[: -len(b"}\n")] + b', "extra": 1}\n',
            "/extra: unknown field 'extra'",
        ),
        (
            ("GET", "/patches"),
            200,
            {"Content-Type": "application/json"},
            b'{"patches": []}\n',
            "/patches: has 0 items, expected exactly 33",
        ),
    ],
)
def test_the_checker_refuses_what_the_spec_does_not_declare(
    contract, request_line, status, headers, body, complaint
):
    with pytest.raises(AssertionError) as refused:
        contract.check(*request_line, status, headers, body)
    assert complaint in str(refused.value)
