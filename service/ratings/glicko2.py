"""Glicko-2 ratings, written from Mark Glickman's "Example of the Glicko-2 system" (2013).

A pure module: a rating is a frozen value, `updated` is the paper's steps 2
to 8 for one rating period. The service rates each finished game as its own
period (as lichess does): ratings move with every result rather than in
monthly batches, and a player who sits out is simply not updated (the
paper's step 6 for a period without games would widen the RD; a service
without periods has no idle clock to run it on).

The paper's worked example (1500/200/0.06, tau 0.5, three games) is a test:
tests/games/test_ratings.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# The Glicko scale <-> the Glicko-2 scale (step 2): mu = (r - 1500) / 173.7178.
SCALE = 173.7178
INITIAL_RATING = 1500.0
INITIAL_RD = 350.0
INITIAL_VOLATILITY = 0.06
# The system constant: how fast the volatility may change. The paper
# suggests 0.3 to 1.2; 0.5 is its example's value.
TAU = 0.5
# The convergence tolerance of step 5's iteration (the paper's epsilon).
EPSILON = 0.000001
# An RD never falls below this: a player who has played a thousand games
# still moves a little with each (lichess keeps a floor of the same order).
MIN_RD = 45.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: rating, rating deviation and volatility."""

    rating: float = INITIAL_RATING
    rd: float = INITIAL_RD
    volatility: float = INITIAL_VOLATILITY

    def to_json(self) -> dict[str, float]:
        return {"rating": self.rating, "rd": self.rd, "volatility": self.volatility}

    @classmethod
    def from_json(cls, doc: dict[str, float]) -> Rating:
        return cls(float(doc["rating"]), float(doc["rd"]), float(doc["volatility"]))


@dataclass(frozen=True, slots=True)
class Result:
    """One game of the period: the opponent's rating before it and the score (1 win, 0.5 draw, 0 loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois variant of regula falsi the paper gives."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def updated(player: Rating, results: Sequence[Result], *, tau: float = TAU, min_rd: float = 0.0) -> Rating:
    """The player's rating after a period with `results` (steps 2 to 8); unchanged RD growth without any."""
    mu = (player.rating - INITIAL_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        # Step 6 alone: only the deviation grows.
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, max(phi_star * SCALE, min_rd), sigma)
    # Step 3: the estimated variance v; step 4: the estimated improvement delta.
    inverse_v = 0.0
    improvement = 0.0
    for result in results:
        mu_j = (result.opponent.rating - INITIAL_RATING) / SCALE
        phi_j = result.opponent.rd / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (result.score - e)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    # Steps 6 and 7: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # Step 8: back to the Glicko scale.
    return Rating(mu_new * SCALE + INITIAL_RATING, max(phi_new * SCALE, min_rd), sigma_new)


def after_game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (`first_score`: 1, 0.5 or 0), each rated on the other's old rating."""
    return (
        updated(first, [Result(second, first_score)], min_rd=MIN_RD),
        updated(second, [Result(first, 1.0 - first_score)], min_rd=MIN_RD),
    )


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a finished rated game does to its players' ratings: decided once, with the result, in its final commit."""

    players: tuple[str, str]  # the player ids, seat 0 first
    after: tuple[Rating, Rating]  # their ratings after the game
    diff: tuple[float, float]  # the change of each rating

    def to_json(self) -> dict[str, object]:
        return {
            "players": list(self.players),
            "after": [self.after[0].to_json(), self.after[1].to_json()],
            "diff": list(self.diff),
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Settlement:
        players, after, diff = doc["players"], doc["after"], doc["diff"]
        return cls(
            (str(players[0]), str(players[1])),
            (Rating.from_json(after[0]), Rating.from_json(after[1])),
            (float(diff[0]), float(diff[1])),
        )


def settle(players: tuple[str, str], before: tuple[Rating, Rating], winner: int) -> Settlement:
    """The settlement of a game between `players` rated `before` that seat `winner` won."""
    after = after_game(before[0], before[1], 1.0 if winner == 0 else 0.0)
    return Settlement(
        players, after, (after[0].rating - before[0].rating, after[1].rating - before[1].rating)
    )
