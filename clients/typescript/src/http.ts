// A typed wrapper over fetch for the Patchwork service.
//
// Every request it sends is safe to send again, so it retries what the
// service asks to be retried: 429 and 503 after their Retry-After, 409
// idempotency_key_in_use (the first try of a move still running), and a
// network error. Moves and resignations carry an Idempotency-Key, the same
// one on every retry, so a move is applied once however often it is sent.
// A repeated POST /games makes at most a game nobody uses. A request whose
// repetition would be answered as an error though the first one was applied
// (declining a challenge, withdrawing one, answering an offer, accepting a
// takeback, an early start of a tournament), or would do it twice (a
// challenge made, a tournament organised), is not sent again after a
// network error: the caller reads what became of it.
import type {
  Analysis,
  AnalysisPending,
  Bot,
  Challenge,
  CreateChallengeRequest,
  CreateGameRequest,
  CreatePlayerRequest,
  CreateTournamentRequest,
  DeclineChallengeRequest,
  Game,
  GameCreated,
  GamesPage,
  Hint,
  Health,
  JoinRequest,
  Joined,
  LegalMoves,
  LobbyPage,
  MoveRecord,
  MoveRequest,
  MyChallenges,
  MyGames,
  MyProfile,
  NameSeatRequest,
  Offer,
  OfferBody,
  OfferEvent,
  Patch,
  PlayerEvent,
  PlayerCreated,
  PlayerGameLine,
  PlayerProfile,
  Readiness,
  Rematch,
  Seat,
  Seek,
  CreateSeekRequest,
  StreamTicket,
  Tournament,
  TournamentEvent,
  TournamentsPage,
  Vacation,
  NewWebhook,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
} from "./types.js";
import { ProblemError, problemOf, retryAfterMs, sleep } from "./answers.js";
import type { Outcome, Pending, QueryOf } from "./outcome.js";
import { follow, type FollowOptions, type GameEvent, type GameNotice } from "./follow.js";
import { followPlayer, type FollowPlayerOptions } from "./player-events.js";
import { followTournament, type FollowTournamentOptions } from "./tournament-events.js";

/** What `send` answers: the status (a 202 too: `send` leaves telling it apart to its caller), headers and body. */
export interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

const RETRIED_STATUSES = new Set([429, 503]);
const FIRST_BACKOFF_MS = 500;

export interface ClientOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Retries of one request after 429, 503, a move still in flight or a network error (default 5). */
  maxRetries?: number;
  /** The longest wait before a retry, whatever Retry-After says (default 30 000 ms). */
  maxRetryDelayMs?: number;
}

/** Which page of the list of tournaments (`tournaments`): those of one status, newest first. */
export interface TournamentsQuery {
  /** `finished` holds the cancelled ones too. */
  status: "upcoming" | "running" | "finished";
  /** The `next` of the page before; none for the first page. */
  cursor?: string;
}

/** Which page of a list of games, and which games (`listGames`). */
/** Which of a player's finished games `playerGames` reads (GET /players/{id}/games.ndjson). */
export interface PlayerGamesQuery {
  /** Only games that ended at or after this time (RFC 3339). */
  since?: string;
  /** Only games that ended at or before this time (RFC 3339). */
  until?: string;
  /** Only the rated games (true) or only the unrated ones (false); none: both. */
  rated?: boolean;
  /** The most games to read. */
  max?: number;
}

/** How `send` reads an answer's body: JSON (the default), text, or the stream itself. */
type Reading = "json" | "text" | "stream";

const RECORD_TYPE = "text/x-patchwork-record";

export interface GamesQuery {
  /** The `next` of the page before; none for the first page. */
  cursor?: string;
  /** Only the rated games. */
  rated?: boolean;
}

/** What else a new player is (`createPlayer`). */
export interface PlayerOptions {
  /** A bot account: an outside engine playing through the API, `bot: true` on its profile and its seats. */
  bot?: boolean;
}

/** How a picture of the board is drawn (`boardSvg`, `boardText`). */
export interface PictureOptions {
  /** Sent as Accept-Language: the language of the picture's words. */
  language?: string;
}

export interface MoveOptions {
  /** Sent as `If-Match: "<version>"`: the move is refused (412) if the game has moved on. */
  ifMatch?: number;
  /** The move's Idempotency-Key; by default a fresh random one, kept across this call's retries. */
  idempotencyKey?: string;
}

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

export class PatchworkClient {
  readonly baseUrl: string;
  /** The fetch every request goes through. */
  readonly fetch: typeof fetch;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;

