// The /play client: a Patchwork game in the browser using only the public API.
// Written as an example for frontend developers: one module per concern
// (api.js: HTTP; follow.js: the event stream; draw.js: SVG), and here the
// page's state and what the player can do.
//
// Which game the page shows lives in the URL's fragment, #game=<id>&token=<seat token>:
// browsers never send a fragment to a server, so the token stays on this machine.
// Without a token the page just watches the game. An invite link adds &invite: the
// friend who opens it first chooses the name their seat shows.

import { api, ApiError } from "./api.js";
import { follow } from "./follow.js";
import { buttonIcon, drawQuilt, drawShape, drawTrack, hourglassIcon, seatIcon, shapeCells } from "./draw.js";
import { aimAt, aimable, handleOf, moveAt } from "./placement.js";
import { announce } from "./announce.js";
import { describeQuilts, seatCounts } from "./describe.js";
import { clockRequest, runClocks } from "./clocks.js";
import { playerToken, showLobby, wireLobby } from "./lobby.js";
import { LANGUAGE_NAMES, LANGUAGES, language, moveWords, startingLanguage, t, tn, useLanguage, withNodes } from "./i18n.js";
import { renderAnalysis, wireAnalysis } from "./analysis.js";
import { showGamePeople, wireChallenges } from "./challenges.js";
import { offersRecord, offersShow, onOffer, openOffers, wireOffers } from "./offers.js";
import { named } from "./names.js";
import { followPlayer } from "./player-stream.js";
import { wireTournaments } from "./tournaments.js";
import { showExport, wireImport } from "./records.js";
import { hideViews, showView, translateView } from "./views.js";
import { clearWatchers, showWatchers } from "./watching.js";

const $ = (id) => document.getElementById(id);

const page = {
  patches: new Map(),   // id -> Patch, from GET /patches
  gameId: null,
  token: null,          // our seat's token (or our player's), null when watching
  asPlayer: false,      // the token is the player token of localStorage (lobby.js)
  seat: null,           // our seat (0 or 1), null when watching
  game: null,           // the latest Game shown (the one with the highest version)
  choice: null,         // while placing a patch: {patchId, orientations, index}
  leather: null,        // while placing leather: the legal place_leather moves
  aim: null,            // the pinned preview on our quilt: {row, col} of the patch's handle (placement.js)
  busy: false,          // a move is on its way
  logFilled: null,      // the game whose moves before the page opened it are in the log (fillLog)
  stopFollowing: () => {},
  stopClocks: () => {},
};

// ---- Starting: the fragment names a game, or we offer to create one ----

async function start() {
  showMessage(null);
  page.stopFollowing();
  const fragment = new URLSearchParams(location.hash.slice(1));
  try {
    if (page.patches.size === 0) {
      for (const patch of await api.patches()) page.patches.set(patch.id, patch);
    }
    $("lobby").hidden = true;
    $("guest").hidden = true;
    hideViews();
    followPlayer(playerToken());
    page.asPlayer = fragment.get("as") === "player";
    const token = page.asPlayer ? playerToken() : fragment.get("token");
    if (fragment.has("game") && token && fragment.has("invite")) await askGuestName(fragment.get("game"), token);
    else if (fragment.has("game")) await openGame(fragment.get("game"), token);
    else if (fragment.has("lobby")) await showLobby(showMessage);
    else if (!(await showView(fragment, showMessage))) await showSetup();
  } catch (error) {
    showMessage(error);
  }
}

async function showSetup() {
  $("game").hidden = true;
  const select = $("opponent");
  select.replaceChildren();
  for (const bot of await api.bots()) {
    select.append(new Option(t("Computer: {bot} ({description})", { bot: bot.id, description: bot.description }), bot.id));
  }
  select.append(new Option(t("A friend (you get an invite link)"), ""));
  showFriendName();
  $("setup").hidden = false;
}

/** The friend's name is asked for only when the opponent is a friend. */
function showFriendName() {
  $("friend-name-label").hidden = $("opponent").value !== "";
}

