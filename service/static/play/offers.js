// Offers on a game (docs/api-guide.md, "Offers"): a rematch of a finished
// game and a takeback in a casual one are asked by one seat and given by the
// other. The offer in play is shown with what this seat may do about it:
// accept or decline the other side's, withdraw its own.
//
// An offer is learned from the answer that made it, the game as read (its
// `offer` while one stands), the game's stream (`event: offer`), and the
// player's stream (`rematch_offer`). A finished game's stream ends with the
// game, so on a finished game the page reads the game again while a
// rematch may still come: while our offer waits (its answer, or the
// `next_game` it made), and for a seat held by a seat token, which has no
// player stream, for as long as an offer would stand.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { notify } from "./notices.js";
import { playerApi } from "./player-api.js";
import { onPlayerEvent } from "./player-stream.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;
// How long a finished game is read again for an offer that may come: an offer lapses after
// OFFER_TTL_SECONDS (default 300), and the other side decides within that, or not at all.
const WAIT_FOR_OFFER_MS = 300_000;

const view = {
  gameId: null,
  seat: null,        // ours, null when watching
  token: null,       // the seat's token or the player's
  asPlayer: false,
  game: null,        // the latest game shown (the body itself: a new body may show a new offer)
  offer: null,       // {kind, by, expires_at} in play, or null
  history: new Map(), // number -> the history's record, for who acted last (takebacks)
  historyOf: null,   // the game whose history was read
  busy: false,
  polling: false,
  pollUntil: 0,      // Date.now() until which the finished game is read again
  expiry: null,
  showMessage: () => {},
};

/** A game is opened (`seat`, `token` ours, null when watching): no offer known yet. */
export function openOffers(gameId, seat, token, asPlayer) {
  clearTimeout(view.expiry);
  Object.assign(view, {
    gameId, seat, token, asPlayer, game: null, offer: null, history: new Map(), historyOf: null, polling: false, pollUntil: 0,
  });
}

/** The game the page shows (the first, or a newer version): redraw the offer and what may be done. */
export function offersShow(game) {
  // An offer changes no version: a body of the version we have is no newer than ours (one read again may be).
  if (view.game === null || game.version > view.game.version) takeGame(game);
  if (takebackPossible(game) && view.historyOf !== view.gameId) readHistory(view.gameId);
  render();
}

/** A body tells the offer standing when it was made: none when it has no `offer` (a move voids one). */
function takeGame(game) {
  const finishedNow = game.status === "finished" && view.game?.status !== "finished";
  const oursWaited = view.offer?.kind === "rematch" && view.offer.by === view.seat;
  view.game = game;
  setOffer(game.offer ?? null);
  if (oursWaited && view.offer === null && !game.next_game) notify(t("Your rematch offer was not taken up."));
  if (finishedNow && view.seat !== null && !game.next_game) waitForRematch(view.asPlayer ? 0 : WAIT_FOR_OFFER_MS);
}

/** A move event's record (the history grows by it): who acted last may change though the version shown does not
 * (the move's own answer may have shown it first). */
export function offersRecord(move) {
  view.history.set(move.number, move);
  render();
}

/** The game stream's `event: offer` (an OfferEvent): made, accepted, declined or withdrawn. */
export function onOffer(event) {
  const { status, next_game: nextGame, ...offer } = event;
  if (status === "pending") setOffer(offer);
  else if (status === "accepted" && offer.kind === "rematch" && nextGame) onNextGame(nextGame);
  else if (status === "declined" || status === "withdrawn") ended(offer, status);
  render();
}

/** An offer declined or withdrawn: gone, and the one who made it told when the other declined. */
function ended(offer, status) {
  const known = view.offer?.kind === offer.kind;
  if (known) setOffer(null);
  if (known && status === "declined" && offer.by === view.seat) {
    notify(offer.kind === "rematch" ? t("{name} declined the rematch.", { name: other()?.name ?? "" })
      : t("{name} declined the takeback.", { name: other()?.name ?? "" }));
  }
}

function setOffer(offer) {
  clearTimeout(view.expiry);
  view.offer = offer;
  if (offer?.expires_at) {
    const left = Date.parse(offer.expires_at) - Date.now();
    view.expiry = setTimeout(() => { view.offer = null; render(); }, Math.max(0, left) + 1000);
  }
}

const other = () => (view.seat === null ? null : view.game?.players[1 - view.seat]);

// A tournament's games refuse takebacks, as rated ones do (and rematches: see below).
function takebackPossible(game) {
  return game.status === "active" && !game.rated && !game.tournament && view.seat !== null;
}

/** The seat that made the position shown: after a takeback to version k, the one whose move made k. */
function lastActor() {
  const numbers = [...view.history.keys()];
  let number = numbers.length === 0 ? null : Math.max(...numbers);
  while (number !== null) {
    const record = view.history.get(number);
    if (record === undefined) return null;
    if (record.action !== "takeback") return record.seat;
    // Move number n made version n + 1.
    number = record.to_version > 1 ? record.to_version - 1 : null;
  }
  return null;
}

async function readHistory(gameId) {
  view.historyOf = gameId;
  const moves = await api.history(gameId).catch(() => null);
  if (view.gameId !== gameId) return;
  if (moves === null) {
    view.historyOf = null;
    return;
  }
  for (const move of moves) view.history.set(move.number, move);
  render();
}