  constructor(baseUrl: string, options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.maxRetries = options.maxRetries ?? 5;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  }

  /** GET /bots: the levels on offer, weakest first. */
  async bots(): Promise<Bot[]> {
    return (await this.send<{ bots: Bot[] }>("GET", "/bots")).body.bots;
  }

  // ---- The service itself, and the patches ----

  /** GET /healthz: the process runs (never retried: an answer is the point). */
  async health(): Promise<Health> {
    return (await this.send<Health>("GET", "/healthz", { retries: 0 })).body;
  }

  /** GET /readyz: the store answers, and whether bots can play (`bots`). A 503 (not ready) is thrown at once. */
  async ready(): Promise<Readiness> {
    return (await this.send<Readiness>("GET", "/readyz", { retries: 0 })).body;
  }

  /** GET /metrics: the Prometheus text exposition (a 404 where the service does not expose it). */
  async metrics(): Promise<string> {
    return (await this.send<string>("GET", "/metrics", { read: "text", accept: "text/plain" })).body;
  }

  /** GET /openapi.yaml: the contract this client's types were generated from, as the service serves it now. */
  async openapi(): Promise<string> {
    return (await this.send<string>("GET", "/openapi.yaml", { read: "text", accept: "application/yaml" })).body;
  }

  /** GET /patches: the catalogue of the 33 patches. */
  async patches(): Promise<Patch[]> {
    return (await this.send<{ patches: Patch[] }>("GET", "/patches")).body.patches;
  }

  /** GET /patches/{id}.svg: a patch's picture, turned and flipped as in a placement, captioned in `lang`. */
  async patchSvg(patchId: number, query: QueryOf<"getPatchSvg"> = {}): Promise<string> {
    const path = `/patches/${encodeURIComponent(String(patchId))}.svg${searchOf({ ...query })}`;
    return (await this.send<string>("GET", path, { read: "text", accept: "image/svg+xml" })).body;
  }

  /** POST /games: every field optional; no body at all when none is given. */
  async createGame(request?: CreateGameRequest): Promise<GameCreated> {
    return (await this.send<GameCreated>("POST", "/games", { body: request })).body;
  }

  /** GET /games/{id}, or the game as it was at `version`. */
  async game(gameId: string, version?: number): Promise<Game> {
    const query = version === undefined ? "" : `?version=${version}`;
    return (await this.send<Game>("GET", `/games/${encodeURIComponent(gameId)}${query}`)).body;
  }

  /** GET /games/{id}/moves: the history, oldest first; only the moves numbered above `since` if given. */
  async moves(gameId: string, since?: number): Promise<MoveRecord[]> {
    const query = since === undefined ? "" : `?since=${since}`;
    const path = `/games/${encodeURIComponent(gameId)}/moves${query}`;
    return (await this.send<{ moves: MoveRecord[] }>("GET", path)).body.moves;
  }

  /** GET /games/{id}/legal-moves, of one patch if `patchId` is given. */
  async legalMoves(gameId: string, patchId?: number): Promise<LegalMoves> {
    const query = patchId === undefined ? "" : `?patch_id=${patchId}`;
    return (await this.send<LegalMoves>("GET", `/games/${encodeURIComponent(gameId)}/legal-moves${query}`)).body;
  }

  /** GET /games/{id}/hint: the move a hint level (`greedy` by default) would play now. */
  async hint(gameId: string, level?: string): Promise<Hint> {
    const query = level === undefined ? "" : `?level=${encodeURIComponent(level)}`;
    return (await this.send<Hint>("GET", `/games/${encodeURIComponent(gameId)}/hint${query}`)).body;
  }

  /** GET /games/{id}/seat: the seat a token plays. */
  async seat(gameId: string, token: string): Promise<Seat> {
    const path = `/games/${encodeURIComponent(gameId)}/seat`;
    return (await this.send<{ seat: Seat }>("GET", path, { token })).body.seat;
  }

  /**
   * POST /games/{id}/seat with the seat's token: the seat names itself (the guest of an
   * invite link choosing its own name). Sending the same name again changes nothing.
   */
  async nameSeat(gameId: string, token: string, name: NameSeatRequest["name"]): Promise<{ seat: Seat; game: Game }> {
    const path = `/games/${encodeURIComponent(gameId)}/seat`;
    const body: NameSeatRequest = { name };
    return (await this.send<{ seat: Seat; game: Game }>("POST", path, { body, token })).body;
  }