async function createGame(event) {
  event.preventDefault();
  const name = $("name").value.trim() || t("Player 1");
  const bot = $("opponent").value;
  const friend = $("friend-name").value.trim() || t("Player 2");
  const opponent = bot ? { name: t("Computer ({bot})", { bot }), bot } : { name: friend };
  $("start").disabled = true;
  try {
    const { game, tokens } = await api.createGame([{ name }, opponent], clockRequest($("clock").value));
    // Our own link replaces the page's address, so a reload comes back to the game.
    history.replaceState(null, "", `#game=${game.id}&token=${tokens[0]}`);
    if (!bot) showInvite(game.id, tokens[1]);
    await openGame(game.id, tokens[0]);
  } catch (error) {
    showMessage(error);
  } finally {
    $("start").disabled = false;
  }
}

function showInvite(gameId, token) {
  const link = new URL(location.href);
  link.hash = `game=${gameId}&token=${token}&invite`;
  $("invite-link").value = link.href;
  $("invite").hidden = false;
}

/** The guest of an invite link names their seat (the host's name for it offered), then plays. */
async function askGuestName(gameId, token) {
  $("setup").hidden = true;
  $("game").hidden = true;
  const [game, seat] = await Promise.all([api.game(gameId), api.seatOf(gameId, token)]);
  const player = game.players[seat];
  // A player's seat bears the player's name, and a finished game keeps its names: nothing to ask.
  if (game.status === "finished" || player.player_id) return joinAsGuest(gameId, token);
  $("guest-name").value = player.name;
  $("guest").hidden = false;
  $("guest").onsubmit = async (event) => {
    event.preventDefault();
    $("guest-join").disabled = true;
    try {
      await api.nameSeat(gameId, token, $("guest-name").value.trim() || player.name);
      await joinAsGuest(gameId, token);
    } catch (error) {
      showMessage(error);
    } finally {
      $("guest-join").disabled = false;
    }
  };
}

/** The game, from now on without asking for a name: a reload of this page goes straight to it. */
async function joinAsGuest(gameId, token) {
  history.replaceState(null, "", `#game=${gameId}&token=${token}`);
  $("guest").hidden = true;
  showMessage(null);
  await openGame(gameId, token);
}

async function openGame(gameId, token) {
  $("setup").hidden = true;
  $("game").hidden = false;
  Object.assign(page, { gameId, token, seat: null, game: null, choice: null, leather: null, aim: null });
  if (token) page.seat = await api.seatOf(gameId, token);
  openOffers(gameId, page.seat, token, page.asPlayer);
  clearWatchers();
  // The stream starts with a snapshot of the game, then pushes every move.
  page.stopFollowing = follow((lastId) => api.eventsUrl(gameId, lastId), onEvent);
  page.stopClocks();
  page.stopClocks = runClocks([0, 1].map((seat) => () => $(`clock-${seat}`)), () => page.game, (seat) => {
    if (seat === page.seat) announce(t("Your clock is running low."));
  });
  awaitJoiner(gameId);
}

// A join changes no version and sends no event on the game's stream (the
// host's player stream tells of it): while a seat is open, read the game again.
function awaitJoiner(gameId) {
  setTimeout(async () => {
    if (page.gameId !== gameId) return;
    if (page.game === null) return awaitJoiner(gameId);  // the snapshot has not come yet
    if (!page.game.players.some((player) => player.open)) return;
    const game = await api.game(gameId).catch(() => null);
    if (game && !game.players.some((player) => player.open)) {
      page.game = null;
      show(game);
    } else awaitJoiner(gameId);
  }, 2000);
}

function onEvent(type, data) {
  if (type === "game") {
    show(data);
    fillLog(page.gameId, data);
  } else if (type === "move") {
    offersRecord(data.move);
    logMove(data.move, data.game);
    show(data.game);
  } else if (type === "offer") {
    onOffer(data);
  } else if (type === "watchers") {
    showWatchers(data);
  }
  // `end` carries the result, which the final move's game already showed.
}

