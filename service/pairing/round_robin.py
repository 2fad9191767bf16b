"""Round robin by Berger tables: every pair meets once (twice when double, seats swapped).

The players are numbered 1..n in the order given (the caller's: by rating,
by the draw, by joining). With an odd count a dummy n+1 is added, and whoever
meets it that round has the bye. The Berger construction, as FIDE publishes
its tables: player n sits out of the rotation; in round r (1..n-1) it meets
the player p with 2p = r + 1 (mod n - 1), moving first in even rounds; the
others meet in pairs (p + k, p - k), k = 1..n/2 - 1, counted around 1..n-1
(so i and j meet in the round where i + j = r + 1, mod n - 1), and of such a
pair the lower number moves first when i + j is odd, the higher when it is
even. So every player moves first n/2 or n/2 - 1 times in the n - 1 rounds,
and with a dummy the game lost to the bye leaves each player's starts and
seconds equal. The double round robin plays the same rounds again with the
seats swapped.
"""

from __future__ import annotations

from collections.abc import Sequence

from .records import Pairing


def round_robin(players: Sequence[str], double: bool = False) -> list[list[Pairing]]:
    """Every round of a round robin between `players`, in order; each round's pairings board by board."""
    seats: list[str | None] = list(players)
    if len(seats) < 2:
        return []
    if len(seats) % 2:
        seats.append(None)
    rounds = [[pairing_of(seats, a, b) for a, b in berger_round(len(seats), r)] for r in range(1, len(seats))]
    if double:
        rounds += [[swapped(pairing) for pairing in round_] for round_ in rounds]
    return rounds


def berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """Round `r` of the Berger table for an even `n`: pairs of numbers 1..n, the one moving first first."""
    rotation = n - 1

    def around(k: int) -> int:
        # 1..n-1, counted around: n-1 + 1 is 1, 1 - 1 is n-1.
        return (k - 1) % rotation + 1

    # The p with 2p = r + 1 (mod n - 1); n - 1 is odd, so there is exactly one.
    p = next(p for p in range(1, n) if (2 * p - r - 1) % rotation == 0)
    pairs = [(n, p) if r % 2 == 0 else (p, n)]
    for k in range(1, n // 2):
        i, j = around(p + k), around(p - k)
        low, high = min(i, j), max(i, j)
        pairs.append((low, high) if (i + j) % 2 else (high, low))
    return pairs


def pairing_of(seats: Sequence[str | None], a: int, b: int) -> Pairing:
    """The pairing of Berger numbers a (first) and b; the dummy's opponent has the bye."""
    first, second = seats[a - 1], seats[b - 1]
    if first is None:
        assert second is not None
        return Pairing(second, None)
    return Pairing(first, second)


def swapped(pairing: Pairing) -> Pairing:
    """The same pairing with the seats swapped (a bye stays a bye)."""
    if pairing.second is None:
        return pairing
    return Pairing(pairing.second, pairing.first)
