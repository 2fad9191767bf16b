// Tournaments (docs/api-guide.md, "Tournaments"): #tournaments lists them
// (upcoming, running, finished) and has the organiser's form;
// #tournament=<id> is one tournament: join or withdraw, its standings with
// the tie-breaks, its rounds with their pairings and results, the player's
// game of the round one click away, and for its organiser start-early and
// cancel. The page follows the tournament's event stream and reads the
// tournament again on each event: the events say that something changed,
// GET /tournaments/{id} says what it is now.

import { clockRequest, describeClock } from "./clocks.js";
import { follow } from "./follow.js";
import { language, t, tn } from "./i18n.js";
import { myProfile } from "./challenges.js";
import { playerToken } from "./lobby.js";
import { playerApi } from "./player-api.js";

const $ = (id) => document.getElementById(id);
const EVENTS = ["tournament", "round_start", "game_end", "standings", "finished", "cancelled"];
const STATUSES = ["upcoming", "running", "finished"];

const number = (value) => new Intl.NumberFormat(language()).format(value);
const when = (timestamp) =>
  new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(timestamp));
const link = (href, text) => Object.assign(document.createElement("a"), { href, textContent: text });
const item = (...parts) => {
  const element = document.createElement("li");
  element.append(...parts);
  return element;
};

/** "Swiss, 3 rounds", "Round robin, every pair twice": how it is played. */
function systemWords(tournament) {
  if (tournament.system === "swiss") {
    return tn("Swiss, {rounds} round", "Swiss, {rounds} rounds", "rounds", { rounds: tournament.rounds });
  }
  return tournament.double ? t("Round robin, every pair twice") : t("Round robin");
}

/** What a tournament is: system, clock, rated or not. */
// (Every t() call stands outside template literals: the catalogue's extractor reads no message inside one.)
function terms(tournament) {
  const kind = tournament.rated ? t("rated") : t("casual");
  return [systemWords(tournament), [describeClock(tournament.clock), kind].join(", ")].join(" · ");
}

// ---- The list: #tournaments ----

/** One tournament of a list (a TournamentSummary): a link to its page. */
function listItem(tournament) {
  const entry = item(link(`#tournament=${encodeURIComponent(tournament.id)}`, tournament.name), ` · ${terms(tournament)} · `,
    tn("{count} player", "{count} players", "count", { count: tournament.player_count }));
  entry.dataset.tournament = tournament.id;
  if (tournament.status === "upcoming") entry.append(" · ", t("starts {when}", { when: when(tournament.starts_at) }));
  if (tournament.status === "cancelled") entry.append(" · ", t("cancelled"));
  return entry;
}

async function fillList(status) {
  const list = $(`tournaments-${status}`);
  const more = $(`tournaments-${status}-more`);
  let cursor = null;
  const load = async () => {
    const { tournaments, next } = await playerApi.tournaments(status, cursor);
    list.append(...tournaments.map(listItem));
    if (list.children.length === 0) list.append(item(t("None.")));
    cursor = next;
    more.hidden = next === null;
  };
  list.replaceChildren();
  more.onclick = () => load().catch(() => { more.hidden = true; });
  await load();
}

/** #tournaments: the three lists, and the organiser's form for a player. */
export async function showTournaments() {
  const player = Boolean(playerToken());
  $("tournament-organise").hidden = !player;
  $("tournament-become").hidden = player;
  if (!player) $("tournament-form").hidden = true;
  await Promise.all(STATUSES.map(fillList));
}

// ---- The organiser's form ----