// ---- Showing a game ----

/** Show `game` unless a newer version is already shown (answers and events may cross). */
function show(game) {
  if (page.game !== null && game.version <= page.game.version) return;
  const turnChanged = page.game?.version !== game.version;
  const before = page.game;
  page.game = game;
  if (turnChanged) {
    page.choice = null;
    page.leather = null;
    page.aim = null;
    tellChange(before, game);
    if (myTurn() && game.phase === "place_leather") loadLeatherMoves(game.version);
  }
  render();
}

/** Tell a screen reader that our turn came, or the result (the moves are told as they are logged). */
function tellChange(before, game) {
  if (game.status === "finished") {
    if (before?.status !== "finished") setTimeout(() => announce($("result").textContent), 400);
  } else if (myTurn() && !(before?.status === "active" && before.turn === page.seat && before.phase === game.phase)) {
    setTimeout(() => announce(game.phase === "place_leather" ? t("You won a leather patch: place it on your quilt.") : t("Your turn.")), 400);
  }
}

const myTurn = () => page.game?.status === "active" && page.seat !== null && page.game.turn === page.seat;

function render() {
  const game = page.game;
  document.body.dataset.version = game.version;
  document.body.dataset.state = game.status === "finished" ? "over" : myTurn() ? "mine" : "theirs";
  document.body.dataset.phase = game.phase ?? "";
  // The invite is for a game still to be played.
  if (game.status === "finished") $("invite").hidden = true;
  $("status").replaceChildren(...[statusText(game)].flat());
  renderResult(game);
  $("rematch").hidden = game.status !== "finished" || page.token === null;
  renderQuilts(game);
  renderTrack(game);
  renderMarket(game);
  if (!$("description").hidden) $("description").replaceChildren(...describeQuilts(game, page.seat));
  renderControls(game);
  renderAnalysis(game);
  showExport(game);
  offersShow(game);
  showGamePeople(game, page.seat);
}

/** The turn line: a text, or parts to append when it names a player (a bot account's name with its badge). */
function statusText(game) {
  if (game.status === "finished") return t("Game over.");
  if (game.players.some((player) => player.open)) return t("Waiting for an opponent to join…");
  const mover = game.players[game.turn];
  const name = { name: named(mover) };
  // A level's seat (the service's workers play it) or a bot account's (its engine plays it through the API).
  if (mover.bot) return withNodes(t("{name} is thinking…"), name);
  if (!myTurn()) return withNodes(page.seat === null ? t("{name} to move.") : t("Waiting for {name}…"), name);
  if (game.phase === "place_leather") return t("You won a leather patch: click or tap an empty cell of your quilt to place it.");
  if (page.choice) return t("Put the patch's marked cell on a highlighted cell: a click places it there; a tap shows it there, then Confirm. Rotate or flip it first if you like.");
  return t("Your turn: choose a patch from the first three, or advance.");
}

function renderResult(game) {
  const box = $("result");
  box.hidden = game.result === null;
  if (game.result === null) return;
  const { scores, winner, reason } = game.result;
  if (winner === null) {
    box.textContent = t("Aborted: the first move did not come in time.");
    return;
  }
  // The winner's score first, as the result is said: "Ada wins 27 to 16". The name is put in last, with
  // a bot account's badge.
  const values = { score: scores[winner], other: scores[1 - winner] };
  const mine = winner === page.seat;
  let text;
  if (reason === "resigned") {
    text = mine ? t("You win: {score} to {other} (by resignation).", values)
      : t("{name} wins: {score} to {other} (by resignation).", values);
  } else if (reason === "timeout") {
    text = mine ? t("You win: {score} to {other} (on time).", values)
      : t("{name} wins: {score} to {other} (on time).", values);
  } else {
    text = mine ? t("You win: {score} to {other}.", values) : t("{name} wins: {score} to {other}.", values);
  }
  box.replaceChildren(...withNodes(text, { name: named(game.players[winner]) }));
}