function render() {
  const game = view.game;
  if (game === null) return;
  const offer = view.offer;
  const mine = offer !== null && offer.by === view.seat;
  const theirs = offer !== null && view.seat !== null && offer.by !== view.seat;
  const finished = game.status === "finished";
  // Asking: a rematch once the game is over, a takeback of our own last turn in a casual game.
  // A tournament's game has no rematch: the next round pairs the players.
  $("rematch").hidden = !finished || view.seat === null || game.next_game != null || offer?.kind === "rematch" || Boolean(game.tournament);
  $("takeback").hidden = !takebackPossible(game) || offer !== null || game.moves_played === 0 || lastActor() !== view.seat;
  $("rematch").disabled = $("takeback").disabled = view.busy;
  const box = $("offer");
  box.hidden = offer === null || (finished ? offer.kind !== "rematch" : offer.kind !== "takeback");
  box.dataset.kind = offer?.kind ?? "";
  if (box.hidden) return;
  const name = other()?.name ?? "";
  const by = game.players[offer.by]?.name ?? "";
  $("offer-text").textContent = {
    "rematch mine": t("You offered a rematch: waiting for {name}.", { name }),
    "rematch theirs": t("{name} offers a rematch.", { name: by }),
    "rematch watching": t("{name} offers a rematch.", { name: by }),
    "takeback mine": t("You asked to take back your last move: waiting for {name}.", { name }),
    "takeback theirs": t("{name} asks to take back their last move.", { name: by }),
    "takeback watching": t("{name} asks to take back their last move.", { name: by }),
  }[`${offer.kind} ${mine ? "mine" : theirs ? "theirs" : "watching"}`];
  $("offer-accept").hidden = $("offer-decline").hidden = !theirs;
  $("offer-withdraw").hidden = !mine;
  for (const id of ["offer-accept", "offer-decline", "offer-withdraw"]) $(id).disabled = view.busy;
}

async function act(request) {
  view.busy = true;
  render();
  try {
    view.showMessage(null);
    return await request();
  } catch (error) {
    view.showMessage(error);
    return null;
  } finally {
    view.busy = false;
    render();
  }
}

/** Rematch, or accept the other side's rematch offer: a 201 is the next game, a 202 our offer. */
async function askRematch() {
  const answer = await act(() => playerApi.rematch(view.gameId, view.token));
  if (answer?.offer) {
    setOffer(answer.offer);
    waitForRematch(0);
  } else if (answer?.game) {
    openNextGame(answer.game.id);
  }
  render();
}

async function askTakeback() {
  const answer = await act(() => playerApi.takeback(view.gameId, view.token));
  if (answer?.offer) setOffer(answer.offer);
  render();
}

/** Accepting is asking in turn; the answer of a takeback is the game before the turn (the stream shows it). */
function accept() {
  if (view.offer?.kind === "rematch") return askRematch();
  return act(() => playerApi.takeback(view.gameId, view.token));
}

/** Declining theirs and withdrawing ours are the same DELETE; its answer is the offer as it ended. */
async function drop() {
  const kind = view.offer?.kind;
  const answer = await act(() => (kind === "rematch"
    ? playerApi.dropRematch(view.gameId, view.token)
    : playerApi.dropTakeback(view.gameId, view.token)));
  if (answer?.offer) ended(answer.offer, answer.offer.status);
  render();
}

function openNextGame(nextId) {
  const next = encodeURIComponent(nextId);
  location.hash = view.asPlayer ? `game=${next}&as=player` : `game=${next}&token=${encodeURIComponent(view.token)}`;
}

/** The rematch was made: our seat goes on to it. (A player hears `game_start` of it too.) */
function onNextGame(nextId) {
  if (view.seat !== null) openNextGame(nextId);
}

/**
 * Read the finished game again every POLL_MS while our rematch offer waits,
 * and for `forMs` more: its `offer` (made, answered) and `next_game`.
 */
function waitForRematch(forMs) {
  view.pollUntil = Math.max(view.pollUntil, Date.now() + forMs);
  if (view.polling) return;
  const gameId = view.gameId;
  view.polling = true;
  const poll = async () => {
    const ours = view.offer?.kind === "rematch" && view.offer.by === view.seat;
    if (view.gameId !== gameId || (!ours && Date.now() > view.pollUntil)) {
      if (view.gameId === gameId) view.polling = false;
      return;
    }
    const game = await playerApi.game(gameId).catch(() => null);
    if (view.gameId !== gameId) return;
    if (game?.next_game) onNextGame(game.next_game);
    else if (game !== null) {
      takeGame(game);
      render();
    }
    setTimeout(poll, POLL_MS);
  };
  setTimeout(poll, POLL_MS);
}

/** The player's stream: the other side offers a rematch of the game shown. */
function onPlayerStream(type, data) {
  if (type !== "rematch_offer" || data.game !== view.gameId || view.seat === null) return;
  setOffer({ kind: "rematch", by: 1 - data.seat, expires_at: data.expires_at });
  render();
}

export function wireOffers(showMessage) {
  view.showMessage = showMessage;
  $("rematch").addEventListener("click", askRematch);
  $("takeback").addEventListener("click", askTakeback);
  $("offer-accept").addEventListener("click", accept);
  $("offer-decline").addEventListener("click", drop);
  $("offer-withdraw").addEventListener("click", drop);
  onPlayerEvent(onPlayerStream);
}