/** The datetime-local value of a moment (the browser's local time), to the minute. */
function localInput(date) {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function openForm() {
  $("tournament-form").hidden = false;
  if (!$("tournament-starts").value) $("tournament-starts").value = localInput(new Date(Date.now() + 15 * 60_000));
  if (!$("tournament-name").value) $("tournament-name").value = t("Patchwork tournament");
  syncSystem();
  $("tournament-name").focus();
}

// Swiss has a number of rounds; a round robin plays every pair once, or twice.
function syncSystem() {
  const swiss = $("tournament-system").value === "swiss";
  $("tournament-rounds-label").hidden = !swiss;
  $("tournament-rounds").disabled = !swiss;
  $("tournament-double-label").hidden = swiss;
  $("tournament-max").max = swiss ? "512" : "20";
}

const optionalNumber = (input) => (input.value === "" ? null : Number(input.value));

/** The body of POST /tournaments from the form. */
function formRequest() {
  const swiss = $("tournament-system").value === "swiss";
  const body = {
    name: $("tournament-name").value.trim(),
    system: $("tournament-system").value,
    clock: clockRequest($("tournament-clock").value),
    rated: $("tournament-rated").checked,
    starts_at: new Date($("tournament-starts").value).toISOString(),
    max_players: Number($("tournament-max").value),
    min_rating: optionalNumber($("tournament-min-rating")),
    max_rating: optionalNumber($("tournament-max-rating")),
    pause_s: Number($("tournament-pause").value),
    listed: $("tournament-listed").checked,
  };
  if (swiss) body.rounds = Number($("tournament-rounds").value);
  else body.double = $("tournament-double").checked;
  return body;
}

async function createTournament(event, showMessage) {
  event.preventDefault();
  $("tournament-create").disabled = true;
  try {
    const { tournament } = await playerApi.createTournament(formRequest());
    $("tournament-form").hidden = true;
    showMessage(null);
    location.hash = `tournament=${encodeURIComponent(tournament.id)}`;
  } catch (error) {
    showMessage(error);
  } finally {
    $("tournament-create").disabled = false;
  }
}

// ---- One tournament: #tournament=<id> ----

let shown = null; // {id, refresh, stop}: the tournament on the page, how to draw it again, how to stop following it

/** The page leaves the tournament: its stream is closed. */
export function leaveTournament() {
  shown?.stop?.();
  shown = null;
}

/** #tournament=<id>: the tournament, kept live from its stream. */
export async function showTournament(tournamentId, showMessage) {
  if (shown?.id !== tournamentId) {
    leaveTournament();
    shown = { id: tournamentId, refresh: refresher(tournamentId, showMessage), stop: null };
  }
  const view = shown;
  await view.refresh();
  // Not when the page moved on while the first read was under way.
  if (shown === view && view.stop === null) view.stop = followTournament(tournamentId, view.refresh);
}

/** A function that reads the tournament and draws it; calls while a read is on its way make one more read after it. */
function refresher(tournamentId, showMessage) {
  let reading = null;
  let again = false;
  const refresh = async () => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        const [{ tournament }, me] = await Promise.all([
          playerApi.tournament(tournamentId), myProfile().catch(() => null),
        ]);
        if (shown?.id === tournamentId) render(tournament, me, showMessage);
      } while (again);
    })();
    try {
      await reading;
    } finally {
      reading = null;
    }
  };
  return refresh;
}

/**
 * Follow the tournament's stream (follow.js: reconnected with backoff,
 * resumed after the last event seen), calling `changed()` on each event: a
 * snapshot (`tournament`) first, and again on a reconnect the service can no
 * longer resume, so nothing that happened while the stream was down is
 * missed. A tournament over has nothing more to tell. The function that stops.
 */
function followTournament(tournamentId, changed) {
  const url = (lastId) => playerApi.tournamentEventsUrl(tournamentId, lastId);
  const onEvent = (type, data) => {
    if (type === "tournament" && ["finished", "cancelled"].includes(data.status)) stop();
    changed().catch(() => {});
  };
  const stop = follow(url, onEvent, () => {}, { types: EVENTS, last: ["finished", "cancelled"] });
  return stop;
}

const isIn = (tournament, playerId) =>
  tournament.players.some((player) => player.id === playerId && !player.withdrawn);

function stateWords(tournament) {
  const count = { count: tournament.players.filter((player) => !player.withdrawn).length, max: tournament.max_players };
  switch (tournament.status) {
    case "upcoming":
      return [t("Starts {when}.", { when: when(tournament.starts_at) }),
        tn("{count} player (at most {max}).", "{count} players (at most {max}).", "count", count)].join(" ");
    case "running": {
      const words = [t("Round {round} of {rounds} is being played.", { round: tournament.round, rounds: tournament.rounds })];
      if (tournament.next_round_at !== null) words.push(t("Next round {when}.", { when: when(tournament.next_round_at) }));
      return words.join(" ");
    }
    case "finished":
      return t("Finished.");
    default:
      return t("Cancelled.");
  }
}

function render(tournament, me, showMessage) {
  $("tournament-title").textContent = tournament.name;
  const summary = [terms(tournament)];
  if (tournament.min_rating !== null || tournament.max_rating !== null) {
    summary.push(t("ratings {low} to {high}", { low: tournament.min_rating ?? "…", high: tournament.max_rating ?? "…" }));
  }
  summary.push(t("organised by {name}", { name: tournament.organiser.name }));
  $("tournament-summary").textContent = summary.join(" · ");
  $("tournament-state").textContent = stateWords(tournament);
  renderActions(tournament, me, showMessage);
  renderMyGame(tournament, me);
  renderStandings(tournament);
  $("tournament-players").replaceChildren(...tournament.players.map((player) => {
    const entry = item(link(`#player=${encodeURIComponent(player.id)}`, `${player.name} (${player.rating})`));
    if (player.withdrawn) entry.append(" · ", t("withdrawn"));
    return entry;
  }));
  if (tournament.players.length === 0) $("tournament-players").append(item(t("Nobody yet.")));
  renderRounds(tournament);
}