  /** GET /games/{id}/moves/{number}: one move of the history (numbered from 1). */
  async moveRecord(gameId: string, number: number): Promise<MoveRecord> {
    return (await this.send<MoveRecord>("GET", `${gamePath(gameId)}/moves/${encodeURIComponent(String(number))}`)).body;
  }

  /** GET /games/{id}/board.svg: the board as a picture, its words in `language` (sent as Accept-Language). */
  async boardSvg(gameId: string, options: PictureOptions = {}): Promise<string> {
    return this.picture(`${gamePath(gameId)}/board.svg`, "image/svg+xml", options);
  }

  /** GET /games/{id}/board.txt: the board as plain text, its words in `language` (sent as Accept-Language). */
  async boardText(gameId: string, options: PictureOptions = {}): Promise<string> {
    return this.picture(`${gamePath(gameId)}/board.txt`, "text/plain", options);
  }

  private async picture(path: string, type: string, options: PictureOptions): Promise<string> {
    const headers: Record<string, string> = options.language === undefined ? {} : { "Accept-Language": options.language };
    return (await this.send<string>("GET", path, { read: "text", accept: type, headers })).body;
  }

  // ---- Analysis: a 202 (queued or being computed) is `pending`, never a result ----

  /** POST /games/{id}/analysis on a finished game: queues its analysis (always pending; asking again is harmless). */
  async requestAnalysis(gameId: string): Promise<Pending<AnalysisPending>> {
    const answer = await this.send<AnalysisPending>("POST", `${gamePath(gameId)}/analysis`);
    return pendingOf(answer);
  }

  /** GET /games/{id}/analysis: `done` with the analysis, or `pending` (202) while it is queued or computed. */
  async analysis(gameId: string): Promise<Outcome<Analysis, AnalysisPending>> {
    return outcomeOf<Analysis, AnalysisPending>(await this.send("GET", `${gamePath(gameId)}/analysis`));
  }

  /** GET /games/{id}/analysis.svg: `done` with the chart, or `pending` (202) as `analysis`. */
  async analysisSvg(gameId: string): Promise<Outcome<string, AnalysisPending>> {
    const path = `${gamePath(gameId)}/analysis.svg`;
    // A 202's body is JSON whatever the Accept: read as text, parsed when pending.
    const answer = await this.send<string>("GET", path, { read: "text", accept: "image/svg+xml, application/json" });
    if (answer.status !== 202) return { status: "done", value: answer.body };
    return pendingOf({ ...answer, body: JSON.parse(answer.body) as AnalysisPending });
  }

  /**
   * Asks for the game's analysis and reads it until it is done, waiting what each 202's
   * Retry-After asks (at most `maxWaitMs` in all, default 5 minutes: then it throws).
   */
  async waitForAnalysis(gameId: string, options: { signal?: AbortSignal; maxWaitMs?: number } = {}): Promise<Analysis> {
    const deadline = Date.now() + (options.maxWaitMs ?? 300_000);
    let answer: Outcome<Analysis, AnalysisPending> = await this.requestAnalysis(gameId);
    for (;;) {
      if (answer.status === "done") return answer.value;
      const wait = Math.min(this.maxRetryDelayMs, answer.retryAfterMs ?? FIRST_BACKOFF_MS);
      if (Date.now() + wait > deadline) throw new Error(`the analysis of ${gameId} is still pending`);
      await sleep(wait, options.signal);
      answer = await this.analysis(gameId);
    }
  }

  /** Every event of the game, in version order, each once, across reconnects: see follow.ts. */
  follow(gameId: string, options?: FollowOptions & { notices?: false }): AsyncGenerator<GameEvent, void, undefined>;
  /** The same, with the stream's offers and watcher counts among them. */
  follow(gameId: string, options: FollowOptions & { notices: true }): AsyncGenerator<GameEvent | GameNotice, void, undefined>;
  follow(gameId: string, options: FollowOptions = {}): AsyncGenerator<GameEvent | GameNotice, void, undefined> {
    return follow(this, gameId, options);
  }

  /**
   * POST /games/{id}/moves with the seat's token: the game after the move.
   *
   * The answer may come after the event stream has shown this move and even
   * the opponent's reply: a game from here is older than what `follow` has
   * shown when its version is lower (see docs/api-guide.md, "Your move on the
   * stream before its answer").
   */
  async move(gameId: string, token: string, move: MoveRequest, options: MoveOptions = {}): Promise<Game> {
    const path = `/games/${encodeURIComponent(gameId)}/moves`;
    return (await this.sendKeyed<Game>(path, token, move, options)).body;
  }

