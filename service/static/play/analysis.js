// The post-game analysis (docs/api-guide.md, "Analysis"). Once the game is over
// the page offers it: POST /games/{id}/analysis (public, counted against a
// per-client limit: a 429 says when to ask again) queues it, and a bot worker
// computes it when no bot move waits. Nothing on the game's stream tells when it
// is done (the stream ended with the game), so the page reads GET
// /games/{id}/analysis again after each 202's Retry-After until its 200.
// Then: the chart (analysis.svg, fetched in the page's language), each
// player's summary, and every move with its class and loss. Stepping through
// the moves (the buttons, or the arrow keys) shows the mover's quilt as it was
// before the move (GET /games/{id}?version=N) with the move played filled in and
// the best one outlined.

import { api, ApiError } from "./api.js";
import { drawCellsOver, drawQuilt } from "./draw.js";
import { language, moveWords, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
// A 202 without Retry-After: look again after this long.
const POLL_SECONDS = 2;

const state = {
  gameId: null,
  game: null,             // the finished Game analysed: its players' names
  analysis: null,         // GET /games/{id}/analysis's body, once computed
  history: null,          // GET /games/{id}/moves: the moves as played
  positions: new Map(),   // version -> the Game at it (the position before move `version`)
  index: 0,               // the move shown: an index into analysis.moves
  shownIn: null,          // the language the analysis was last drawn in
  timer: null,            // a poll or a countdown to come
};

/** Called whenever the page shows a game: offers, follows and shows the analysis of a finished one. */
export function renderAnalysis(game) {
  const section = $("analysis");
  if (game.status !== "finished") {
    if (state.gameId !== null) reset(null);
    section.hidden = true;
    return;
  }
  section.hidden = false;
  if (state.gameId !== game.id) {
    // Offered, not looked up: a GET before anyone asked is a 404, which the
    // browser logs as an error on a page that did nothing wrong. The button's
    // POST answers at once for an analysis already made.
    reset(game);
    $("analyse").hidden = false;
    return;
  }
  state.game = game;
  if (state.analysis !== null && state.shownIn !== language()) showAnalysis();
}

function reset(game) {
  clearTimeout(state.timer);
  Object.assign(state, {
    gameId: game?.id ?? null, game, analysis: null, history: null, positions: new Map(),
    index: 0, shownIn: null, timer: null,
  });
  $("analyse").hidden = true;
  $("analyse").disabled = false;
  $("analysis-view").hidden = true;
  say("");
  for (const id of ["analysis-chart", "analysis-summary", "analysis-moves", "analysis-board"]) $(id).replaceChildren();
}

/** The state line of the section (pending, refused, ...); empty hides it. */
function say(text) {
  $("analysis-status").textContent = text;
  $("analysis-status").hidden = text === "";
}

/** Read the analysis: show it, wait for it, or offer to ask for it. */
async function lookUp() {
  const gameId = state.gameId;
  try {
    const found = await api.analysis(gameId);
    if (state.gameId !== gameId) return;
    if (found.pending) {
      say(t("The analysis is being computed…"));
      state.timer = setTimeout(lookUp, 1000 * (found.retryAfter ?? POLL_SECONDS));
    } else {
      await loaded(found.analysis);
    }
  } catch (error) {
    if (state.gameId !== gameId) return;
    if (error instanceof ApiError && error.problem?.code === "analysis_not_requested") {
      say("");
      $("analyse").hidden = false;
    } else say(error.message);
  }
}

/** The button: ask for the analysis, then follow it; a 429 shows why and counts down to the next try. */
export async function requestAnalysis() {
  const gameId = state.gameId;
  const button = $("analyse");
  button.disabled = true;
  try {
    await api.requestAnalysis(gameId);
    if (state.gameId !== gameId) return;
    button.hidden = true;
    await lookUp();
  } catch (error) {
    if (state.gameId !== gameId) return;
    if (error instanceof ApiError && error.status === 429) countDown(gameId, error.message, error.retryAfter ?? POLL_SECONDS);
    else {
      say(error.message);
      button.disabled = false;
    }
  }
}

/** The limit's detail, and the seconds left before the button may be pressed again. */
function countDown(gameId, detail, seconds) {
  if (state.gameId !== gameId) return;
  if (seconds <= 0) {
    say(detail);
    $("analyse").disabled = false;
    return;
  }
  // (Not in a template literal: the catalogue's extractor reads no t() inside one.)
  say(detail + " " + t("You can ask again in {seconds} s.", { seconds }));
  state.timer = setTimeout(() => countDown(gameId, detail, seconds - 1), 1000);
}

async function loaded(analysis) {
  const gameId = state.gameId;
  const history = await api.history(gameId);
  if (state.gameId !== gameId) return;
  Object.assign(state, { analysis, history, index: 0 });
  say("");
  await showAnalysis();
}

// ---- Showing it ----

const name = (seat) => state.game.players[seat].name;

/** Points to a tenth in the page's language; signed: a margin, else a loss. */
function points(value, signed = true) {
  return new Intl.NumberFormat(language(), {
    minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: signed ? "exceptZero" : "auto",
  }).format(value);
}

const CLASS_NAMES = { inaccuracy: () => t("inaccuracy"), mistake: () => t("mistake"), blunder: () => t("blunder") };

async function showAnalysis() {
  state.shownIn = language();
  $("analysis-view").hidden = false;
  renderSummary();
  renderMoves();
  const stepping = state.analysis.moves.length > 0;
  $("analysis-step").hidden = !stepping;
  if (!stepping) say(t("No move to analyse: the game ended before its first move."));
  else showStep();
  await renderChart();
}

async function renderChart() {
  const gameId = state.gameId;
  const shownIn = state.shownIn;
  try {
    const text = await api.analysisChart(gameId);
    if (state.gameId !== gameId || state.shownIn !== shownIn) return;
    // The service's own SVG, inline: the page's CSP allows no blob: or data: image, and an
    // <img> could not ask for the page's language. It holds no script and no style attribute.
    const chart = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (chart.nodeName !== "svg") return;
    chart.removeAttribute("width");
    chart.removeAttribute("height");
    $("analysis-chart").replaceChildren(document.importNode(chart, true));
    markChart();
  } catch (error) {
    say(error.message);
  }
}

/** The move shown, marked on the chart: the chart names a line across the plot for each move by its number. */
function markChart() {
  const shown = state.analysis?.moves[state.index]?.number;
  for (const line of $("analysis-chart").querySelectorAll("line.move-at")) {
    line.classList.toggle("current", Number(line.dataset.number) === shown);
  }
}

function renderSummary() {
  const items = state.analysis.summary.map((seat, index) => {
    const item = document.createElement("li");
    item.textContent = t("{name}: accuracy {accuracy}% · inaccuracies: {inaccuracies} · mistakes: {mistakes} · blunders: {blunders}", {
      name: name(index),
      accuracy: seat.accuracy,
      inaccuracies: seat.inaccuracies ?? 0,
      mistakes: seat.mistakes,
      blunders: seat.blunders,
    });
    return item;
  });
  $("analysis-summary").replaceChildren(...items);
}

/** A move of the history as the move list tells it. */
const played = (record) => moveWords(record, name(record.seat));

function renderMoves() {
  const items = state.analysis.moves.map((move, index) => {
    const item = document.createElement("li");
    item.value = move.number;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.number = move.number;
    button.dataset.class = move.class ?? "";
    const what = document.createElement("span");
    what.textContent = played(state.history[move.number - 1]);
    const label = document.createElement("span");
    label.className = `move-class ${move.class ?? "none"}`;
    label.textContent = move.class ? CLASS_NAMES[move.class]() : "";
    const loss = document.createElement("span");
    loss.className = "loss";
    loss.textContent = t("{loss} points lost", { loss: points(move.loss, false) });
    button.append(what, label, loss);
    button.addEventListener("click", () => { state.index = index; showStep(); });
    item.append(button);
    return item;
  });
  $("analysis-moves").replaceChildren(...items);
}

/** The cells a move covers on the mover's quilt: a buy's placement, a leather patch's cell, none for an advance. */
function cellsOf(move) {
  if (move.action === "buy") return move.placement.cells;
  if (move.action === "place_leather") return [[move.row, move.col]];
  return [];
}

const sameMove = (a, b) => a.action === b.action && (a.patch_id ?? null) === (b.patch_id ?? null) &&
  JSON.stringify([...cellsOf(a)].map(String).sort()) === JSON.stringify([...cellsOf(b)].map(String).sort());

function bestText(best, record) {
  if (sameMove(best, record)) return t("That was the best move.");
  if (best.action === "buy") return t("Best: buy patch {patch} (outlined).", { patch: best.patch_id });
  if (best.action === "place_leather") return t("Best: the leather patch on the outlined cell.");
  return t("Best: advance.");
}

/** Show the move at state.index: its row marked, the position before it with both moves drawn. */
async function showStep() {
  const { analysis, history, gameId } = state;
  const index = state.index;
  const move = analysis.moves[index];
  const record = history[move.number - 1];
  for (const button of $("analysis-moves").querySelectorAll("button")) {
    button.classList.toggle("current", Number(button.dataset.number) === move.number);
  }
  $("analysis-moves").querySelector("button.current")?.scrollIntoView({ block: "nearest" });
  markChart();
  $("analysis-previous").disabled = index === 0;
  $("analysis-next").disabled = index === analysis.moves.length - 1;
  $("analysis-position").textContent = t("Move {number} of {count}", { number: move.number, count: history.length });
  const lines = [
    played(record) + (move.class ? ` · ${CLASS_NAMES[move.class]()}` : ""),
    bestText(move.best, record),
    t("Expected final margin for {name}: {before} with the best move, {after} after the move played.", {
      name: name(move.seat), before: points(move.eval_before), after: points(move.eval_after),
    }),
  ];
  $("analysis-caption").replaceChildren(...lines.map((line) => Object.assign(document.createElement("p"), { textContent: line })));
  try {
    if (!state.positions.has(move.number)) state.positions.set(move.number, await api.gameAt(gameId, move.number));
  } catch (error) {
    say(error.message);
    return;
  }
  if (state.gameId !== gameId || state.index !== index) return; // stepped on meanwhile
  const position = state.positions.get(move.number);
  const quilt = drawQuilt(position.players[move.seat].quilt,
    t("{name}'s quilt before move {number}", { name: name(move.seat), number: move.number }));
  drawCellsOver(quilt.element, cellsOf(record), "played", record.patch_id ?? 0);
  if (!sameMove(move.best, record)) drawCellsOver(quilt.element, cellsOf(move.best), "best", move.best.patch_id ?? 0);
  const board = $("analysis-board");
  board.replaceChildren(quilt.element);
  board.dataset.number = move.number;
}

function step(by) {
  if (state.analysis === null || state.analysis.moves.length === 0) return;
  const next = Math.min(state.analysis.moves.length - 1, Math.max(0, state.index + by));
  if (next === state.index) return;
  state.index = next;
  showStep();
}

/** The section's controls: the button, the step buttons, and ← → anywhere but in a field. */
export function wireAnalysis() {
  $("analyse").addEventListener("click", requestAnalysis);
  $("analysis-previous").addEventListener("click", () => step(-1));
  $("analysis-next").addEventListener("click", () => step(1));
  document.addEventListener("keydown", (event) => {
    if ($("analysis").hidden || $("game").hidden || state.analysis === null) return;
    if (event.target.closest?.("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      step(event.key === "ArrowLeft" ? -1 : 1);
    }
  });
}