function renderActions(tournament, me, showMessage) {
  const upcoming = tournament.status === "upcoming";
  const playing = me !== null && isIn(tournament, me.id);
  const organiser = me !== null && tournament.organiser.id === me.id;
  $("tournament-join").hidden = me === null || playing || !upcoming;
  $("tournament-view-become").hidden = me !== null || !upcoming;
  $("tournament-withdraw").hidden = !playing || !["upcoming", "running"].includes(tournament.status);
  $("tournament-start").hidden = !organiser || !upcoming;
  $("tournament-cancel").hidden = !organiser || !upcoming;
  const act = (action, question = null) => async () => {
    if (question !== null && !confirm(question)) return;
    try {
      await playerApi.tournamentAction(tournament.id, action);
      showMessage(null);
    } catch (error) {
      showMessage(error);
    }
    await shown?.refresh().catch(showMessage);
  };
  $("tournament-join").onclick = act("join");
  $("tournament-withdraw").onclick = act("withdraw", tournament.status === "running"
    ? t("Withdraw from this tournament? You will be paired no more.") : null);
  $("tournament-start").onclick = act("start");
  $("tournament-cancel").onclick = act("cancel", t("Cancel this tournament?"));
}

/** The player's game of the round being played, one click away. */
function renderMyGame(tournament, me) {
  const box = $("tournament-my-game");
  const round = tournament.round_pairings.find((r) => r.number === tournament.round);
  const mine = me === null || tournament.status !== "running" || !round ? null : round.pairings.find(
    (pairing) => pairing.first.id === me.id || pairing.second?.id === me.id,
  );
  box.hidden = mine == null;
  if (mine == null) return;
  if (mine.second === null) {
    box.replaceChildren(t("You have a bye this round (a win)."));
  } else if (mine.game !== null) {
    const names = { first: mine.first.name, second: mine.second.name };
    const text = mine.winner === null ? t("Your game: {first} v {second}", names)
      : t("Your game is over: {first} v {second}", names);
    box.replaceChildren(link(`#game=${encodeURIComponent(mine.game)}&as=player`, text));
  }
}

function renderStandings(tournament) {
  const rows = tournament.standings.map((standing) => {
    const row = document.createElement("tr");
    const cells = [standing.rank, standing.player.name, standing.points, standing.buchholz,
      standing.sonneborn_berger, standing.margin];
    for (const [index, value] of cells.entries()) {
      const cell = document.createElement(index === 1 ? "th" : "td");
      if (index === 1) cell.scope = "row";
      cell.textContent = typeof value === "number" ? number(value) : value;
      row.append(cell);
    }
    return row;
  });
  $("tournament-standings").tBodies[0].replaceChildren(...rows);
}

function pairingItem(pairing) {
  if (pairing.second === null) return item(t("{name}: a bye", { name: pairing.first.name }));
  const names = { first: pairing.first.name, second: pairing.second.name };
  const words = t("{first} v {second}", names);
  const entry = item(pairing.game === null ? words : link(`#game=${encodeURIComponent(pairing.game)}`, words));
  if (pairing.winner !== null) {
    const winner = pairing.winner === "first" ? pairing.first.name : pairing.second.name;
    entry.append(" · ", t("{name} won by {margin}", { name: winner, margin: Math.abs(pairing.margin ?? 0) }));
  } else if (pairing.game !== null) {
    entry.append(" · ", t("being played"));
  }
  return entry;
}

function renderRounds(tournament) {
  const rounds = [...tournament.round_pairings].reverse().map((round) => {
    const section = document.createElement("section");
    const heading = document.createElement("h4");
    heading.textContent = round.status === "playing" ? t("Round {round} (being played)", { round: round.number })
      : t("Round {round}", { round: round.number });
    const list = document.createElement("ul");
    list.append(...round.pairings.map(pairingItem));
    section.append(heading, list);
    section.dataset.round = round.number;
    return section;
  });
  if (rounds.length === 0) rounds.push(Object.assign(document.createElement("p"), { textContent: t("No round yet.") }));
  $("tournament-rounds-list").replaceChildren(...rounds);
}

export function wireTournaments(showMessage) {
  $("tournament-organise").addEventListener("click", openForm);
  $("tournament-system").addEventListener("change", syncSystem);
  $("tournament-form").addEventListener("submit", (event) => createTournament(event, showMessage));
  $("tournament-form-cancel").addEventListener("click", () => { $("tournament-form").hidden = true; });
}