/** Each seat's panel: mine first (a phone shows it right under the market), the other after it. */
function renderQuilts(game) {
  const focused = document.activeElement?.matches?.(".quilt.mine") ?? false;
  const panels = game.players.map((player, seat) => {
    const panel = document.createElement("section");
    const mine = seat === (page.seat ?? 0);
    panel.className = `player seat-${seat}${game.turn === seat ? " in-turn" : ""}`;
    panel.dataset.place = mine ? "first" : "second";
    const title = document.createElement("h3");
    title.id = `seat-title-${seat}`;
    panel.setAttribute("aria-labelledby", title.id);
    // The seat's mark (a disc or a square, its token on the time track) and words: never colour alone.
    title.append(seatIcon(seat), " ", named(player), seat === page.seat ? " " + t("(you)") : "",
      // A level's id: the service's own bot plays the seat (a bot account's `true` is its badge).
      typeof player.bot === "string" ? " · " + t("bot {bot}", { bot: player.bot }) : "");
    const stats = document.createElement("p");
    stats.className = "stats";
    stats.textContent = seatCounts(player) + (player.has_bonus ? " · " + t("7×7 bonus") : "");
    const clock = document.createElement("p");
    clock.className = "clock";
    clock.id = `clock-${seat}`;
    clock.hidden = !game.clock;
    panel.append(title, clock, stats);
    // The seat in turn is told in words as well as by its frame.
    if (game.turn === seat && game.status === "active") {
      panel.append(Object.assign(document.createElement("p"), { className: "turn-mark", textContent: t("to move") }));
    }
    if (player.bot !== null && game.turn === seat && game.status === "active") {
      const thinking = document.createElement("p");
      thinking.className = "thinking";
      thinking.textContent = t("thinking…");
      panel.append(thinking);
    }
    const quilt = drawQuilt(player.quilt, t("{name}'s quilt", { name: player.name }),
      (id) => page.patches.get(id)?.income ?? 0);
    if (seat === page.seat) {
      quilt.element.classList.add("mine");
      makeInteractive(quilt);
    }
    panel.append(quilt.element);
    return panel;
  });
  $("quilts").replaceChildren(...panels);
  if (focused) document.querySelector(".quilt.mine[tabindex]")?.focus();
}

/** The time track, in rows as many spaces long as its width shows readably (about 26 px a space). */
function renderTrack(game) {
  const width = $("track").clientWidth || document.documentElement.clientWidth;
  const perRow = Math.max(9, Math.min(game.track_length + 1, Math.floor(width / 26)));
  const where = game.players.map((player) => t("{name} on space {space}", { name: player.name, space: player.position })).join(", ");
  $("track").replaceChildren(drawTrack(game, perRow, t("Time track, spaces 0 to {last}: {where}.", { last: game.track_length, where })));
  const legend = game.players.map((player, seat) => {
    const item = document.createElement("li");
    item.append(seatIcon(seat), " ", named(player));
    return item;
  });
  const income = document.createElement("li");
  income.append(buttonIcon(), " ", t("income: passing it pays each player their quilt's buttons"));
  const leather = document.createElement("li");
  leather.append(Object.assign(document.createElement("span"), { className: "leather-icon" }), " ",
    t("leather patch: the first to pass it places it"));
  $("track-legend").replaceChildren(...legend, income, leather);
}

