"""Swiss pairing as a maximum-weight matching, the way serious Swiss programs pair.

Who plays whom in a round is a matching problem on the field: every pair of
players who may meet is an edge, and a round is a perfect matching. Rather
than search the pairings by hand (the backtracking of the paper rules, easy
to get wrong and slow to fail), each edge gets a weight, and Edmonds' blossom
algorithm finds the perfect matching of the greatest total weight: networkx's
`max_weight_matching`, a well-kept, widely used implementation, exact in
integer arithmetic. bbpPairings and JaVaFo, the FIDE-endorsed Swiss engines,
solve the Dutch system the same way.

An edge's weight is a large constant minus its cost, and the cost is
lexicographic, each tier outweighing everything the tiers below it can add
up to over a whole round (the multipliers in `weights`):
1. repeats: how often the two have met (offered only when no round without
   a repeat exists, as in a field too small for its number of rounds, or
   when only a second bye would avoid one);
2. the squared score difference: equal scores cost nothing, so score groups
   pair within themselves first, and a player floats down only when the
   group cannot be paired; squaring prefers two floats of one point to one
   of two;
3. the starts: how far the pairing, seated as the contract seats it, pushes
   either player's starts away from their seconds, and whether either gets
   the same seat as in its latest game;
4. the ranks: within a score group the top half meets the bottom half (the
   first against the one in the middle, and so on down), and a floater is
   the lowest of its group meeting the highest of the next; squared, so
   two small steps from that order cost less than one large one.
Since `maxcardinality=True` makes every matching of a round as large as it
can be, maximising the weight minimises the total cost.

The blossom algorithm is cubic in the field: over every pair of a
512-player field it takes about 20 s here. Almost none of those edges can be
in a good round, so two things keep it small. The field is paired in blocks
of whole score groups, each of at least BLOCK players and an even count, so
no group needs a partner across a block's edge for want of one. And only the
plausible edges are offered: within a score group the pairs whose distance
in the ranking is near half the group's size (all of a small group's
pairs), and from the foot of a group to the players just below it. A block
whose edges hold no perfect matching joins the next one; if the last one
cannot be paired, it joins the blocks above it one by one, and at last the
whole field is paired at once over wider windows, then over every pair. A field of 512 then pairs in a few tenths of a
second (benchmarks/pairing.py); what the blocks and windows cost in quality
is checked against pairing over every pair (tests/pairing/test_swiss.py).

Seats are then given by the contract: the player who has started fewer
games starts; on a tie the one who did not start last; then the
higher-ranked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import networkx as nx

from .history import History, histories
from .records import Outcome, Pairing

# Within a large score group, a player is offered the opponents whose distance in the
# ranking is within a window of half the group's size; groups of up to 2 * window + 2
# players are offered every pair. The lowest `window` of a group are offered the `window`
# players just below it. The windows tried in turn (None: every pair).
WINDOWS: tuple[int | None, ...] = (6, 24, 96, None)
# The blossom algorithm's time grows with the cube of the field: a large field is paired
# in blocks of whole score groups of at least BLOCK players each (an even count).
BLOCK = 64


def swiss_round(
    players: Sequence[str], past: Sequence[Sequence[Outcome]], seeds: Mapping[str, float] | None = None
) -> list[Pairing]:
    """The pairings of the next round of a Swiss between `players`, the highest-ranked board first.

    `players` are those still in (withdrawn ones left out); `past` is every
    round played so far; `seeds` rank players of equal points (higher first,
    ratings say), then the order of `players` does. With an odd count the
    bye (last) goes to the lowest-ranked player without one whose absence
    leaves a field that can be paired without a repeat; when no such
    absence does, to the lowest-ranked without one all the same, and the
    round repeats as few pairings as it can. Only once everyone has had a
    bye does anyone get a second.
    """
    found = histories(past, players)
    ranked = ranking(players, found, seeds or {})
    if len(ranked) < 2:
        return [Pairing(player, None) for player in ranked]
    sitting_out: list[Pairing] = []
    if len(ranked) % 2:
        due = bye_due(ranked, found)
        for candidate in due:
            pairs = paired([p for p in ranked if p != candidate], found, repeats=False)
            if pairs is not None:
                break
        else:
            # Whoever of them sits out, the others must repeat a pairing: a second bye (a
            # second free point) would be the worse wrong, so the first in line sits out.
            candidate = due[0]
            pairs = paired([p for p in ranked if p != candidate], found, repeats=True)
        sitting_out.append(Pairing(candidate, None))
    else:
        pairs = paired(ranked, found, repeats=False) or paired(ranked, found, repeats=True)
    # With repeats allowed every pair is an edge: an even field always has a perfect matching.
    assert pairs is not None
    return [Pairing(*seats(a, b, found)) for a, b in pairs] + sitting_out


def within_the_rules(pairings: Iterable[Pairing], past: Sequence[Sequence[Outcome]]) -> bool:
    """Whether a round pairs no two players who have met and gives no one a second bye.

    swiss_round breaks one of these only when no round keeps both (a field
    too small for its rounds); a tournament ends there instead of playing it.
    """
    found = histories(past)
    for pairing in pairings:
        history = found.get(pairing.first)
        if history is None:
            continue
        if pairing.second is None and history.byes:
            return False
        if pairing.second is not None and pairing.second in history.opponents:
            return False
    return True


def ranking(players: Sequence[str], found: Mapping[str, History], seeds: Mapping[str, float]) -> list[str]:
    """`players` best first: by points, then seed (higher first), then the order given."""
    field = list(dict.fromkeys(players))
    order = sorted(range(len(field)), key=lambda i: (-found[field[i]].points, -seeds.get(field[i], 0.0), i))
    return [field[i] for i in order]


def bye_due(ranked: Sequence[str], found: Mapping[str, History]) -> list[str]:
    """Who may sit out, in order: those without a bye (the fewest byes once everyone has had
    one), lowest-ranked first."""
    fewest = min(found[player].byes for player in ranked)
    return [player for player in reversed(ranked) if found[player].byes == fewest]


def seats(a: str, b: str, found: Mapping[str, History]) -> tuple[str, str]:
    """`a` and `b` (`a` ranked higher) in the contract's seats: the one moving first first.

    The player who has started fewer games starts; on a tie the one who did
    not start last; on a tie still the higher-ranked.
    """
    first, second = found[a], found[b]
    if first.starts != second.starts:
        return (a, b) if first.starts < second.starts else (b, a)
    if bool(first.started_last) != bool(second.started_last):
        return (b, a) if first.started_last else (a, b)
    return (a, b)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a player stands in the field being paired."""

    points: int
    group: int  # its score group's number, 0 for the highest
    position: int  # its place within the group, 0 for the highest
    size: int  # the group's size


