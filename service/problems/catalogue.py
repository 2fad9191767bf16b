"""Every problem `code` the service answers with, one entry each: its HTTP status, title, help and headers.

The API builds each problem+json body, each problem page (`/problems/<code>`)
and each `patchwork_moves_total` refusal label from these entries, and
tests hold openapi.yaml's ProblemCode list and docs/api-guide.md's error
table to them; so adding an error is one entry here (and the docs those
tests ask for). Like werkzeug's exception classes, each entry is everything
about its error.

It lives in the game-play core, plain data importing nothing, so the core's
refusals find their entry (`Refusal.entry`) without knowing the web layer;
the statuses are plain ints the core never acts on. Text in `backticks` is
shown as code on the problem pages. Titles and help are English messages
of the catalogues (service/languages): the API shows them in the
language a request negotiated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from service.languages import N_

RETRY_AFTER_SECONDS = "1"
# Bot workers beat every 2 s: one started or restarted now is seen within a few seconds.
BOTS_RETRY_AFTER_SECONDS = "5"
# The store's room comes back as games expire or an operator adds memory: not within a second.
STORE_RESERVE_RETRY_AFTER_SECONDS = "60"

RETRY_LATER = N_(
    "Wait the `Retry-After` seconds and send the same request again (with the same `Idempotency-Key`)."
)
FIX_REQUEST = N_(
    "Fix the request: `detail` (and `errors`, when present) say what is wrong. Sending it again unchanged gets the same answer."
)


@dataclass(frozen=True)
class ProblemType:
    """One error of the API: what its answers carry and what its page says."""

    code: str
    status: int
    title: str
    # The problem page: when it happens, what to do about it.
    when: str
    what_to_do: str
    # Headers every answer of this code carries, with their values.
    headers: Mapping[str, str] = field(default_factory=dict)
    # Headers every answer carries with a value of that answer's own, given where it is raised
    # (the methods a path allows, the seconds a rate limit has left).
    varying_headers: tuple[str, ...] = ()
    # False for the codes openapi.yaml and the guide's error table leave out: what the gunicorn
    # worker answers to requests no operation could describe (408, 417, 501, listed in
    # docs/operations.md#the-worker-model-and-why) and the 500 that should never happen.
    in_spec: bool = True


_ENTRIES = (
    ProblemType(
        code="invalid_json",
        status=400,
        title=N_("Body is not JSON"),
        when=N_(
            "The body could not be read as JSON: a syntax error, text that is not UTF-8, `NaN`, "
            "nesting too deep, or half of a UTF-16 surrogate pair escaped alone."
        ),
        what_to_do=FIX_REQUEST,
    ),
    ProblemType(
        code="invalid_request",
        status=400,
        title=N_("Request does not match the API"),
        when=N_(
            "The request is JSON (or has no body) but breaks the API document `openapi.yaml`: a missing "
            "or unknown field, a value of the wrong type or out of range, a malformed header such as an "
            "unquoted `If-Match`, a bad query or path parameter, or HTTP that could not be parsed at all. "
            "`errors` lists each fault with a `pointer` into the body, a `parameter` or a `header`."
        ),
        what_to_do=FIX_REQUEST,
    ),
    ProblemType(
        code="missing_token",
        status=401,
        title=N_("Bearer token required"),
        when=N_(
            "A request that acts for a seat of a game, or for a player, was sent without "
            "`Authorization: Bearer <token>`."
        ),
        what_to_do=N_(
            "Send the token of whoever acts: for a seat, the seat token that `POST /games` (or the join) "
            "returned, or its player's token; for a player (`/players/me`, the lobby, seeks), the player "
            "token that `POST /players` returned."
        ),
        headers={"WWW-Authenticate": "Bearer"},
    ),
    ProblemType(
        code="invalid_token",
        status=401,
        title=N_("Token not accepted"),
        when=N_(
            "The bearer token cannot act here: for a game, it acts for neither of its seats (neither "
            "seat token, nor a seated player's token); where a player acts, it is not a player token; "
            "for a player's event stream, the ticket is unknown, used or expired."
        ),
        what_to_do=N_(
            "Use the token that was returned when the seat or the player was made (`POST /games`, the "
            "join, `POST /players`); tokens are never shown again."
        ),
        headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
    ),
    ProblemType(
        code="game_not_found",
        status=404,
        title=N_("No such game"),
        when=N_(
            "No game has this id: it was never created, or it expired (games expire some time after "
            "their last move)."
        ),
        what_to_do=N_("Check the id, or create a new game with `POST /games`."),
    ),
    ProblemType(
        code="player_not_found",
        status=404,
        title=N_("No such player"),
        when=N_("No player has this id: it was never created (`POST /players`)."),
        what_to_do=N_("Check the id."),
    ),
    ProblemType(
        code="not_found",
        status=404,
        title=N_("No such resource"),
        when=N_(
            "Nothing is served at this URL: an unknown path, a move number past the end of the "
            "history, a patch id outside 1 to 33, or a problem page that does not exist."
        ),
        what_to_do=N_("See the paths of `GET /openapi.yaml` (or `/docs`)."),
    ),
    ProblemType(
        code="method_not_allowed",
        status=405,
        title=N_("Method not allowed"),
        when=N_("The path exists, but not with this HTTP method."),
        what_to_do=N_("Use one of the methods the `Allow` header lists."),
        varying_headers=("Allow",),
    ),
    ProblemType(
        code="game_finished",
        status=409,
        title=N_("Game is finished"),
        when=N_("A move was sent to a game that has ended."),
        what_to_do=N_("Nothing more can be played in this game; read its `result`."),
    ),
    ProblemType(
        code="game_not_finished",
        status=409,
        title=N_("Game is not finished"),
        when=N_("A rematch or an analysis was asked for while the game is still being played."),
        what_to_do=N_("Ask again once the game's `status` is `finished`."),
    ),
    ProblemType(
        code="analysis_not_requested",
        status=404,
        title=N_("No analysis requested"),
        when=N_("`GET /games/{id}/analysis` of a game whose analysis nobody asked for."),
        what_to_do=N_("`POST /games/{id}/analysis` first (finished games only), then follow its `Location`."),
    ),
    ProblemType(
        code="not_your_turn",
        status=409,
        title=N_("Not your turn"),
        when=N_("The token belongs to the seat that is not in `turn`."),
        what_to_do=N_(
            "Wait for the other seat's move (read the game again, or follow `/games/{id}/events`)."
        ),
    ),
    ProblemType(
        code="wrong_phase",
        status=409,
        title=N_("Move not allowed in this phase"),
        when=N_(
            "The move does not fit the game's `phase`: for example a `buy` or `advance` while a "
            "leather patch must be placed first, or `place_leather` when none is due."
        ),
        what_to_do=N_("Read the game's `phase` (or its legal moves) and send a move of that phase."),
    ),
    ProblemType(
        code="game_not_started",
        status=409,
        title=N_("Game waits for an opponent"),
        when=N_("A move (or resign) in a game with an open seat that nobody has joined yet."),
        what_to_do=N_(
            "Wait for a joiner: follow `/games/{id}/events`, your player stream, or read the game again."
        ),
    ),
    ProblemType(
        code="seat_taken",
        status=409,
        title=N_("No open seat to take"),
        when=N_(
            "`POST /games/{id}/join` for a game whose open seat another joiner has just taken (exactly "
            "one joiner wins each seat), that has none, whose lobby time is up, or that the joining player "
            "already plays in."
        ),
        what_to_do=N_("Pick another game from `GET /games?status=open`, or seek a game with `POST /seeks`."),
    ),
    ProblemType(
        code="seat_never_taken",
        status=409,
        title=N_("A seat was never taken"),
        when=N_(
            "`POST /games/{id}/rematch` of a game whose open seat nobody joined before it was aborted: "
            "its rematch would have a seat nobody holds."
        ),
        what_to_do=N_("Open a new game (`POST /games` with an open seat) or seek one with `POST /seeks`."),
    ),
    ProblemType(
        code="takeback_not_allowed",
        status=409,
        title=N_("Takeback not allowed"),
        when=N_(
            "`POST /games/{id}/takeback` in a rated game, a tournament game or a finished one, before any "
            "move, or by the seat that did not act last (unless it answers the other's offer)."
        ),
        what_to_do=N_("Play on: takebacks are for casual games, asked for by the seat that just played."),
    ),
    ProblemType(
        code="tournament_game",
        status=409,
        title=N_("A tournament's game"),
        when=N_(
            "`POST /games/{id}/rematch` of a tournament's game: its players meet again only when the "
            "tournament pairs them."
        ),
        what_to_do=N_(
            "Play on in the tournament (`GET /tournaments/{id}`), or challenge the player to a game of your "
            "own (`POST /challenges`)."
        ),
    ),
    ProblemType(
        code="offer_not_found",
        status=404,
        title=N_("No such offer"),
        when=N_(
            "`DELETE /games/{id}/rematch` or `DELETE /games/{id}/takeback` when no offer of that kind "
            "stands on the game: none was made, it was answered, or it expired."
        ),
        what_to_do=N_("Read the game: its `offer` member shows the offer that stands, if any."),
    ),
    ProblemType(
        code="too_many_waiting",
        status=409,
        title=N_("Too many open games or seeks"),
        when=N_(
            "A player (or, for a game created without a player token, a client address) asked for "
            "another open game while holding `OPEN_GAMES_PER_PLAYER` open games nobody has joined, or "
            "for another seek while `SEEKS_PER_PLAYER` of its seeks wait."
        ),
        what_to_do=N_(
            "Wait until one is joined, paired or expires, or cancel a seek (`DELETE /seeks/{id}`); "
            "then ask again."
        ),
    ),
    ProblemType(
        code="challenge_not_found",
        status=404,
        title=N_("No such challenge"),
        when=N_(
            "No challenge has this id: it was never made, or it ended more than an hour ago (a challenge "
            "stays readable an hour after its expiry)."
        ),
        what_to_do=N_("Check the id, or make a new challenge with `POST /challenges`."),
    ),
    ProblemType(
        code="challenge_not_pending",
        status=409,
        title=N_("Challenge is over"),
        when=N_(
            "An accept, a decline or a withdrawal of a challenge that has already been accepted, declined, "
            "withdrawn or has expired. Exactly one of these ends a challenge, whatever races; `detail` "
            "says which did."
        ),
        what_to_do=N_(
            "Read the challenge (`GET /challenges/{id}`): an accepted one names its `game`. Otherwise make "
            "a new one."
        ),
    ),
    ProblemType(
        code="not_your_challenge",
        status=403,
        title=N_("Not your challenge"),
        when=N_(
            "A challenge made to another player was accepted or declined with your token, a challenge "
            "that is not yours was withdrawn, or an open challenge was declined (nobody is challenged)."
        ),
        what_to_do=N_(
            "Only the challenged player answers a challenge, and only its challenger withdraws it."
        ),
    ),
    ProblemType(
        code="blocked",
        status=403,
        title=N_("Blocked"),
        when=N_(
            "A challenge to a player who has blocked you (`POST /players/me/blocks/{id}`), or an "
            "acceptance of the open challenge of a player who has blocked you."
        ),
        what_to_do=N_("Nothing: that player does not take challenges from you."),
    ),
    ProblemType(
        code="bot_account",
        status=403,
        title=N_("Bot accounts play challenges only"),
        when=N_(
            'A bot account\'s player token (`POST /players` with `"bot": true`) sent where only people '
            "play: a seek, a game created holding a seat, a join of an open game, or organising or "
            "joining a tournament."
        ),
        what_to_do=N_(
            "Play through challenges: a bot account challenges players (`POST /challenges`) and accepts or "
            "declines the challenges made to it."
        ),
    ),
    ProblemType(
        code="cannot_target_self",
        status=422,
        title=N_("Not with yourself"),
        when=N_("A challenge to yourself, an acceptance of your own open challenge, or a block of yourself."),
        what_to_do=N_("Name another player, or share the challenge's link with someone else."),
    ),
    ProblemType(
        code="rated_not_possible",
        status=422,
        title=N_("Cannot be rated"),
        when=N_(
            "A rated challenge without a clock, or a rated lobby game (`POST /games` with "
            '`"rated": true`) without a clock, without a player token, with a bot seat or without '
            "exactly one open seat: a rated game is played on a clock between two players."
        ),
        what_to_do=N_("Give a `clock` and a player token, or ask for an unrated game."),
    ),
    ProblemType(
        code="player_required",
        status=403,
        title=N_("A player is required"),
        when=N_(
            "A rated game's open seat was joined, or a rated open challenge accepted, under a name "
            "without a player token: ratings belong to players."
        ),
        what_to_do=N_("Send your player token (`POST /players` makes one), or pick an unrated game."),
    ),
    # Tournaments (issue 39).
    ProblemType(
        code="tournament_not_found",
        status=404,
        title=N_("No such tournament"),
        when=N_("No tournament has this id."),
        what_to_do=N_("Check the id, or find one with `GET /tournaments?status=upcoming`."),
    ),
    ProblemType(
        code="not_organiser",
        status=403,
        title=N_("Not the organiser"),
        when=N_("A tournament was started or cancelled by a player other than its organiser."),
        what_to_do=N_("Only the player who created the tournament starts it early or cancels it."),
    ),
    ProblemType(
        code="rating_out_of_range",
        status=403,
        title=N_("Rating out of range"),
        when=N_(
            "A player whose rating is outside the tournament's `min_rating`..`max_rating` asked to join."
        ),
        what_to_do=N_("Join a tournament whose bounds include your rating."),
    ),
    ProblemType(
        code="tournament_full",
        status=409,
        title=N_("Tournament is full"),
        when=N_("A join of a tournament that has as many players as its `max_players`."),
        what_to_do=N_("Wait for a place (a player may withdraw before the start), or join another."),
    ),
    ProblemType(
        code="tournament_started",
        status=409,
        title=N_("Tournament has started"),
        when=N_("A join, an early start or a cancellation of a tournament that has already started."),
        what_to_do=N_("Read the tournament (`GET /tournaments/{id}`) to follow it."),
    ),
    ProblemType(
        code="tournament_over",
        status=409,
        title=N_("Tournament is over"),
        when=N_("A change to a tournament that is finished or was cancelled."),
        what_to_do=N_("Nothing: its results stand. Find another with `GET /tournaments`."),
    ),
    ProblemType(
        code="not_in_tournament",
        status=409,
        title=N_("Not in this tournament"),
        when=N_("A withdrawal from a tournament the player never joined."),
        what_to_do=N_("Nothing to withdraw from."),
    ),
    ProblemType(
        code="too_few_players",
        status=409,
        title=N_("Too few players"),
        when=N_("An early start of a tournament that fewer than 2 players have joined."),
        what_to_do=N_("Wait for more players; at its `starts_at` it is cancelled if still under 2."),
    ),
    ProblemType(
        code="starts_at_out_of_range",
        status=422,
        title=N_("Start time out of range"),
        when=N_("A tournament whose `starts_at` is less than 60 s or more than 30 days ahead."),
        what_to_do=N_("Pick a start between one minute and thirty days from now (RFC 3339, with an offset)."),
    ),
    ProblemType(
        code="webhook_not_found",
        status=404,
        title=N_("No such webhook"),
        when=N_("The player has no webhook with this id: it was never made, or it was removed."),
        what_to_do=N_("List your webhooks with `GET /players/me/webhooks`."),
    ),
    ProblemType(
        code="too_many_webhooks",
        status=409,
        title=N_("Too many webhooks"),
        when=N_("A player asked for another webhook while it has `WEBHOOKS_PER_PLAYER` of them."),
        what_to_do=N_("Remove one you no longer need (`DELETE /players/me/webhooks/{id}`), then ask again."),
    ),
    ProblemType(
        code="webhook_url_refused",
        status=422,
        title=N_("Webhook URL refused"),
        when=N_(
            "A webhook's URL is not `https`, carries a user name or password, or names a host that is, or "
            "resolves to, an address that is not public (loopback, private, link-local, multicast or "
            "reserved), or that does not resolve at all."
        ),
        what_to_do=N_("Give an `https` URL of a server reachable from the internet."),
    ),
    ProblemType(
        code="tournament_invalid",
        status=422,
        title=N_("Tournament does not fit together"),
        when=N_(
            "A tournament's fields that are each valid but not together: `rounds` for a round robin or "
            "none for a swiss, `max_players` over 20 for a round robin, `min_rating` above `max_rating`."
        ),
        what_to_do=N_("Follow `detail`, which names the field."),
    ),
    ProblemType(
        code="name_fixed",
        status=409,
        title=N_("Seat's name cannot change"),
        when=N_(
            "`POST /games/{id}/seat` for a seat a player holds (it bears the player's own name), or in a "
            "game that is over."
        ),
        what_to_do=N_(
            "Nothing to fix: a player's name is the one it chose with `POST /players`, and a finished "
            "game keeps the names it was played under."
        ),
    ),
    ProblemType(
        code="idempotency_key_in_use",
        status=409,
        title=N_("Idempotency key in use"),
        when=N_("A request with this `Idempotency-Key` is still being processed."),
        what_to_do=RETRY_LATER,
        headers={"Retry-After": RETRY_AFTER_SECONDS},
    ),
    ProblemType(
        code="version_mismatch",
        status=412,
        title=N_("Game has moved on"),
        when=N_(
            "The move's `If-Match` does not name the game's current version: the game has moved on "
            "since the client read it. Nothing was changed."
        ),
        what_to_do=N_(
            "Read the game again, decide again, and send a new move (with a new `Idempotency-Key`)."
        ),
    ),
    ProblemType(
        code="payload_too_large",
        status=413,
        title=N_("Body too large"),
        when=N_("The request body is over 64 KiB."),
        what_to_do=N_("No valid request is that large: send a smaller body."),
    ),
    ProblemType(
        code="uri_too_long",
        status=414,
        title=N_("Request line too long"),
        when=N_("The request line (method, path and query) is over 4094 bytes."),
        what_to_do=N_("No valid request is that long: shorten the path or the query."),
    ),
    ProblemType(
        code="unsupported_media_type",
        status=415,
        title=N_("Body of the wrong type"),
        when=N_(
            "A body was sent with a `Content-Type` other than the one the operation takes: "
            "`application/json`, or for `POST /games/import` `text/x-patchwork-record` or `text/plain`."
        ),
        what_to_do=N_(
            "Send the body with the `Content-Type` the operation takes: JSON as `application/json`, "
            "a game record as `text/x-patchwork-record`."
        ),
    ),
    ProblemType(
        code="patch_not_available",
        status=422,
        title=N_("Patch not in the market"),
        when=N_("The patch bought is not one of the three in the game's `market`."),
        what_to_do=N_("Buy one of the patches listed in `market` (see the legal moves)."),
    ),
    ProblemType(
        code="cannot_afford",
        status=422,
        title=N_("Not enough buttons"),
        when=N_("The seat has fewer buttons than the patch costs."),
        what_to_do=N_("Buy a cheaper patch, or `advance` to collect buttons."),
    ),
    ProblemType(
        code="does_not_fit",
        status=422,
        title=N_("Patch does not fit there"),
        when=N_(
            "The placement puts the patch off the 9x9 quilt, over cells already covered, or the "
            "cells given are not the patch's shape."
        ),
        what_to_do=N_(
            "Choose a placement among the patch's legal moves (`GET /games/{id}/legal-moves?patch_id=N`)."
        ),
    ),
    ProblemType(
        code="cell_occupied",
        status=422,
        title=N_("Cell already covered"),
        when=N_("The leather patch is placed on a cell that is already covered."),
        what_to_do=N_("Place it on an empty cell of the quilt."),
    ),
    ProblemType(
        code="invalid_record",
        status=422,
        title=N_("Record cannot be replayed"),
        when=N_(
            "`POST /games/import` with a game record (docs/records.md) that cannot be read or replayed: "
            "a malformed tag or move line, a token that is no move, a missing tag that sets the game up, "
            "a move the rules refuse, a `Result` or `Scores` the moves do not come to, or text that is "
            "not UTF-8. `detail` and `errors` name the line and the token."
        ),
        what_to_do=N_("Fix the record at the line `errors` names, and send it again."),
    ),
    ProblemType(
        code="record_not_finished",
        status=422,
        title=N_("Record of a game still running"),
        when=N_(
            "`POST /games/import` with a record whose moves leave the game running: only a finished "
            "game is imported."
        ),
        what_to_do=N_(
            "Send the record of a finished game, down to the move that ends it (both tokens at the end "
            "of the track, `resign`, `timeout` or `abort`)."
        ),
    ),
    ProblemType(
        code="idempotency_key_reused",
        status=422,
        title=N_("Idempotency key reused with another body"),
        when=N_("This `Idempotency-Key` was already used on this game with a different body."),
        what_to_do=N_("Use a new key for a new move; a key names exactly one request."),
    ),
    ProblemType(
        code="rate_limited",
        status=429,
        title=N_("Too many requests"),
        when=N_(
            "This client sent more requests of this kind than the service allows in its window, "
            "or holds as many event streams open as it may."
        ),
        what_to_do=N_(
            "Wait the `Retry-After` seconds (the `RateLimit-*` headers say how the limit stands; "
            "for streams, close one) and send it again."
        ),
        varying_headers=("Retry-After",),
    ),
    ProblemType(
        code="vacation_active",
        status=409,
        title=N_("A vacation runs already"),
        when=N_("`POST /players/me/vacation` while the player's vacation runs: one runs at a time."),
        what_to_do=N_(
            "Wait for it to end (`vacation_until` on `GET /players/me`), or end it "
            "(`DELETE /players/me/vacation`) and start a new one."
        ),
    ),
    ProblemType(
        code="vacation_days_short",
        status=409,
        title=N_("Not enough vacation days left"),
        when=N_(
            "`POST /players/me/vacation` asked for more days than this calendar year's bank "
            "(`VACATION_DAYS`) holds; nothing was charged."
        ),
        what_to_do=N_(
            "Ask for at most `vacation_days_left` days (`GET /players/me`); the bank is whole again on 1 January (UTC)."
        ),
    ),
    ProblemType(
        code="no_vacation",
        status=409,
        title=N_("Not on vacation"),
        when=N_("`DELETE /players/me/vacation` while no vacation runs (it ended, or none was started)."),
        what_to_do=N_("Nothing to end: your correspondence clocks run."),
    ),
    ProblemType(
        code="bot_games_per_day",
        status=429,
        title=N_("Bot against bot games used up"),
        when=N_(
            "An accepted challenge or rematch offer would start a game between two bot accounts, and one "
            "of them has played `BOT_GAMES_PER_DAY` games against bot accounts in the last 24 hours. "
            "No game was made; a challenge stays pending, a rematch offer stands."
        ),
        what_to_do=N_(
            "Wait the `Retry-After` seconds (until the oldest of those games is a day old) and accept "
            "again, or decline. Games against people are not counted."
        ),
        varying_headers=("Retry-After",),
    ),
    ProblemType(
        code="headers_too_large",
        status=431,
        title=N_("Request headers too large"),
        when=N_("The request has more than 50 header fields, or one over 8190 bytes."),
        what_to_do=N_("No valid request needs that many or that large headers: send fewer or shorter ones."),
    ),
    ProblemType(
        code="request_timeout",
        status=408,
        title=N_("Request not received in time"),
        when=N_("The request's body did not arrive within READ_TIMEOUT_SECONDS of its head."),
        what_to_do=N_("Send the body at once, with the headers; a slow or stalled upload is cut off."),
        in_spec=False,
    ),
    ProblemType(
        code="expectation_failed",
        status=417,
        title=N_("Expectation not met"),
        when=N_("The request sent an `Expect` header other than `100-continue`."),
        what_to_do=N_("Leave `Expect` out, or send `Expect: 100-continue`."),
        in_spec=False,
    ),
    ProblemType(
        code="unsupported_transfer_coding",
        status=501,
        title=N_("Transfer coding not supported"),
        when=N_("The request's `Transfer-Encoding` is not `chunked` (gzip, deflate, ... are not read)."),
        what_to_do=N_("Send the body as it is, with `Content-Length`, or chunked."),
        in_spec=False,
    ),
    ProblemType(
        code="storage_unavailable",
        status=503,
        title=N_("Storage unavailable"),
        when=N_("The game store (Redis) did not answer in time. Nothing that was not confirmed was changed."),
        what_to_do=RETRY_LATER,
        headers={"Retry-After": RETRY_AFTER_SECONDS},
    ),
    ProblemType(
        code="overloaded",
        status=503,
        title=N_("Service overloaded"),
        when=N_(
            "The service has more requests in hand than it can answer in time, so it refused this one "
            "at once rather than keep it waiting; the store is fine. Nothing was changed."
        ),
        what_to_do=RETRY_LATER,
        headers={"Retry-After": RETRY_AFTER_SECONDS},
    ),
    ProblemType(
        code="store_nearly_full",
        status=503,
        title=N_("Store nearly full"),
        when=N_(
            "A new game, player, seek or rematch was asked for while the store (Redis) is nearly full: "
            "its last room (`STORE_RESERVE_PERCENT` of its `maxmemory`) is kept for the games in progress, "
            "whose moves, resignations and timeouts go on. Nothing was created."
        ),
        what_to_do=N_(
            "Wait the `Retry-After` seconds and ask again. Operators: give Redis more `maxmemory`, or "
            "shorten `GAME_TTL_SECONDS`."
        ),
        headers={"Retry-After": STORE_RESERVE_RETRY_AFTER_SECONDS},
    ),
    ProblemType(
        code="bots_unavailable",
        status=503,
        title=N_("No bot worker available"),
        when=N_(
            "A game with a computer player was asked for, but no bot worker has been seen alive "
            "recently, so nobody would play the bot's seat. No game was created."
        ),
        what_to_do=N_(
            "Wait the `Retry-After` seconds and create the game again. Operators: run `patchwork-worker` "
            "(or `patchwork-service` with `BOT_WORKERS` of 1 or more) against the same Redis."
        ),
        headers={"Retry-After": BOTS_RETRY_AFTER_SECONDS},
    ),
    ProblemType(
        code="bots_busy",
        status=503,
        title=N_("Bot workers busy"),
        when=N_(
            "A game on a real-time clock with a computer player was asked for, but the bot workers "
            "already play as many such games as they can without a bot losing on time. No game was created."
        ),
        what_to_do=N_(
            "Wait the `Retry-After` seconds and create the game again, or create it without a clock. "
            "Operators: run more bot workers (`BOT_WORKERS`), or allow each more games "
            "(`BOT_CLOCKED_GAMES_PER_WORKER`)."
        ),
        headers={"Retry-After": BOTS_RETRY_AFTER_SECONDS},
    ),
    ProblemType(
        code="internal_error",
        status=500,
        title=N_("Internal error"),
        when=N_("The service failed in a way it did not expect; the error was logged."),
        what_to_do=N_("Try again later; if it persists, report it with the request that caused it."),
        in_spec=False,
    ),
)

CATALOGUE: Mapping[str, ProblemType] = {entry.code: entry for entry in _ENTRIES}
