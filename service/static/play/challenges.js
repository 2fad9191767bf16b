// Challenges (docs/api-guide.md, "Challenges"): ask a named player for a
// game, from their profile or from a game, with a clock, rated or not, and
// who starts; or share a link that whoever opens it may accept. The lobby
// lists the player's pending challenges, incoming (accept, or decline with a
// reason) and outgoing (withdraw); the player's stream keeps that list live.

import { clockRequest, describeClock, formatTime } from "./clocks.js";
import { language, t, withNodes } from "./i18n.js";
import { playerToken } from "./lobby.js";
import { botBadge, isBotAccount, named } from "./names.js";
import { notify } from "./notices.js";
import { playerApi } from "./player-api.js";
import { followPlayer, onPlayerEvent } from "./player-stream.js";
import { showWebhooks } from "./webhooks.js";

const $ = (id) => document.getElementById(id);

// The reasons a decline may give, as the person declining reads them.
const DECLINE_REASONS = {
  generic: () => t("I am not taking challenges now"),
  later: () => t("Not now: ask me later"),
  too_fast: () => t("Too fast for me"),
  too_slow: () => t("Too slow for me"),
  rated: () => t("I would rather play a rated game"),
  casual: () => t("I would rather play a casual game"),
};

let me = null; // {token, profile: Promise}: this browser's player, read once per token

/** This browser's player (GET /players/me), or null when it is not one. */
export function myProfile() {
  const token = playerToken();
  if (!token) return Promise.resolve(null);
  if (me?.token !== token) {
    const profile = playerApi.me();
    me = { token, profile };
    profile.catch(() => { if (me?.profile === profile) me = null; });
  }
  return me.profile;
}

const gameFragment = (gameId) => `game=${encodeURIComponent(gameId)}&as=player`;
const challengeLink = (challengeId) => {
  const link = new URL(location.href);
  link.hash = `challenge=${encodeURIComponent(challengeId)}`;
  return link.href;
};

/** "3 min + 2 s a move, rated": what a challenge proposes. */
function terms(challenge) {
  return `${describeClock(challenge.clock)}, ${challenge.rated ? t("rated") : t("casual")}`;
}

const nameOf = (side) => (side.rating === null || side.rating === undefined ? side.name : `${side.name} (${side.rating})`);

/** "Ada (1500) challenges you: 3 min + 2 s a move, rated.", a bot account's name badged: parts to append. */
const challengedBy = (challenge) =>
  withNodes(t("{name} challenges you: {terms}.", { terms: terms(challenge) }), { name: named(challenge.from, nameOf(challenge.from)) });

// ---- The challenge form (a dialog) ----

let target = null; // the profile challenged ({id, name}), null for a challenge by link

/** Open the form to challenge `player` ({id, name}), or, with null, to make a challenge by link. */
export function openChallengeDialog(player) {
  target = player;
  $("challenge-title").textContent = player ? t("Challenge {name}", { name: player.name }) : t("Challenge by link");
  syncRated();
  $("challenge-dialog").showModal();
}

// A rated game needs a clock.
function syncRated() {
  const noClock = $("challenge-clock").value === "";
  $("challenge-rated").disabled = noClock;
  if (noClock) $("challenge-rated").checked = false;
}

async function sendChallenge(event, showMessage) {
  event.preventDefault();
  const seat = $("challenge-seat").value;
  const to = target;
  $("challenge-send").disabled = true;
  try {
    const { challenge } = await playerApi.challenge(
      to?.id ?? null, clockRequest($("challenge-clock").value), $("challenge-rated").checked,
      seat === "" ? null : Number(seat),
    );
    $("challenge-dialog").close();
    showMessage(null);
    if (to === null) {
      $("open-challenge-url").value = challengeLink(challenge.id);
      $("open-challenge-link").hidden = false;
    } else {
      notify(t("Challenge sent to {name}: waiting for an answer.", { name: to.name }), "#lobby", t("Lobby"));
    }
    await listChallenges(showMessage);
  } catch (error) {
    $("challenge-dialog").close();
    showMessage(error);
  } finally {
    $("challenge-send").disabled = false;
  }
}

// ---- The lobby's list ----

/** The player's pending challenges, incoming then outgoing, into the lobby (when the browser is a player). */
export async function listChallenges(showMessage) {
  followPlayer(playerToken()); // none (forgotten): the stream stops
  if (!playerToken()) return;
  try {
    const { incoming, outgoing } = await playerApi.myChallenges();
    const items = [...incoming.map((c) => incomingItem(c, showMessage)), ...outgoing.map((c) => outgoingItem(c, showMessage))];
    if (items.length === 0) items.push(Object.assign(document.createElement("li"), { textContent: t("No pending challenge.") }));
    $("challenges").replaceChildren(...items);
  } catch (error) {
    showMessage(error);
  }
}