def places(ranked: Sequence[str], found: Mapping[str, History]) -> list[Place]:
    """Each ranked player's place, in the same order."""
    groups: list[list[str]] = []
    for player in ranked:
        if groups and found[groups[-1][0]].points == found[player].points:
            groups[-1].append(player)
        else:
            groups.append([player])
    return [
        Place(found[player].points, number, position, len(group))
        for number, group in enumerate(groups)
        for position, player in enumerate(group)
    ]


def paired(
    ranked: Sequence[str],
    found: Mapping[str, History],
    repeats: bool,
    windows: Sequence[int | None] = WINDOWS,
    block: int | None = BLOCK,
) -> list[tuple[str, str]] | None:
    """Every player of `ranked` (an even count) paired, each pair higher-ranked first, the best board
    first; None when no such round exists (without a repeat unless `repeats`).

    The field is paired in blocks of whole score groups (see BLOCK; None: one block), each
    block over the windows' edges. A block that cannot be paired so joins the next one; if
    the last cannot, the whole field is paired at once, window by window (None: every pair).
    """
    where = places(ranked, found)
    if block is not None:
        narrow = [window for window in windows if window is not None]
        # (where a block starts, its pairs), top to bottom.
        solved: list[tuple[int, list[tuple[str, str]]]] = []
        start = 0
        for end in block_ends(where, block):
            pairs = first_matching(ranked[start:end], where[start:end], found, narrow, repeats)
            if pairs is not None:
                solved.append((start, pairs))
                start = end
        # The foot of the field could not be paired alone: it joins the blocks above, one by one.
        while start < len(ranked) and solved:
            start, _ = solved.pop()
            pairs = first_matching(ranked[start:], where[start:], found, narrow, repeats)
            if pairs is not None:
                solved.append((start, pairs))
                start = len(ranked)
        if start == len(ranked):
            return [pair for _, pairs in solved for pair in pairs]
    return first_matching(ranked, where, found, windows, repeats)


def block_ends(where: Sequence[Place], block: int) -> list[int]:
    """Where the blocks end: at the end of a score group once a block holds at least `block`
    players, an even count (so no group floats into the next block for want of a partner)."""
    ends = []
    start = 0
    for i in range(1, len(where) + 1):
        at_group_end = i == len(where) or where[i].group != where[i - 1].group
        if at_group_end and i - start >= block and (i - start) % 2 == 0:
            ends.append(i)
            start = i
    # The players left after the last full block join it.
    if start < len(where):
        ends[-1:] = [len(where)]
    return ends