function renderMarket(game) {
  const me = page.seat === null ? null : game.players[page.seat];
  const cards = game.circle.map((id, index) => {
    const patch = page.patches.get(id);
    const card = document.createElement("button");
    card.type = "button";
    card.className = "patch";
    card.dataset.patchId = id;
    const inMarket = index < game.market.length;
    const buyable = inMarket && myTurn() && game.phase === "choose" && !page.busy && me.buttons >= patch.cost;
    card.disabled = !buyable;
    if (buyable) card.classList.add("buyable");
    if (!inMarket) card.classList.add("later");
    if (page.choice?.patchId === id) card.classList.add("chosen");
    const label = document.createElement("span");
    label.className = "price";
    // The hourglass is drawn, not a glyph: a browser without an emoji font shows ⏱ as an empty box.
    label.append(buttonIcon(), `${patch.cost} `, hourglassIcon(), `${patch.time} +${patch.income}`);
    card.title = tn("Patch {id}: costs {cost} button and {time} time, income {income}",
      "Patch {id}: costs {cost} buttons and {time} time, income {income}", "cost", {
        id, cost: patch.cost, time: patch.time, income: patch.income,
      });
    // A screen reader reads the sentence, then the figures shown.
    const said = Object.assign(document.createElement("span"), { className: "visually-hidden", textContent: card.title + ":" });
    const shape = drawShape(shapeCells(patch.shape), id);
    shape.setAttribute("aria-hidden", "true");
    card.append(said, shape, label);
    card.addEventListener("click", () => choosePatch(id));
    return card;
  });
  $("market").replaceChildren(...cards);
  $("market-legend").replaceChildren(buttonIcon(), " ", t("cost in buttons"), " · ", hourglassIcon(), " ",
    t("time (spaces on the track)"), " · ", t("+ income (buttons it earns at each income space)"));
}

function renderControls(game) {
  const choosing = page.choice !== null;
  const playing = myTurn() && !page.busy;
  $("advance").hidden = !(playing && game.phase === "choose");
  $("resign").hidden = !(page.seat !== null && game.status === "active");
  $("rotate").hidden = $("flip").hidden = $("cancel").hidden = !choosing;
  const aiming = page.aim !== null && !page.busy && (choosing || page.leather !== null);
  $("confirm").hidden = !aiming;
  $("confirm").disabled = !aiming || moveAt(aimable(aimedMoves()), page.aim) === null;
  const orientation = $("orientation");
  orientation.replaceChildren();
  if (choosing) {
    const { patchId, orientations, index } = page.choice;
    const cells = orientations[index].moves[0].placement.cells;
    const shape = drawShape(cells, patchId, 12);
    // The handle, the cell that goes where the player aims (placement.js), marked with a dot.
    const [row, col] = handleOf(cells);
    shape.querySelector(`rect[data-row="${row}"][data-col="${col}"]`)?.classList.add("handle");
    shape.setAttribute("role", "img");
    const flipped = orientations[index].flipped ? ", " + t("flipped") : "";
    shape.setAttribute("aria-label", t("Patch {id}, turned {rotation}°{flipped}", {
      id: patchId, rotation: orientations[index].rotation, flipped,
    }));
    orientation.append(shape);
    $("rotate").disabled = $("flip").disabled = orientations.length < 2;
  }
}

// ---- Choosing and placing a patch ----

/** Fetch the legal placements of `patchId` and group them by orientation. */
async function choosePatch(patchId) {
  const version = page.game.version;
  try {
    const legal = await api.legalMoves(page.gameId, patchId);
    if (page.game.version !== version || legal.version !== version) return; // the game moved on
    if (legal.moves.length === 0) {
      showMessage(new Error(t("That patch fits nowhere on your quilt.")));
      return;
    }
    showMessage(null);
    // One group per orientation, in the service's order: flipped false then true, rotation 0..270.
    const groups = new Map();
    for (const move of legal.moves) {
      const { rotation, flipped } = move.placement;
      const key = `${flipped}/${rotation}`;
      if (!groups.has(key)) groups.set(key, { rotation, flipped, moves: [] });
      groups.get(key).moves.push(move);
    }
    page.choice = { patchId, orientations: [...groups.values()], index: 0 };
    page.aim = null;
    render();
    document.querySelector(".quilt.mine")?.focus();
    announce(t("Patch {id} picked: aim it at your quilt.", { id: patchId }));
  } catch (error) {
    showMessage(error);
  }
}

