"""Why the game-play core turns a request down, as typed errors carrying the API's stable code.

Each code's entry in the catalogue (catalogue.py) says how the API answers
it; the engine's own `RuleError`s reach it as `RuleBroken`, with the
engine's code. Each carries its detail as a `Text`, so the API can give
it in the language a request asked for; `str()` is the English.
"""

from __future__ import annotations

from service.engine import RuleError
from service.engine.errors import ExplainedError
from service.languages import N_, Text
from service.problems import CATALOGUE, ProblemType

from .records import could_be_game_id


class Refusal(Exception):
    """A request the game-play core turns down."""

    code = "refused"
    # Whether an Idempotency-Key records it, so a retry gets it again: the
    # refusals of the move itself (the rules, the expected version), judged
    # on a game version. Not who asked (a token): that is answered anew.
    recorded = False
    # The version of the game the request was judged on, when it was judged
    # on one (a refusal recorded for an Idempotency-Key carries its ETag).
    version: int | None = None

    def __init__(self, detail: str | Text):
        super().__init__(str(detail))
        self.text = detail if isinstance(detail, Text) else Text(detail)
        self.detail = str(detail)
        # The headers whose value is this answer's own (its entry's `varying_headers`: a Retry-After).
        self.headers: dict[str, str] = {}

    @property
    def entry(self) -> ProblemType:
        """How the API answers this refusal (NotABot, the bot worker's alone, has no entry)."""
        return CATALOGUE[self.code]


# What a move does, as the engine names it in its messages ("seat 1 cannot {action}"), said as a
# verb of each language: an English word inside a translated sentence reads as a fault.
ACTIONS = {
    "advance": N_("advance"),
    "buy": N_("buy a patch"),
    "place leather": N_("place a leather patch"),
    "resign": N_("resign"),
    "timeout": N_("run out of time"),
    "abort": N_("abort the game"),
    "move": N_("move"),
}


def explained(error: ExplainedError) -> Text:
    """An engine error's message and values as a `Text`, the action it names among the messages too."""
    values = dict(error.values)
    action = values.get("action")
    if isinstance(action, str) and action in ACTIONS:
        values["action"] = Text(ACTIONS[action])
    return Text(error.message, values)


class RuleBroken(Refusal):
    """The engine refused the move (game finished, not your turn, cannot afford, ...)."""

    recorded = True

    def __init__(self, error: RuleError):
        super().__init__(explained(error))
        self.code = error.code


class GameNotFound(Refusal):
    """No game has this id (never made, or expired)."""

    code = "game_not_found"

    def __init__(self, game_id: str):
        if could_be_game_id(game_id):
            super().__init__(Text("No game with id {game_id}.", {"game_id": repr(game_id)}))
        else:
            # Not repeated: it could be anything a client put in the URL.
            super().__init__(
                Text("No game has this id: game ids are 22 characters from A-Z, a-z, 0-9, - and _.")
            )


class VersionNotFound(Refusal):
    """A version the game has not reached (or, for a game stored before replays were possible, cannot be rebuilt)."""

    code = "not_found"


class MissingToken(Refusal):
    """A request that acts for a seat (or for a player: `for_player`) came without a token."""

    code = "missing_token"

    def __init__(self, detail: Text | None = None) -> None:
        super().__init__(Text("Send Authorization: Bearer <seat token>.") if detail is None else detail)

    @classmethod
    def for_player(cls) -> MissingToken:
        """Where a player acts (its profile, the lobby, seeks): the advice names the player token, not a seat's."""
        return cls(Text("Send Authorization: Bearer <player token>, the token POST /players returned."))


class InvalidToken(Refusal):
    """The token acts for neither seat of this game (or, `for_player`, is not a player's token)."""

    code = "invalid_token"

    def __init__(self, detail: Text | None = None) -> None:
        # A seat's player's token acts for the seat too: the detail names no kind of token.
        super().__init__(Text("This token acts for neither seat of this game.") if detail is None else detail)

    @classmethod
    def for_player(cls) -> InvalidToken:
        """Where a player acts: no game is involved, so the refusal names none."""
        return cls(Text("This is not a player token: send the token POST /players returned."))


class VersionMismatch(Refusal):
    """The move was sent for versions the game is no longer at."""

    code = "version_mismatch"
    recorded = True

    def __init__(self, version: int, source: str):
        # What the client sent is not echoed: a recorded refusal must stay small.
        super().__init__(
            Text(
                "The game is at version {version}, which {source} does not name.",
                {"version": version, "source": source},
            )
        )


class IdempotencyKeyInUse(Refusal):
    """The first request with this Idempotency-Key is still running."""

    code = "idempotency_key_in_use"

    def __init__(self) -> None:
        super().__init__(Text("The first request with this Idempotency-Key is still running."))


class IdempotencyKeyReused(Refusal):
    """This Idempotency-Key was claimed by a request with another body."""

    code = "idempotency_key_reused"

    def __init__(self) -> None:
        super().__init__(Text("This Idempotency-Key was used with a different body."))


class GameBusy(Refusal):
    """The compare-and-set kept losing: something is hammering the game."""

    code = "storage_unavailable"

    def __init__(self) -> None:
        super().__init__(Text("The game is changing too fast; try again."))


class BotsUnavailable(Refusal):
    """A game with a bot seat was asked for while no bot worker is alive to play it."""

    code = "bots_unavailable"

    def __init__(self) -> None:
        super().__init__(
            Text("No bot worker has been seen alive recently, so no bot could play; try again shortly.")
        )


class BotsBusy(Refusal):
    """A game on a real-time clock with a bot seat was asked for while the live bot workers have all they can serve."""

    code = "bots_busy"

    def __init__(self) -> None:
        super().__init__(
            Text(
                "The bot workers already play as many games on a clock as they can without a bot losing on time;"
                " try again shortly, or without a clock."
            )
        )


