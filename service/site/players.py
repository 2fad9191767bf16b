"""Player identities: a name, an id, a Glicko-2 rating and a secret token shown once.

There is no email and no password. The token is `<player id>.<secret>`: the
id part lets the service find the player in one read, the secret is what
proves it, stored only as its SHA-256 (records.token_hash) and compared in
constant time, like a seat token. A seat token (token_urlsafe) never holds a
`.`, so the two kinds never meet.

A player token acts for every seat its player holds: a game's record keeps,
beside each seat's token hash, the hash of the player token of the player
who holds it (records.GameRecord.seat_of), so a move with a player token
costs no extra read.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from service.games.jsontext import compact, parse
from service.games.records import could_be_game_id, new_game_id, now_rfc3339, token_hash
from service.games.refusals import InvalidToken, MissingToken, PlayerNotFound
from service.games.values import Holder
from service.ratings import Rating

PLAYER_FORMAT = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerRecord:
    """One player as stored."""

    id: str
    name: str
    token_hash: str
    created_at: str
    rating: Rating = field(default_factory=Rating)
    rated_games: int = 0
    # A bot account: an outside engine playing through the API (docs/engine-protocol.md).
    bot: bool = False

    def owns(self, token: str) -> bool:
        """Whether `token` is this player's, compared in constant time."""
        return hmac.compare_digest(token_hash(token), self.token_hash)

    def holder(self) -> Holder:
        """The player as the game-play core knows a seat's holder."""
        return Holder(self.id, self.name, self.token_hash, self.bot)

    def rated(self, rating: Rating) -> PlayerRecord:
        """The record after one more rated game, ending at `rating`."""
        return replace(self, rating=rating, rated_games=self.rated_games + 1)

    def profile(self) -> dict[str, Any]:
        """The public `Player` profile (GET /players/{id})."""
        return {
            "id": self.id,
            "name": self.name,
            "rating": round(self.rating.rating),
            "rd": round(self.rating.rd),
            "games": self.rated_games,
            "created_at": self.created_at,
            "bot": self.bot,
        }

    def encode(self) -> str:
        return compact(
            {
                "format": PLAYER_FORMAT,
                "id": self.id,
                "name": self.name,
                "token_hash": self.token_hash,
                "created_at": self.created_at,
                "rating": self.rating.to_json(),
                "rated_games": self.rated_games,
                # Left out of a person's record: records written before bot accounts read the same.
                **({"bot": True} if self.bot else {}),
            }
        )

    @classmethod
    def decode(cls, text: str) -> PlayerRecord:
        doc = parse(text)
        if doc.get("format") != PLAYER_FORMAT:
            raise ValueError(f"unknown player record format {doc.get('format')!r}")
        return cls(
            id=doc["id"],
            name=doc["name"],
            token_hash=doc["token_hash"],
            created_at=doc["created_at"],
            rating=Rating.from_json(doc["rating"]),
            rated_games=int(doc["rated_games"]),
            bot=bool(doc.get("bot", False)),
        )


def new_player(name: str, bot: bool = False) -> tuple[PlayerRecord, str]:
    """A fresh player (a bot account when `bot`) and its token (never stored)."""
    player_id = new_game_id()  # the same form: 128 random bits, URL-safe
    token = f"{player_id}.{secrets.token_urlsafe(32)}"
    return PlayerRecord(
        id=player_id, name=name, token_hash=token_hash(token), created_at=now_rfc3339(), bot=bot
    ), token


def player_id_of(token: str) -> str | None:
    """The player id a player token names, or None when `token` is not in a player token's form."""
    player_id, dot, secret = token.partition(".")
    if not dot or not secret or not could_be_game_id(player_id):
        return None
    return player_id


def check_player_id(player_id: str) -> None:
    """Refuse an id the service never issues before the store is asked (a `}` would break a hash tag)."""
    if not could_be_game_id(player_id):
        raise PlayerNotFound(player_id)


def authenticated(token: str | None, load: Callable[[str], PlayerRecord | None]) -> PlayerRecord:
    """The player whose token this is (`load`: player id -> PlayerRecord | None); MissingToken, InvalidToken."""
    if token is None:
        raise MissingToken.for_player()
    player_id = player_id_of(token)
    player = None if player_id is None else load(player_id)
    if player is None or not player.owns(token):
        raise InvalidToken.for_player()
    return player