/** Rotate: the next orientation clockwise with the same side up; flip: the other side. */
function turnPatch(flip) {
  const { orientations, index } = page.choice;
  const now = orientations[index];
  const sameSide = (o) => o.flipped === now.flipped;
  const candidates = orientations
    .map((o, i) => ({ o, i }))
    .filter(({ o }) => (flip ? !sameSide(o) : sameSide(o)));
  if (candidates.length === 0) return;
  // Next rotation after the current one (wrapping), or for a flip the same rotation if it is legal.
  const step = ({ o }) => (o.rotation - now.rotation + 360 - (flip ? 0 : 1)) % 360;
  candidates.sort((a, b) => step(a) - step(b));
  page.choice.index = candidates[0].i;
  render();
}

/** The moves our quilt is aimed for: the chosen patch's orientation, or the leather patch's cells. */
function aimedMoves() {
  if (page.choice) return page.choice.orientations[page.choice.index].moves;
  return page.leather ?? [];
}

/** Our quilt as the place to aim the chosen patch or the leather patch at (placement.js). */
function makeInteractive(quilt) {
  if (page.busy || !(page.choice || page.leather)) return;
  aimAt(quilt, aimedMoves(), page.aim, {
    aim: (at) => {
      page.aim = at;
      render();
      const fit = moveAt(aimable(aimedMoves()), at) !== null ? t("it fits") : t("it does not fit");
      announce(t("Row {row}, column {col}: {fit}", { row: at.row + 1, col: at.col + 1, fit }));
    },
    place: play,
    rotate: () => { if (page.choice) turnPatch(false); },
    flip: () => { if (page.choice) turnPatch(true); },
    cancel: () => {
      if (!page.choice) return;
      page.choice = null;
      page.aim = null;
      render();
      $("market").querySelector("button.buyable")?.focus();
    },
    tell: (why) => announce(why === "misfit" ? t("It does not fit there.") : t("Use the arrow keys to aim first.")),
  });
}

async function loadLeatherMoves(version) {
  try {
    const legal = await api.legalMoves(page.gameId);
    if (page.game.version !== version || legal.version !== version) return;
    page.leather = legal.moves;
    render();
  } catch (error) {
    showMessage(error);
  }
}

// ---- Moves ----

/** Send a move from the legal-moves list (placements go as their cells). */
async function play(move) {
  const body = move.action === "buy"
    ? { action: "buy", patch_id: move.patch_id, placement: { cells: move.placement.cells } }
    : move;
  await submit(() => api.move(page.gameId, page.token, body));
}

async function submit(request) {
  page.busy = true;
  page.aim = null;
  render();
  try {
    showMessage(null);
    show(await request());
  } catch (error) {
    showMessage(error);
  } finally {
    page.busy = false;
    render();
  }
}

/**
 * The moves made before the page opened the game (a reload, a link, a game
 * over): the stream pushes only the moves after its snapshot. Read once per
 * game shown, they go under any the stream has logged meanwhile.
 */
async function fillLog(gameId, game) {
  if (page.logFilled === gameId || game.moves_played === 0) return;
  page.logFilled = gameId;
  const moves = await api.history(gameId).catch(() => null);
  if (moves === null) {
    page.logFilled = null; // the next snapshot (a reconnect) tries again
    return;
  }
  if (page.gameId !== gameId) return;
  const logged = new Set(Array.from($("log").children, (item) => Number(item.dataset.number)));
  for (const move of moves.reverse()) {
    if (!logged.has(move.number)) $("log").append(moveItem(move, page.game ?? game));
  }
}

function logMove(move, game) {
  const item = moveItem(move, game);
  $("log").prepend(item);
  announce(item.textContent);
}

// What each item of the log says, kept so that a change of language can say it again.
const logged = new WeakMap();

function moveItem(move, game) {
  const item = document.createElement("li");
  item.value = move.number;
  item.dataset.number = move.number;
  logged.set(item, { move, who: game.players[move.seat].name });
  item.textContent = logText(logged.get(item));
  return item;
}