function incomingItem(challenge, showMessage) {
  const item = document.createElement("li");
  item.className = "incoming";
  item.dataset.challenge = challenge.id;
  item.append(...challengedBy(challenge), " ");
  const accept = button(t("Accept"), "accept", () => acceptChallenge(challenge.id, showMessage));
  const reason = document.createElement("select");
  reason.className = "reason";
  reason.setAttribute("aria-label", t("Why"));
  for (const [code, label] of Object.entries(DECLINE_REASONS)) reason.append(new Option(label(), code));
  const decline = button(t("Decline"), "decline", () => playerApi.declineChallenge(challenge.id, reason.value)
    .then(() => listChallenges(showMessage)).catch(showMessage));
  item.append(accept, " ", reason, " ", decline);
  return item;
}

function outgoingItem(challenge, showMessage) {
  const item = document.createElement("li");
  item.className = "outgoing";
  item.dataset.challenge = challenge.id;
  if (challenge.to === null) {
    item.append(t("Your challenge by link: {terms}.", { terms: terms(challenge) }), " ");
    item.append(Object.assign(document.createElement("a"), { href: challengeLink(challenge.id), textContent: t("the link") }), " ");
  } else {
    const words = t("You challenge {name}: {terms}.", { terms: terms(challenge) });
    item.append(...withNodes(words, { name: named(challenge.to, nameOf(challenge.to)) }), " ");
  }
  item.append(button(t("Withdraw"), "withdraw", () => playerApi.withdrawChallenge(challenge.id)
    .then(() => listChallenges(showMessage)).catch(showMessage)));
  return item;
}

function button(text, className, onClick) {
  const element = Object.assign(document.createElement("button"), { type: "button", className, textContent: text });
  element.addEventListener("click", onClick);
  return element;
}

async function acceptChallenge(challengeId, showMessage) {
  try {
    const { game } = await playerApi.acceptChallenge(challengeId);
    location.hash = gameFragment(game.id);
  } catch (error) {
    showMessage(error);
    listChallenges(showMessage);
  }
}

// ---- A challenge by link: #challenge=<id> ----

export async function showOpenChallenge(challengeId, showMessage) {
  const [{ challenge }, mine] = await Promise.all([
    playerApi.challengeById(challengeId), myProfile().catch(() => null),
  ]);
  const form = $("challenge-accept-form");
  const fromMe = mine !== null && challenge.from.player_id === mine.id;
  const forMe = challenge.to === null || (mine !== null && challenge.to.player_id === mine.id);
  // A rated game is between two players; an unrated one may take a guest by name.
  const asGuest = mine === null && !challenge.rated;
  const texts = [];
  if (challenge.status !== "pending") texts.push(statusText(challenge.status));
  else if (fromMe) texts.push(t("This is your own challenge: send its link to whoever you want to play."));
  else if (!forMe) texts.push(t("This challenge is for {name}.", { name: challenge.to.name }));
  else if (mine === null && !asGuest) texts.push(t("A rated game is between players: become one in the lobby to accept it."));
  $("challenge-text").replaceChildren(...challengedBy(challenge), ...texts.map((text) => ` ${text}`));
  form.hidden = challenge.status !== "pending" || fromMe || !forMe || (mine === null && !asGuest);
  $("challenge-guest-label").hidden = !asGuest;
  form.onsubmit = async (event) => {
    event.preventDefault();
    $("challenge-accept").disabled = true;
    try {
      const accepted = await playerApi.acceptChallenge(challengeId, asGuest ? $("challenge-guest-name").value.trim() || t("Player") : null);
      location.hash = asGuest
        ? `game=${encodeURIComponent(accepted.game.id)}&token=${encodeURIComponent(accepted.token)}`
        : gameFragment(accepted.game.id);
    } catch (error) {
      showMessage(error);
    } finally {
      $("challenge-accept").disabled = false;
    }
  };
}

function statusText(status) {
  return {
    accepted: t("It was accepted."),
    declined: t("It was declined."),
    cancelled: t("It was withdrawn."),
    expired: t("It has expired."),
  }[status] ?? status;
}

// ---- A player's profile: #player=<id> ----

export async function showProfile(playerId, showMessage) {
  const [profile, mine] = await Promise.all([playerApi.profile(playerId), myProfile().catch(() => null)]);
  $("profile-name").replaceChildren(named(profile));
  $("profile-stats").textContent = t("Rating {rating} · rated games: {games}", profile);
  const other = mine !== null && mine.id !== profile.id;
  const blocked = other && (await playerApi.blocks()).players.includes(profile.id);
  $("profile-challenge").hidden = !other || blocked;
  $("profile-block").hidden = !other || blocked;
  $("profile-unblock").hidden = !blocked;
  $("profile-challenge").onclick = () => openChallengeDialog(profile);
  const blocking = (block) => () => (block ? playerApi.block(profile.id) : playerApi.unblock(profile.id))
    .then(() => {
      $("profile-challenge").hidden = $("profile-block").hidden = block;
      $("profile-unblock").hidden = !block;
      notify(block ? t("{name} is blocked: no challenge from them reaches you.", profile) : t("{name} is no longer blocked.", profile));
    })
    .catch(showMessage);
  $("profile-block").onclick = blocking(true);
  $("profile-unblock").onclick = blocking(false);
  $("vacation").hidden = mine === null || mine.id !== profile.id;
  $("webhooks").hidden = true;
  if (!$("vacation").hidden) {
    showVacation(await playerApi.me(), showMessage);
    await showWebhooks(showMessage);
  }
}

