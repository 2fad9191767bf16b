"""How long a player on a clock may think about one move: the bot workers' and the protocol engine's policy.

Pure arithmetic on the bank and the increment, so the bot worker (which
reads them from a game record) and `patchwork-engine` (which reads them
from a `go` command) budget their moves the same way.
"""

# A player on a clock keeps this much of its bank in hand for what follows its
# thinking (a bot's commit, a process descheduled on a busy machine).
CLOCK_RESERVE_MS = 1_500
# ... and spends at most this share of the rest on one move: a game is
# some 20 to 30 moves a seat, and the increment comes back after each.
CLOCK_SHARE = 1 / 20


def clock_budget_ms(budget_ms: int, left_ms: int, increment_ms: int) -> int:
    """The think time for a move with left_ms on the clock: at most budget_ms, never below 1 ms.

    The reserve, then a share of the rest, plus half the increment it gets
    back; a bank inside the reserve plays at once (1 ms: a search then
    plays its first idea).
    """
    spare = left_ms - CLOCK_RESERVE_MS
    allowed = int(spare * CLOCK_SHARE) + increment_ms // 2 if spare > 0 else 1
    return max(1, min(budget_ms, allowed))