/** A log item's words: the move, and for a move on the board what it paid and where it went. */
function logText({ move, who }) {
  const { action, outcome } = move;
  const what = moveWords(move, who);
  if (!outcome || !["buy", "advance", "place_leather"].includes(action)) return what;
  const gained = (outcome.buttons >= 0 ? "+" : "") + outcome.buttons;
  return what + " " + tn("({buttons} button, to space {space})", "({buttons} buttons, to space {space})", "count", {
    buttons: gained, space: outcome.to, count: Math.abs(outcome.buttons),
  });
}

/** The log said again in the page's language (after a switch). */
function translateLog() {
  for (const item of $("log").children) {
    if (logged.has(item)) item.textContent = logText(logged.get(item));
  }
}

function showMessage(error) {
  const box = $("message");
  box.hidden = error === null;
  if (error === null) return;
  box.textContent = error instanceof ApiError && error.problem?.code
    ? `${error.message} (${error.problem.code})`
    : error.message;
}

// ---- Wiring ----

$("setup").addEventListener("submit", createGame);
wireLobby(showMessage);
wireAnalysis();
wireChallenges(showMessage);
wireOffers(showMessage);
wireTournaments(showMessage);
wireImport(showMessage);
$("advance").addEventListener("click", () => submit(() => api.move(page.gameId, page.token, { action: "advance" })));
$("resign").addEventListener("click", () => {
  if (confirm(t("Resign this game?"))) submit(() => api.resign(page.gameId, page.token));
});
$("opponent").addEventListener("change", showFriendName);
$("rotate").addEventListener("click", () => turnPatch(false));
$("flip").addEventListener("click", () => turnPatch(true));
$("cancel").addEventListener("click", () => { page.choice = null; page.aim = null; render(); });
$("confirm").addEventListener("click", () => {
  const move = moveAt(aimable(aimedMoves()), page.aim);
  if (move) play(move);
});
$("describe").addEventListener("click", () => {
  const box = $("description");
  box.hidden = !box.hidden;
  $("describe").setAttribute("aria-expanded", String(!box.hidden));
  if (!box.hidden && page.game) box.replaceChildren(...describeQuilts(page.game, page.seat));
});
// The time track's rows follow the page's width.
let trackWidth = 0;
window.addEventListener("resize", () => {
  const width = $("track").clientWidth;
  if (page.game && width !== trackWidth) {
    trackWidth = width;
    renderTrack(page.game);
  }
});
// Opening an invite link in a tab that shows another game; coming back from the back-forward cache.
window.addEventListener("hashchange", () => {
  $("log").replaceChildren();
  page.logFilled = null;
  $("invite").hidden = true;
  start();
});
window.addEventListener("pageshow", (event) => { if (event.persisted) start(); });

/** The names the form offers, in the page's language, unless the player typed their own. */
function translateDefaultNames() {
  const offered = { name: ["Player 1", t("Player 1")], "friend-name": ["Player 2", t("Player 2")] };
  for (const [id, [english, translated]] of Object.entries(offered)) {
    const input = $(id);
    if (input.value === (input.dataset.offered ?? english)) input.value = input.dataset.offered = translated;
  }
}

/** The language switcher: every text of the page, and the service's answers, in the chosen language. */
async function switchLanguage(next, remember) {
  await useLanguage(next, remember);
  $("language").value = next;
  $("rules-link").href = `rules?lang=${next}`;
  translateDefaultNames();
  translateLog();
  if (page.game !== null) render();
  if (!$("setup").hidden) await showSetup();
  await translateView(showMessage);
}

for (const code of LANGUAGES) $("language").append(new Option(LANGUAGE_NAMES[code], code));
$("language").addEventListener("change", (event) => switchLanguage(event.target.value, true).catch(showMessage));
switchLanguage(startingLanguage(), false).catch(showMessage).finally(start);
