// One call of the client per operation of openapi.yaml. The table's type is a
// Record over the operationIds openapi-typescript generated: an operation added
// to openapi.yaml without a client method here fails to compile, and
// operations.test.ts checks that each call sends that operation's method and path.
import type { OperationId, PatchworkClient } from "../src/index.js";

/** The value each path parameter takes in the calls below: the path each must request. */
export const SAMPLE_PATH_VALUES: Record<string, string> = {
  game_id: "GAME",
  number: "3",
  patch_id: "7",
  player_id: "PLAYER",
  seek_id: "SEEK",
  challenge_id: "CHALLENGE",
  webhook_id: "HOOK",
  tournament_id: "TOURNEY",
};

/** What a call starts: a request (a promise), or a stream (an async generator, whose first step sends it). */
export type Call = (client: PatchworkClient) => Promise<unknown> | AsyncGenerator<unknown, void, undefined>;

/**
 * The pages for a person's browser (openapi.yaml's tag `pages`: HTML, the assets of /docs and /play):
 * no client method, on purpose. The test checks these are exactly the operations tagged so.
 */
export const PAGE = "a page for a person's browser";

const T = "TOKEN";

export const CALLS: Record<OperationId, Call | typeof PAGE> = {
  // The service, the catalogue, the bots.
  healthz: (c) => c.health(),
  readyz: (c) => c.ready(),
  getMetrics: (c) => c.metrics(),
  getOpenapi: (c) => c.openapi(),
  listPatches: (c) => c.patches(),
  getPatchSvg: (c) => c.patchSvg(7, { rotation: 90 }),
  listBots: (c) => c.bots(),
  getLeaderboard: (c) => c.leaderboard(),
  // Games.
  listGames: (c) => c.listGames({ status: "open" }),
  createGame: (c) => c.createGame(),
  getGame: (c) => c.game("GAME"),
  getGameRecord: (c) => c.record("GAME"),
  importGame: (c) => c.importRecord("[Game]"),
  getSeat: (c) => c.seat("GAME", T),
  nameSeat: (c) => c.nameSeat("GAME", T, "Ann"),
  listMoves: (c) => c.moves("GAME"),
  makeMove: (c) => c.move("GAME", T, { action: "advance" }),
  getMove: (c) => c.moveRecord("GAME", 3),
  streamEvents: (c) => c.follow("GAME"),
  listLegalMoves: (c) => c.legalMoves("GAME"),
  resignGame: (c) => c.resign("GAME", T),
  getHint: (c) => c.hint("GAME"),
  joinGame: (c) => c.join("GAME", { name: "Bob" }),
  getBoardSvg: (c) => c.boardSvg("GAME"),
  getBoardText: (c) => c.boardText("GAME"),
  // Analysis.
  requestAnalysis: (c) => c.requestAnalysis("GAME"),
  getAnalysis: (c) => c.analysis("GAME"),
  getAnalysisSvg: (c) => c.analysisSvg("GAME"),
  // Offers.
  rematchGame: (c) => c.rematch("GAME", T),
  dismissRematch: (c) => c.dismissRematch("GAME", T),
  takebackGame: (c) => c.takeback("GAME", T),
  dismissTakeback: (c) => c.dismissTakeback("GAME", T),
  // Players.
  createPlayer: (c) => c.createPlayer("Ann"),
  getMe: (c) => c.me(T),
  startVacation: (c) => c.startVacation(T, 2),
  endVacation: (c) => c.endVacation(T),
  listMyGames: (c) => c.myGames(T),
  issueStreamTicket: (c) => c.streamTicket(T),
  streamPlayerEvents: (c) => c.followPlayer(T),
  getPlayer: (c) => c.player("PLAYER"),
  exportPlayerGames: (c) => c.playerGames("PLAYER"),
  // Seeks.
  createSeek: (c) => c.createSeek(T, { clock: { days_per_move: 3 } }),
  getSeek: (c) => c.seek(T, "SEEK"),
  cancelSeek: (c) => c.cancelSeek(T, "SEEK"),
  // Challenges and blocks.
  createChallenge: (c) => c.createChallenge(T, { to: null, clock: { days_per_move: 3 }, rated: false, seat: 0 }),
  getChallenge: (c) => c.challenge("CHALLENGE"),
  withdrawChallenge: (c) => c.withdrawChallenge("CHALLENGE", T),
  acceptChallenge: (c) => c.acceptChallenge("CHALLENGE", { playerToken: T }),
  declineChallenge: (c) => c.declineChallenge("CHALLENGE", T),
  listMyChallenges: (c) => c.myChallenges(T),
  listBlocks: (c) => c.blocks(T),
  blockPlayer: (c) => c.block(T, "PLAYER"),
  unblockPlayer: (c) => c.unblock(T, "PLAYER"),
  // Webhooks.
  listWebhooks: (c) => c.listWebhooks(T),
  createWebhook: (c) => c.createWebhook(T, "https://example.org/hook", ["game_end"]),
  deleteWebhook: (c) => c.deleteWebhook(T, "HOOK"),
  listWebhookDeliveries: (c) => c.webhookDeliveries(T, "HOOK"),
  // Tournaments.
  listTournaments: (c) => c.tournaments({ status: "upcoming" }),
  createTournament: (c) =>
    c.createTournament(T, {
      name: "Cup",
      system: "swiss",
      clock: { days_per_move: 3 },
      starts_at: "2030-01-01T00:00:00Z",
      max_players: 8,
    }),
  getTournament: (c) => c.tournament("TOURNEY"),
  joinTournament: (c) => c.joinTournament("TOURNEY", T),
  withdrawFromTournament: (c) => c.withdrawFromTournament("TOURNEY", T),
  startTournament: (c) => c.startTournament("TOURNEY", T),
  cancelTournament: (c) => c.cancelTournament("TOURNEY", T),
  streamTournamentEvents: (c) => c.followTournament("TOURNEY"),
  // Pages.
  getHome: PAGE,
  getDocs: PAGE,
  getDocsAsset: PAGE,
  getPlay: PAGE,
  getPlayAsset: PAGE,
  getProblemPage: PAGE,
  getRules: PAGE,
};