class NotABot(Refusal):
    """A bot's move was offered for a seat a person plays (or none: the game is over)."""

    code = "not_a_bot"

    def __init__(self, seat: int | None) -> None:
        super().__init__(
            Text("Seat {seat} is not a bot's: only a bot's seat is played for it.", {"seat": seat})
        )


class GameNotStarted(Refusal):
    """A move in a game whose open seat nobody has joined yet."""

    code = "game_not_started"
    recorded = True

    def __init__(self) -> None:
        super().__init__(
            Text("The game waits for an opponent to join its open seat (POST /games/{id}/join).")
        )


class PlayerNotFound(Refusal):
    """No player has this id."""

    code = "player_not_found"

    def __init__(self, player_id: str):
        if could_be_game_id(player_id):
            super().__init__(Text("No player with id {player_id}.", {"player_id": repr(player_id)}))
        else:
            super().__init__(
                Text("No player has this id: player ids are 22 characters from A-Z, a-z, 0-9, - and _.")
            )


class GameNotFinished(Refusal):
    """A rematch or an analysis asked for while the game is still being played."""

    code = "game_not_finished"

    @classmethod
    def for_rematch(cls) -> GameNotFinished:
        return cls(Text("A rematch can be asked for once the game is finished."))

    @classmethod
    def for_analysis(cls, game_id: str) -> GameNotFinished:
        return cls(
            Text(
                "Game {game_id} is still being played: only a finished game can be analysed.",
                {"game_id": repr(game_id)},
            )
        )


class SeekNotFound(Refusal):
    """No seek of this player has this id (never made, another player's, or gone)."""

    code = "not_found"

    def __init__(self) -> None:
        super().__init__(Text("No seek of yours has this id (seeks are readable an hour after they end)."))


class SeatNeverTaken(Refusal):
    """A rematch of a game one of whose seats nobody ever held (its open seat was never joined)."""

    code = "seat_never_taken"

    def __init__(self) -> None:
        super().__init__(
            Text("Nobody ever joined this game's open seat: there is nobody to play its rematch against.")
        )


class TournamentGame(Refusal):
    """A rematch of a tournament's game: the tournament alone pairs its players."""

    code = "tournament_game"

    def __init__(self) -> None:
        super().__init__(
            Text(
                "This game was paired by a tournament: its players meet again only when the tournament pairs them."
            )
        )


class TakebackNotAllowed(Refusal):
    """A takeback asked for where there is none to give: a rated or tournament game, a finished one, nothing played yet,
    or by a seat that did not act last."""

    code = "takeback_not_allowed"

    @classmethod
    def rated(cls) -> TakebackNotAllowed:
        return cls(Text("A rated game has no takebacks: each move stands."))

    @classmethod
    def tournament(cls) -> TakebackNotAllowed:
        return cls(Text("A tournament's game has no takebacks: each move stands."))

    @classmethod
    def finished(cls) -> TakebackNotAllowed:
        return cls(Text("The game is finished: its moves stand."))

    @classmethod
    def nothing_played(cls) -> TakebackNotAllowed:
        return cls(Text("Nothing has been played yet: there is no turn to take back."))

    @classmethod
    def not_last(cls, seat: int) -> TakebackNotAllowed:
        return cls(
            Text(
                "Only the seat that acted last can ask to take its turn back: seat {seat} did.",
                {"seat": seat},
            )
        )


class OfferNotFound(Refusal):
    """No offer of this kind stands on the game (never made, answered, or expired)."""

    code = "offer_not_found"

    def __init__(self, kind: str):
        if kind == "rematch":
            super().__init__(
                Text("No rematch offer stands on this game: none was made, or it was answered or expired.")
            )
        else:
            super().__init__(
                Text("No takeback offer stands on this game: none was made, or it was answered or expired.")
            )


class SeatTaken(Refusal):
    """A join for a game with no open seat left (another joiner won it), or one's own game."""

    code = "seat_taken"


def entry_of(refused: Refusal | RuleError) -> ProblemType:
    """The catalogue entry of a refusal, or of an engine rule error that reached the API unwrapped."""
    return refused.entry if isinstance(refused, Refusal) else CATALOGUE[refused.code]


class NoAnalysis(Refusal):
    """GET /games/{id}/analysis of a game whose analysis nobody asked for."""

    code = "analysis_not_requested"

    def __init__(self, game_id: str):
        super().__init__(
            Text(
                "Nobody asked for the analysis of game {game_id}: POST /games/{path}/analysis first.",
                {"game_id": repr(game_id), "path": game_id},
            )
        )


class NameFixed(Refusal):
    """A seat's name asked to change where it cannot: a player's seat, or a finished game."""

    code = "name_fixed"


class TooManyWaiting(Refusal):
    """A player asked for another open game or seek while holding as many as it may at once."""

    code = "too_many_waiting"


class RatedNotPossible(Refusal):
    """A rated game asked for that cannot be one: no clock, no player on a side, a bot seat (a lobby game, a challenge)."""

    code = "rated_not_possible"


class PlayerRequired(Refusal):
    """A rated game's seat taken, or a rated open challenge accepted, under a name alone."""

    code = "player_required"

    def __init__(self) -> None:
        super().__init__(
            Text("A rated game is played between players: send your player token (POST /players makes one).")
        )


def no_version(current: int, version: int) -> VersionNotFound:
    """The refusal of a version the game has not reached."""
    return VersionNotFound(
        Text(
            "The game is at version {current}; there is no version {version}.",
            {"current": current, "version": version},
        )
    )
