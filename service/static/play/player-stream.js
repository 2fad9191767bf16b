// The player's own event stream (GET /players/me/events): challenges, a
// declined challenge, a rematch offered, a game started, time running low (docs/api-guide.md,
// "Your games and your stream").
//
// EventSource cannot send the player token, so each connection opens with a
// one-use ticket in ?ticket=. A ticket is used up by the first request that
// names it: the browser's own reconnect would send a spent one. So on any
// error we close the stream and open a new one ourselves, with a new ticket
// and ?last_event_id= the last event seen, which replays what we missed.

import { playerApi } from "./player-api.js";

export const PLAYER_EVENTS = [
  "game_start", "your_turn", "game_end", "rematch", "rematch_offer", "challenge", "challenge_declined",
  "low_time",
];
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30000;

let running = null; // {token, stop}: at most one stream per page
const listeners = new Set();

/** Call `listener(type, data)` for each event of the player's stream (while it runs). */
export function onPlayerEvent(listener) {
  listeners.add(listener);
}

/** Follow the stream of the player whose token is `token` (null: stop following). */
export function followPlayer(token) {
  if (running?.token === token) return;
  running?.stop();
  running = token ? { token, stop: open() } : null;
}

// A browser allows six connections per origin: a page going away lets its stream go
// (start() follows again when the page comes back from the back-forward cache).
window.addEventListener("pagehide", () => followPlayer(null));

function open() {
  let source = null;
  let lastId = null;
  let delay = FIRST_DELAY_MS;
  let timer = null;
  let stopped = false;

  async function connect() {
    timer = null;
    try {
      const { ticket } = await playerApi.streamTicket();
      if (stopped) return;
      const resume = lastId === null ? "" : `&last_event_id=${encodeURIComponent(lastId)}`;
      source = new EventSource(`/players/me/events?ticket=${encodeURIComponent(ticket)}${resume}`);
    } catch {
      return retry();
    }
    for (const type of PLAYER_EVENTS) {
      source.addEventListener(type, (event) => {
        if (event.lastEventId) lastId = event.lastEventId;
        delay = FIRST_DELAY_MS;
        const data = JSON.parse(event.data);
        for (const listener of listeners) listener(type, data);
      });
    }
    source.onerror = () => {
      source.close();
      retry();
    };
  }

  function retry() {
    if (stopped || timer !== null) return;
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  }

  connect();
  return stop;
}