  /** POST /games/{id}/resign with the seat's token: the finished game. */
  async resign(gameId: string, token: string, options: MoveOptions = {}): Promise<Game> {
    const path = `/games/${encodeURIComponent(gameId)}/resign`;
    return (await this.sendKeyed<Game>(path, token, {}, options)).body;
  }

  /** POST /players: a new player, a bot account with `{ bot: true }` (`token` is its secret, shown this once). */
  async createPlayer(name: CreatePlayerRequest["name"], options: PlayerOptions = {}): Promise<PlayerCreated> {
    // A person's request says nothing of bots, as before bot accounts. PlayerOptions names `bot` until
    // openapi.yaml's CreatePlayerRequest does (issue 40's rules of bot accounts).
    const body: CreatePlayerRequest & PlayerOptions = options.bot ? { name, bot: true } : { name };
    return (await this.send<PlayerCreated>("POST", "/players", { body })).body;
  }

  /** GET /players/me: the profile of the token's player, with its vacation bank. */
  async me(playerToken: string): Promise<MyProfile> {
    return (await this.send<MyProfile>("GET", "/players/me", { token: playerToken })).body;
  }

  /** POST /players/me/vacation: pause the player's correspondence clocks for `days` from its yearly bank. */
  async startVacation(playerToken: string, days: number): Promise<Vacation> {
    return (await this.send<Vacation>("POST", "/players/me/vacation", { body: { days }, token: playerToken, once: true })).body;
  }

  /** DELETE /players/me/vacation: end the vacation now; the whole days not begun go back to the bank. */
  async endVacation(playerToken: string): Promise<Vacation> {
    return (await this.send<Vacation>("DELETE", "/players/me/vacation", { token: playerToken })).body;
  }

  // ---- Webhooks (docs/api-guide.md#webhooks) ----

  /** GET /players/me/webhooks: the player's webhooks, with their state (no secrets). */
  async listWebhooks(playerToken: string): Promise<Webhook[]> {
    return (await this.send<{ webhooks: Webhook[] }>("GET", "/players/me/webhooks", { token: playerToken })).body.webhooks;
  }

  /**
   * POST /players/me/webhooks: `events` POSTed to `url`, signed; the answer's `secret` is shown this once.
   * Not sent again after a network error (a second one would be another webhook).
   */
  async createWebhook(playerToken: string, url: string, events: WebhookEvent[]): Promise<NewWebhook> {
    return (await this.send<NewWebhook>("POST", "/players/me/webhooks", { body: { url, events }, token: playerToken, once: true })).body;
  }

  /** DELETE /players/me/webhooks/{id}: it is sent nothing more. */
  async deleteWebhook(playerToken: string, webhookId: string): Promise<void> {
    await this.send<undefined>("DELETE", webhookPath(webhookId), { token: playerToken });
  }

  /** GET /players/me/webhooks/{id}/deliveries: its last 100 attempts, newest first. */
  async webhookDeliveries(playerToken: string, webhookId: string): Promise<WebhookDelivery[]> {
    const answer = await this.send<{ deliveries: WebhookDelivery[] }>("GET", `${webhookPath(webhookId)}/deliveries`, { token: playerToken });
    return answer.body.deliveries;
  }

  // ---- The lobby, seeks, a player's games and streams ----

  /** GET /games?status=: one page of the lobby (`open`: games with a seat to join) or of the games played. */
  async listGames(query: QueryOf<"listGames"> & { status: "open" }): Promise<LobbyPage>;
  async listGames(query: QueryOf<"listGames"> & { status: "active" | "finished" }): Promise<GamesPage>;
  async listGames(query: QueryOf<"listGames">): Promise<LobbyPage | GamesPage> {
    return (await this.send<LobbyPage | GamesPage>("GET", `/games${searchOf({ ...query })}`)).body;
  }

  /** GET /games?status=open: one page of the lobby, the games with a seat to join (`player`: those it waits in). */
  async lobby(query: GamesQuery & { player?: string } = {}): Promise<LobbyPage> {
    return this.listGames({ ...query, status: "open" });
  }

