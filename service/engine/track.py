"""The time track: spaces 0..53, income spaces, leather spaces per printing."""

TRACK_END = 53
INCOME_SPACES: tuple[int, ...] = (5, 11, 17, 23, 29, 35, 41, 47, 53)
TIME_BOARDS: tuple[str, ...] = ("revised", "original")
LEATHER_SPACES: dict[str, tuple[int, ...]] = {
    "revised": (26, 32, 38, 44, 50),
    "original": (20, 26, 32, 44, 50),
}

# _INCOME_UP_TO[s] = how many income spaces lie in 1..s, so a move from old to
# new passes _INCOME_UP_TO[new] - _INCOME_UP_TO[old] of them (old < s <= new).
_INCOME_UP_TO: tuple[int, ...] = tuple(
    sum(1 for s in INCOME_SPACES if s <= space) for space in range(TRACK_END + 1)
)


def income_spaces_passed(old: int, new: int) -> int:
    """How many income spaces a token moving from old to new passes."""
    return _INCOME_UP_TO[new] - _INCOME_UP_TO[old]
