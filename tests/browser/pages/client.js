// What a frontend on another origin does with the API, as functions the
// browser tests call (each resolves to a plain object the test checks).
"use strict";

async function createGame(base, body) {
  // No body: a simple request (no preflight), every default.
  const init = body === undefined ? {method: "POST"}
    : {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const resp = await fetch(`${base}/games`, init);
  const created = await resp.json();
  return {status: resp.status, id: created.game.id, tokens: created.tokens, game: created.game};
}

// Polling as docs/api-guide.md first showed it: the script sends If-None-Match itself.
async function pollWithIfNoneMatch(base, id, polls) {
  let tag = null;
  const statuses = [];
  for (let i = 0; i < polls; i++) {
    const headers = tag === null ? {} : {"If-None-Match": tag};
    const resp = await fetch(`${base}/games/${id}`, {headers});
    statuses.push(resp.status);
    if (resp.status === 200) tag = resp.headers.get("ETag");
  }
  return {statuses};
}

// Polling with no header of the script's own: a simple request. cache "no-cache"
// has the browser revalidate its stored copy (it sends If-None-Match itself).
async function pollPlain(base, id, polls) {
  const versions = [];
  for (let i = 0; i < polls; i++) {
    const resp = await fetch(`${base}/games/${id}`, {cache: "no-cache"});
    const game = await resp.json();
    versions.push(game.version);
  }
  return {versions};
}

// Seats take turns advancing until `moves` moves are made (or the game ends),
// each move with Authorization and a fresh Idempotency-Key, and If-Match when
// `ifMatch` (which makes Chromium skip its preflight cache: see the API guide).
async function playAdvances(base, id, tokens, moves, ifMatch) {
  const statuses = [];
  let game = await (await fetch(`${base}/games/${id}`)).json();
  let tag = `"${game.version}"`;
  for (let i = 0; i < moves && game.status === "active"; i++) {
    const resp = await fetch(`${base}/games/${id}/moves`, {
      method: "POST",
      headers: {
        "Authorization": `Bearer ${tokens[game.turn]}`,
        "Content-Type": "application/json",
        "Idempotency-Key": `move-${game.version}`,
        ...(ifMatch ? {"If-Match": tag} : {}),
      },
      body: JSON.stringify({action: "advance"}),
    });
    statuses.push(resp.status);
    game = await resp.json();
    tag = resp.headers.get("ETag");
  }
  return {statuses, version: game.version};
}

// An EventSource left to itself for `ms` milliseconds: what it dispatched,
// and each error with the readyState it left (0 CONNECTING: the browser
// reconnects itself; 2 CLOSED: it has given up).
async function watchEventSource(base, id, ms) {
  const seen = [];
  const source = new EventSource(`${base}/games/${id}/events`);
  for (const type of ["game", "move", "end"]) {
    source.addEventListener(type, (e) => seen.push({type, lastEventId: e.lastEventId}));
  }
  source.onerror = () => seen.push({type: "error", readyState: source.readyState});
  await new Promise((resolve) => setTimeout(resolve, ms));
  const readyState = source.readyState;
  source.close();
  return {seen, readyState};
}

// A player seeks a game and cancels the seek: DELETE from another origin, which
// the browser sends only if the preflight allows the method (issue 38).
async function seekAndCancel(base) {
  const made = await fetch(`${base}/players`, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: "Ann"}),
  });
  const auth = {"Authorization": `Bearer ${(await made.json()).token}`};
  const sought = await fetch(`${base}/seeks`, {
    method: "POST",
    headers: {...auth, "Content-Type": "application/json"},
    body: JSON.stringify({clock: {initial_s: 300, increment_s: 3}}),
  });
  const seek = (await sought.json()).seek;
  const cancelled = await fetch(`${base}/seeks/${seek.id}`, {method: "DELETE", headers: auth});
  return {statuses: [sought.status, cancelled.status], status: (await cancelled.json()).seek.status};
}