  /**
   * POST /games/{id}/join: takes the first open seat, as the player of `playerToken` or under a
   * `name` alone (an unrated game): the game, the seat, and the seat's token (shown this once).
   * Sent with an Idempotency-Key kept across retries, so a lost answer is had again, token included.
   */
  async join(
    gameId: string,
    as: { playerToken: string } | JoinRequest = {},
    options: { idempotencyKey?: string } = {},
  ): Promise<Joined> {
    const headers = { "Idempotency-Key": options.idempotencyKey ?? newIdempotencyKey() };
    const path = `${gamePath(gameId)}/join`;
    const sent = "playerToken" in as ? { body: {}, token: as.playerToken, headers } : { body: as, headers };
    return (await this.send<Joined>("POST", path, sent)).body;
  }

  /** GET /players/me/games: the player's games (`active` or `finished` ones only if `status` says), with whose turn. */
  async myGames(playerToken: string, status?: "active" | "finished"): Promise<MyGames> {
    return (await this.send<MyGames>("GET", `/players/me/games${searchOf({ status })}`, { token: playerToken })).body;
  }

  /** POST /players/me/stream-tickets: a ticket for one `GET /players/me/events?ticket=` (an EventSource sends no token). */
  async streamTicket(playerToken: string): Promise<StreamTicket> {
    return (await this.send<StreamTicket>("POST", "/players/me/stream-tickets", { token: playerToken })).body;
  }

  /**
   * POST /seeks: paired at once with a compatible seek waiting (`status: "paired"`, `game` set), or
   * waiting for one. Not sent again after a network error (it would seek twice): the player's
   * stream (`followPlayer`) tells of the game with `game_start`.
   */
  async createSeek(playerToken: string, request: CreateSeekRequest): Promise<Seek> {
    return (await this.send<{ seek: Seek }>("POST", "/seeks", { body: request, token: playerToken, once: true })).body.seek;
  }

  /** GET /seeks/{id}, the seeker's own: waiting, paired (with its `game`), cancelled or expired. */
  async seek(playerToken: string, seekId: string): Promise<Seek> {
    return (await this.send<{ seek: Seek }>("GET", seekPath(seekId), { token: playerToken })).body.seek;
  }

  /** DELETE /seeks/{id}: the seek is paired no more (one paired already stays paired: see its `status`). */
  async cancelSeek(playerToken: string, seekId: string): Promise<Seek> {
    return (await this.send<{ seek: Seek }>("DELETE", seekPath(seekId), { token: playerToken })).body.seek;
  }

  /** GET /leaderboard: the rated players, best first (at most 100). */
  async leaderboard(): Promise<PlayerProfile[]> {
    return (await this.send<{ players: PlayerProfile[] }>("GET", "/leaderboard")).body.players;
  }

  /** GET /players/{id}: a player's public profile. */
  async player(playerId: string): Promise<PlayerProfile> {
    return (await this.send<PlayerProfile>("GET", `/players/${encodeURIComponent(playerId)}`)).body;
  }

  /** GET /games?status=active: one page of the games being played, newest first (`player`: only that player's). */
  async activeGames(query: GamesQuery & { player?: string } = {}): Promise<GamesPage> {
    return (await this.send<GamesPage>("GET", `/games${searchOf({ status: "active", ...query })}`)).body;
  }

  /** GET /games?status=finished&player=: one page of a player's finished games, newest first. */
  async finishedGames(playerId: string, query: GamesQuery = {}): Promise<GamesPage> {
    return (await this.send<GamesPage>("GET", `/games${searchOf({ status: "finished", player: playerId, ...query })}`)).body;
  }

  // ---- Game records (docs/records.md) ----

  /** GET /games/{id}/record: the game as text (tags and numbered moves), now or as it was at `version`. */
  async record(gameId: string, version?: number): Promise<string> {
    return (await this.send<string>("GET", `${gamePath(gameId)}/record${searchOf({ version })}`, { read: "text" })).body;
  }

  /**
   * POST /games/import: a finished game's record replayed and stored as a finished, unrated game.
   * Not sent again after a network error: a second one would store the game twice.
   */
  async importRecord(record: string): Promise<Game> {
    return (await this.send<Game>("POST", "/games/import", { text: record, once: true })).body;
  }