/** On the player's own profile: its vacation bank, and a control to start or end a vacation (docs/api-guide.md#vacations). */
function showVacation(mine, showMessage) {
  const away = mine.vacation_until !== null;
  $("vacation-status").textContent = away
    ? t("Your correspondence clocks are paused until {until}; {days} vacation days left this year.",
      { until: new Date(mine.vacation_until).toLocaleString(language()), days: mine.vacation_days_left })
    : t("{days} vacation days left this year: a vacation pauses your correspondence clocks (real-time games never pause).",
      { days: mine.vacation_days_left });
  $("vacation-start").hidden = away;
  $("vacation-days").parentElement.hidden = away;
  $("vacation-end").hidden = !away;
  const after = (change) => change.then(() => playerApi.me()).then((next) => showVacation(next, showMessage)).catch(showMessage);
  $("vacation").onsubmit = (event) => {
    event.preventDefault();
    after(playerApi.startVacation(Number($("vacation-days").value)));
  };
  $("vacation-end").onclick = () => after(playerApi.endVacation());
}

/** On a game: the people in it, each a link to their profile, and a button to challenge them. */
export async function showGamePeople(game, mySeat) {
  const people = $("game-people");
  const seated = game.players.map((player, seat) => ({ ...player, seat })).filter((player) => player.player_id);
  const mine = seated.length === 0 ? null : await myProfile().catch(() => null);
  const parts = [];
  for (const player of seated) {
    const link = Object.assign(document.createElement("a"), {
      href: `#player=${encodeURIComponent(player.player_id)}`, textContent: player.name,
    });
    parts.push(link);
    if (isBotAccount(player)) parts.push(" ", botBadge());
    if (mine !== null && player.player_id !== mine.id && player.seat !== mySeat) {
      const profile = { id: player.player_id, name: player.name };
      parts.push(" ", button(t("Challenge"), "challenge", () => openChallengeDialog(profile)));
    }
    parts.push(" ");
  }
  if (game.tournament) {
    parts.push("· ", Object.assign(document.createElement("a"), {
      href: `#tournament=${encodeURIComponent(game.tournament.id)}`,
      textContent: t("Tournament game, round {round}", { round: game.tournament.round }),
    }));
  }
  people.replaceChildren(...parts);
}

// ---- The player's stream ----

function onStreamEvent(type, data, showMessage) {
  if (type === "challenge") {
    notify(challengedBy(data.challenge), "#lobby", t("Answer in the lobby"));
  } else if (type === "challenge_declined") {
    const { challenge } = data;
    const reason = DECLINE_REASONS[challenge.decline_reason]?.() ?? challenge.decline_reason;
    notify(t("{name} declined your challenge: “{reason}”.", { name: challenge.to?.name ?? "", reason }));
  } else if (type === "game_start") {
    startedGame(data.game, data.tournament ?? null);
  } else if (type === "low_time") {
    // Told once per game and seat (docs/api-guide.md, "Clocks"): the time left when the line was crossed.
    notify(t("Your time is running low: {time} left in a game.", { time: formatTime(data.remaining_ms) }),
      `#${gameFragment(data.game)}`, t("Open it"));
    return;
  } else {
    return;
  }
  if (!$("lobby").hidden) listChallenges(showMessage);
}

/**
 * A game started for the player (a challenge accepted, a rematch, a pairing): open it unless one is being
 * played here, or the page shows the tournament the game is of (its pairings, the game one click away).
 */
function startedGame(gameId, tournament) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("game") === gameId) return;
  const playing = !$("game").hidden && ["mine", "theirs"].includes(document.body.dataset.state);
  const onItsTournament = tournament !== null && fragment.get("tournament") === tournament.id;
  if (playing || onItsTournament) notify(t("A new game of yours has started."), `#${gameFragment(gameId)}`, t("Open it"));
  else location.hash = gameFragment(gameId);
}

export function wireChallenges(showMessage) {
  $("challenge-clock").addEventListener("change", syncRated);
  $("challenge-form").addEventListener("submit", (event) => sendChallenge(event, showMessage));
  $("challenge-cancel").addEventListener("click", () => $("challenge-dialog").close());
  $("open-challenge").addEventListener("click", () => openChallengeDialog(null));
  onPlayerEvent((type, data) => onStreamEvent(type, data, showMessage));
}