def first_matching(
    ranked: Sequence[str],
    where: Sequence[Place],
    found: Mapping[str, History],
    windows: Sequence[int | None],
    repeats: bool,
) -> list[tuple[str, str]] | None:
    """The cheapest perfect matching of `ranked` over the first window's edges that hold one."""
    for window in windows:
        candidates = combinations(range(len(ranked)), 2) if window is None else plausible_pairs(where, window)
        pairs = best_matching(ranked, where, found, candidates, repeats)
        if pairs is not None:
            return pairs
    return None


def plausible_pairs(where: Sequence[Place], window: int) -> list[tuple[int, int]]:
    """The pairs (i < j, by rank) offered to the matching within `window`: see the module's docstring."""
    pairs: list[tuple[int, int]] = []
    for i, here in enumerate(where):
        half = here.size // 2
        # Within the group: every pair of a small group, else a distance near half its size.
        group_end = i - here.position + here.size
        if here.size <= 2 * window + 2:
            pairs.extend((i, j) for j in range(i + 1, group_end))
        else:
            low, high = max(i + 1, i + half - window), min(group_end, i + half + window + 1)
            pairs.extend((i, j) for j in range(low, high))
        # Down: the bottom of this group meets the next players below it, in however many
        # groups (a group of one or two at the foot of the field may have met the next group whole).
        if here.size - here.position <= window:
            pairs.extend((i, j) for j in range(group_end, min(len(where), group_end + window)))
    return pairs


def best_matching(
    ranked: Sequence[str],
    where: Sequence[Place],
    found: Mapping[str, History],
    candidates: Iterable[tuple[int, int]],
    repeats: bool,
) -> list[tuple[str, str]] | None:
    """The cheapest perfect matching over `candidates`, or None when they hold none."""
    costs = {}
    for i, j in candidates:
        met = found[ranked[i]].opponents.count(ranked[j])
        if met and not repeats:
            continue
        costs[(i, j)] = cost(ranked[i], ranked[j], where[i], where[j], met, found)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(ranked)))
    graph.add_weighted_edges_from(
        (i, j, weight) for (i, j), weight in weights(costs, len(ranked) // 2).items()
    )
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < len(ranked):
        return None
    return [(ranked[i], ranked[j]) for i, j in sorted((min(pair), max(pair)) for pair in matching)]


Cost = tuple[int, int, int, int]


def cost(a: str, b: str, here: Place, there: Place, met: int, found: Mapping[str, History]) -> Cost:
    """What pairing `a` with `b` (ranked below it) costs, tier by tier: see the module's docstring."""
    score = (here.points - there.points) ** 2
    first, second = (found[player] for player in seats(a, b, found))
    # How far past one either player's starts and seconds would then differ.
    drift = max(0, abs(first.starts + 1 - first.seconds) - 1) + max(
        0, abs(second.seconds + 1 - second.starts) - 1
    )
    same_seat = (first.started_last is True) + (second.started_last is False)
    starts = 2 * drift + same_seat
    return (met, score, starts, rank_cost(here, there) ** 2)


def rank_cost(here: Place, there: Place) -> int:
    """How far a pair (`here` ranked higher) is from the pairs the ranking would make, before squaring.

    Within a group the ideal opponent sits half the group further down; a pair from one
    half costs more than any pair across the halves. A floater should be the lowest of
    its group and meet the highest of the next.
    """
    if here.group != there.group:
        return (here.size - 1 - here.position) + there.position
    half = here.size // 2
    off = abs(there.position - here.position - half)
    across = here.position < half <= there.position
    return off if across else half + off


def weights(costs: Mapping[tuple[int, int], Cost], pairs: int) -> dict[tuple[int, int], int]:
    """Each edge's weight: the lexicographic costs folded into one integer, largest for the cheapest.

    A tier's multiplier exceeds what every tier below it can add over `pairs` pairs,
    so no saving below can pay for a unit more above.
    """
    if not costs:
        return {}
    multipliers = [1]
    for tier in (3, 2, 1):
        most = max(c[tier] for c in costs.values())
        multipliers.insert(0, multipliers[0] * (pairs * most + 1))
    folded = {edge: sum(m * c for m, c in zip(multipliers, tiers)) for edge, tiers in costs.items()}
    top = max(folded.values()) + 1
    return {edge: top - value for edge, value in folded.items()}