  /** GET /players/{id}/games.ndjson: the player's finished games, newest first, each with its record, as they arrive. */
  async *playerGames(playerId: string, query: PlayerGamesQuery = {}): AsyncGenerator<PlayerGameLine, void, undefined> {
    const path = `/players/${encodeURIComponent(playerId)}/games.ndjson${searchOf({ ...query })}`;
    const body = (await this.send<ReadableStream<Uint8Array> | null>("GET", path, { read: "stream" })).body;
    if (body === null) return;
    const reader = body.getReader();
    const decoder = new TextDecoder("utf-8");
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          if (line.trim() !== "") yield JSON.parse(line) as PlayerGameLine;
        }
        if (done) return;
      }
    } finally {
      reader.releaseLock();
      await body.cancel().catch(() => undefined);
    }
  }

  /** The player's own events (`challenge`, `rematch_offer`, `game_start`, ...), across reconnects: see player-events.ts. */
  followPlayer(playerToken: string, options: FollowPlayerOptions = {}): AsyncGenerator<PlayerEvent, void, undefined> {
    return followPlayer(this, playerToken, options);
  }

  // ---- Challenges and blocks ----

  /**
   * POST /challenges with the challenger's player token: `to` a player's id, or null for an
   * open challenge (a link whoever has it may accept). Not sent again after a network error.
   */
  async createChallenge(playerToken: string, request: CreateChallengeRequest): Promise<Challenge> {
    const answer = await this.send<{ challenge: Challenge }>("POST", "/challenges", { body: request, token: playerToken, once: true });
    return answer.body.challenge;
  }

  /** GET /challenges/{id}: a challenge as it stands (public). */
  async challenge(challengeId: string): Promise<Challenge> {
    return (await this.send<{ challenge: Challenge }>("GET", challengePath(challengeId))).body.challenge;
  }

  /** GET /players/me/challenges: the player's pending challenges, `incoming` and `outgoing`. */
  async myChallenges(playerToken: string): Promise<MyChallenges> {
    return (await this.send<MyChallenges>("GET", "/players/me/challenges", { token: playerToken })).body;
  }

  /**
   * POST /challenges/{id}/accept, as a player (`{ playerToken }`) or, for an open unrated
   * challenge, by a name alone (`{ name }`): the game, your seat, and the token that acts for it.
   * Asked again by the same player, the same game.
   */
  async acceptChallenge(challengeId: string, as: { playerToken: string } | { name: string }): Promise<Joined> {
    const path = `${challengePath(challengeId)}/accept`;
    const options = "playerToken" in as ? { body: {}, token: as.playerToken } : { body: { name: as.name } };
    return (await this.send<Joined>("POST", path, options)).body;
  }

  /** POST /challenges/{id}/decline with the challenged player's token, saying why (default `generic`). */
  async declineChallenge(
    challengeId: string,
    playerToken: string,
    reason?: NonNullable<DeclineChallengeRequest["reason"]>,
  ): Promise<Challenge> {
    const body: DeclineChallengeRequest = reason === undefined ? {} : { reason };
    const path = `${challengePath(challengeId)}/decline`;
    return (await this.send<{ challenge: Challenge }>("POST", path, { body, token: playerToken, once: true })).body.challenge;
  }

  /** DELETE /challenges/{id}: the challenger withdraws it. */
  async withdrawChallenge(challengeId: string, playerToken: string): Promise<Challenge> {
    const answer = await this.send<{ challenge: Challenge }>("DELETE", challengePath(challengeId), { token: playerToken, once: true });
    return answer.body.challenge;
  }

  /** GET /players/me/blocks: the ids of the players this one blocks. */
  async blocks(playerToken: string): Promise<string[]> {
    return (await this.send<{ players: string[] }>("GET", "/players/me/blocks", { token: playerToken })).body.players;
  }

  /** POST /players/me/blocks/{id}: their challenges are refused, their seeks and lobby games kept apart. The blocks now. */
  async block(playerToken: string, playerId: string): Promise<string[]> {
    const path = `/players/me/blocks/${encodeURIComponent(playerId)}`;
    return (await this.send<{ players: string[] }>("POST", path, { token: playerToken })).body.players;
  }

  /** DELETE /players/me/blocks/{id}. The blocks now. */
  async unblock(playerToken: string, playerId: string): Promise<string[]> {
    const path = `/players/me/blocks/${encodeURIComponent(playerId)}`;
    return (await this.send<{ players: string[] }>("DELETE", path, { token: playerToken })).body.players;
  }

  // ---- Offers: a rematch, a takeback (a seat's token or its player's) ----

  /**
   * POST /games/{id}/rematch on a finished game: offers a rematch (`pending`, the 202's `{ offer }`;
   * asking again answers the same offer), or accepts the other seat's offer, or plays a level's
   * seat (`done`, the next game: `{ game, seat, token }`).
   */
  async rematch(gameId: string, token: string): Promise<Outcome<Rematch, OfferBody>> {
    return outcomeOf<Rematch, OfferBody>(await this.send("POST", `${gamePath(gameId)}/rematch`, { body: {}, token }));
  }

  /** DELETE /games/{id}/rematch: withdraws our rematch offer, or declines the other seat's: the offer as it ended. */
  async dismissRematch(gameId: string, token: string): Promise<OfferEvent> {
    const answer = await this.send<{ offer: OfferEvent }>("DELETE", `${gamePath(gameId)}/rematch`, { token, once: true });
    return answer.body.offer;
  }

  /**
   * POST /games/{id}/takeback in an unrated game: by the seat that acted last, asks to undo
   * its last turn (`pending`, the 202's `{ offer }`); by the other seat while that offer stands,
   * accepts it (`done`, the game after: a new version whose state is the one before the turn).
   * Against a level's seat (the service's own bot), accepted at once. Not sent again after a
   * network error.
   */
  async takeback(gameId: string, token: string): Promise<Outcome<Game, OfferBody>> {
    return outcomeOf<Game, OfferBody>(await this.send("POST", `${gamePath(gameId)}/takeback`, { body: {}, token, once: true }));
  }

  /** DELETE /games/{id}/takeback: withdraws our takeback offer, or declines the other seat's. */
  async dismissTakeback(gameId: string, token: string): Promise<OfferEvent> {
    const answer = await this.send<{ offer: OfferEvent }>("DELETE", `${gamePath(gameId)}/takeback`, { token, once: true });
    return answer.body.offer;
  }

  // ---- Tournaments (issue 39) ----

  /**
   * POST /tournaments with the organiser's player token: the tournament, `upcoming`.
   * Not sent again after a network error (it would make a second one).
   */
  async createTournament(playerToken: string, request: CreateTournamentRequest): Promise<Tournament> {
    const answer = await this.send<{ tournament: Tournament }>("POST", "/tournaments", { body: request, token: playerToken, once: true });
    return answer.body.tournament;
  }

  /** GET /tournaments/{id}: players, standings, rounds with their pairings and results (public). */
  async tournament(tournamentId: string): Promise<Tournament> {
    return (await this.send<{ tournament: Tournament }>("GET", tournamentPath(tournamentId))).body.tournament;
  }

  /**
   * GET /tournaments?status=: one page (at most 50) of the listed tournaments of that status, as summaries,
   * `next` the cursor of the next (null: the last). Upcoming ones soonest first, the others newest first.
   */
  async tournaments(query: TournamentsQuery): Promise<TournamentsPage> {
    return (await this.send<TournamentsPage>("GET", `/tournaments${searchOf({ ...query })}`)).body;
  }

  /** POST /tournaments/{id}/join with the player's token, before the start: the tournament with the player in it. */
  async joinTournament(tournamentId: string, playerToken: string): Promise<Tournament> {
    return this.tournamentAction(tournamentId, "join", playerToken);
  }

  /**
   * POST /tournaments/{id}/withdraw: before the start the player leaves; after it,
   * is paired no more (swiss) or loses every game left (round robin).
   */
  async withdrawFromTournament(tournamentId: string, playerToken: string): Promise<Tournament> {
    return this.tournamentAction(tournamentId, "withdraw", playerToken);
  }

  /**
   * POST /tournaments/{id}/start with the organiser's token: round 1 now, before `starts_at`.
   * Not sent again after a network error (a second start is refused: `tournament_started`).
   */
  async startTournament(tournamentId: string, playerToken: string): Promise<Tournament> {
    return this.tournamentAction(tournamentId, "start", playerToken, true);
  }

  /** POST /tournaments/{id}/cancel with the organiser's token, before the start. */
  async cancelTournament(tournamentId: string, playerToken: string): Promise<Tournament> {
    return this.tournamentAction(tournamentId, "cancel", playerToken);
  }

  /** The tournament, then its events (`round_start`, `game_end`, `standings`, `finished`, `cancelled`), across reconnects: see tournament-events.ts. */
  followTournament(tournamentId: string, options: FollowTournamentOptions = {}): AsyncGenerator<TournamentEvent, void, undefined> {
    return followTournament(this, tournamentId, options);
  }

  // Joining, withdrawing and cancelling twice is doing it once: those are sent again after a network error.
  private async tournamentAction(tournamentId: string, action: string, playerToken: string, once = false): Promise<Tournament> {
    const path = `${tournamentPath(tournamentId)}/${action}`;
    const answer = await this.send<{ tournament: Tournament }>("POST", path, { body: {}, token: playerToken, once });
    return answer.body.tournament;
  }

  private sendKeyed<T>(path: string, token: string, body: object, options: MoveOptions): Promise<Answer<T>> {
    const headers: Record<string, string> = { "Idempotency-Key": options.idempotencyKey ?? newIdempotencyKey() };
    if (options.ifMatch !== undefined) headers["If-Match"] = `"${options.ifMatch}"`;
    return this.send<T>("POST", path, { body, token, headers });
  }

  /**
   * One request, retried as the header comment says (`once`: not after a network error);
   * an error answer is thrown as a ProblemError.
   */
  async send<T>(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    path: string,
    options: {
      body?: object | undefined;
      /** A text body, sent as a game record (POST /games/import) in place of a JSON one. */
      text?: string;
      /** How the answer's body is read (default: JSON). */
      read?: Reading;
      /** The Accept header, when not the one `read` implies. */
      accept?: string;
      /** Retries of this request (default: the client's `maxRetries`). */
      retries?: number;
      token?: string;
      headers?: Record<string, string>;
      signal?: AbortSignal;
      once?: boolean;
    } = {},
  ): Promise<Answer<T>> {
    const read = options.read ?? "json";
    const accept = options.accept ?? (read === "text" ? RECORD_TYPE : read === "stream" ? "application/x-ndjson" : "application/json");
    const maxRetries = options.retries ?? this.maxRetries;
    const headers: Record<string, string> = { Accept: accept, ...options.headers };
    if (options.token !== undefined) headers["Authorization"] = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.body);
    } else if (options.text !== undefined) {
      headers["Content-Type"] = RECORD_TYPE;
      body = options.text;
    }
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(this.maxRetryDelayMs, FIRST_BACKOFF_MS * 2 ** attempt);
      let response: Response;
      try {
        const init: RequestInit = { method, headers };
        if (body !== undefined) init.body = body;
        if (options.signal !== undefined) init.signal = options.signal;
        response = await this.fetch(this.baseUrl + path, init);
      } catch (error) {
        // A network error (fetch's TypeError): the request may or may not
        // have arrived; sending it again is safe (see the header comment).
        if (!(error instanceof TypeError) || options.once || attempt >= maxRetries) throw error;
        await sleep(backoff, options.signal);
        continue;
      }
      if (response.ok && read === "stream") {
        return { status: response.status, headers: response.headers, body: response.body as T };
      }
      if (response.ok && read === "text") {
        return { status: response.status, headers: response.headers, body: (await response.text()) as T };
      }
      if (response.ok) {
        const text = response.status === 204 ? "" : await response.text();
        return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
      }
      const error = await problemOf(response);
      if (attempt < maxRetries && isRetried(error)) {
        const asked = retryAfterMs(response.headers);
        await sleep(Math.min(this.maxRetryDelayMs, asked ?? backoff), options.signal);
        continue;
      }
      throw error;
    }
  }
}

