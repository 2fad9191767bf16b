"""The error catalogue (service/problems/catalogue.py): every refusal finds its entry there, and answers carry it.

openapi.yaml's code list and docs/api-guide.md's error table are held to it
in tests/test_openapi.py; the problem pages in test_pages.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from service.api.problems import ApiProblem, from_refusal
from service.engine import RuleError
from service.engine import errors as engine_errors
from service.games import (
    CATALOGUE,
    BotsUnavailable,
    GameBusy,
    GameNotFound,
    InvalidToken,
    MissingToken,
    NotABot,
    Refusal,
    RuleBroken,
    VersionMismatch,
    VersionNotFound,
)
from service.site.bot_accounts import BotGamesPerDay


def subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    return found.union(*(subclasses(sub) for sub in found))


RULE_ERRORS = sorted(
    (cls for cls in subclasses(RuleError) if cls.__module__ == engine_errors.__name__), key=lambda c: c.code
)


def test_every_refusal_of_the_core_has_an_entry():
    # RuleBroken takes its code from the engine's error (below); NotABot is the
    # bot worker's alone, never answered over HTTP, so it has no page either.
    answered = subclasses(Refusal) - {RuleBroken, NotABot}
    assert answered  # the walk found the core's refusals
    for cls in answered:
        assert cls.code in CATALOGUE, cls.__name__
    assert NotABot.code not in CATALOGUE


@pytest.mark.parametrize("error", RULE_ERRORS, ids=lambda cls: cls.__name__)
def test_every_rule_error_of_the_engine_has_an_entry(error):
    assert RuleBroken(error("refused")).entry is CATALOGUE[error.code]
    assert from_refusal(error("refused")).status == CATALOGUE[error.code].status


@pytest.mark.parametrize(
    "refusal, status, headers",
    [
        (GameNotFound("x"), 404, {}),
        (VersionNotFound("no version 9"), 404, {}),
        (MissingToken(), 401, {"WWW-Authenticate": "Bearer"}),
        (InvalidToken(), 401, {"WWW-Authenticate": 'Bearer error="invalid_token"'}),
        (VersionMismatch(3, "If-Match"), 412, {}),
        (GameBusy(), 503, {"Retry-After": "1"}),
        (BotsUnavailable(), 503, {"Retry-After": "5"}),
        # A Retry-After of the refusal's own: the whole seconds until a place frees, never 0.
        (BotGamesPerDay(100, 1_500), 429, {"Retry-After": "2"}),
        (BotGamesPerDay(100, 3), 429, {"Retry-After": "1"}),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, Refusal) else None,
)
def test_a_refusal_is_answered_with_its_entry(refusal, status, headers):
    problem = from_refusal(refusal)
    assert (problem.status, problem.code, problem.detail) == (status, refusal.code, refusal.detail)
    assert problem.headers == headers
    assert problem.body()["title"] == refusal.entry.title


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_problem_carries_its_entrys_title_and_headers(code):
    entry = CATALOGUE[code]
    own = {name: "own value" for name in entry.varying_headers}
    problem = ApiProblem.of(code, "what happened", headers=own)
    assert problem.body() == {
        "type": f"/problems/{code.replace('_', '-')}",
        "title": entry.title,
        "status": entry.status,
        "detail": "what happened",
        "code": code,
    }
    assert problem.headers == {**entry.headers, **own}


def test_the_api_builds_no_problem_with_a_literal_status():
    # A status written beside the code could drift from the code's catalogue entry: ApiProblem.of
    # takes it from there. (from_refusal and the werkzeug fallback pass a status they were given.)
    api = Path(__file__).resolve().parents[2] / "service" / "api"
    literal = []
    for path in sorted(api.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "ApiProblem"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                literal.append(f"{path.relative_to(api)}:{node.lineno}")
    assert literal == []
