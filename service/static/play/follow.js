// Following a game's event stream (docs/api-guide.md, "Live updates").
//
// The browser reconnects an EventSource by itself when an open stream drops
// (sending Last-Event-ID), but gives up for good when an answer is not a 200
// stream (a 503 while the service's store is down, say): readyState CLOSED.
// Then we start over ourselves, with backoff, resuming with ?last_event_id=
// since a new EventSource cannot set headers. Once the game is over nothing
// more can come: a stream that drops after the final move (before `end`) is
// answered 204 on reconnect, and the browser gives up; so do we.

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30000;

const GAME_EVENTS = { types: ["game", "move", "end", "offer", "watchers"], last: ["end"] };

/**
 * Calls onEvent(type, data) for each `game` (a snapshot), `move` ({move, game}),
 * `end` (the result), `offer` (a rematch or takeback asked or answered) and
 * `watchers` ({count}) event of the game. Returns a function that stops.
 * Another stream of the service (a tournament's) names its event `types`,
 * and the `last` ones after which nothing more comes.
 */
export function follow(url, onEvent, onConnection = () => {}, { types, last } = GAME_EVENTS) {
  let source = null;
  let lastId = null;
  let delay = FIRST_DELAY_MS;
  let timer = null;
  let stopped = false;
  let over = false; // an event showed the game finished

  function open() {
    source = new EventSource(url(lastId));
    source.onopen = () => onConnection(true);
    for (const type of types) {
      source.addEventListener(type, (event) => {
        lastId = event.lastEventId;
        delay = FIRST_DELAY_MS; // a working stream resets the backoff
        const data = JSON.parse(event.data);
        over ||= (type === "game" ? data : data.game)?.status === "finished";
        if (last.includes(type)) stop(); // the game (or tournament) is over: nothing more will come
        onEvent(type, data);
      });
    }
    source.onerror = () => {
      onConnection(false);
      if (source.readyState === EventSource.CLOSED && over) stop();
      else if (source.readyState === EventSource.CLOSED && !stopped && timer === null) {
        timer = setTimeout(() => { timer = null; open(); }, delay);
        delay = Math.min(delay * 2, MAX_DELAY_MS);
      }
      // readyState CONNECTING: the browser is reconnecting by itself.
    };
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    window.removeEventListener("pagehide", stop);
  }

  // A browser allows six connections per origin: a page going away lets its stream go.
  window.addEventListener("pagehide", stop);
  open();
  return stop;
}