const gamePath = (gameId: string) => `/games/${encodeURIComponent(gameId)}`;
const challengePath = (challengeId: string) => `/challenges/${encodeURIComponent(challengeId)}`;
const webhookPath = (webhookId: string) => `/players/me/webhooks/${encodeURIComponent(webhookId)}`;
const seekPath = (seekId: string) => `/seeks/${encodeURIComponent(seekId)}`;
const tournamentPath = (tournamentId: string) => `/tournaments/${encodeURIComponent(tournamentId)}`;

/** `?a=1&b=2` of the values given (none: ""). */
function searchOf(values: Record<string, string | number | boolean | undefined>): string {
  const given = Object.entries(values).filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined);
  return given.length === 0 ? "" : `?${new URLSearchParams(given.map(([key, value]) => [key, String(value)]))}`;
}

/** A 202's answer as a Pending: its body, its Retry-After and its Location. */
function pendingOf<P>(answer: Answer<P>): Pending<P> {
  return {
    status: "pending",
    body: answer.body,
    retryAfterMs: retryAfterMs(answer.headers),
    location: answer.headers.get("Location"),
  };
}

/** A 202 is pending; any other success is the result. */
function outcomeOf<T, P>(answer: Answer<unknown>): Outcome<T, P> {
  return answer.status === 202 ? pendingOf(answer as Answer<P>) : { status: "done", value: answer.body as T };
}

function isRetried(error: ProblemError): boolean {
  return RETRIED_STATUSES.has(error.status) || error.problem?.code === "idempotency_key_in_use";
}
