// Counting a game's clocks down. A Game does not tick: its `clock` gives each
// seat's time left as of its version, the seat whose time runs, and when that
// seat's flag falls (`deadline`, in the store's clock). So the page counts
// down to `deadline`, corrected for the difference between this machine's
// clock and the server's, which every answer's Date header shows (to the
// second; a later answer refines it). See docs/api-guide.md, "Clocks".

import { t, tn } from "./i18n.js";

let skewMs = 0;          // server time minus this machine's, from the last Date seen
const LOW_MS = 20_000;   // under this, a running clock is shown as low

/** Note the server's Date of an answer received now. */
export function noteServerDate(response) {
  const date = Date.parse(response.headers.get("Date") ?? "");
  if (!Number.isNaN(date)) skewMs = date + 500 - Date.now(); // Date drops the milliseconds: assume half a second
}

/** The server's time now, as well as this machine can tell. */
const serverNow = () => Date.now() + skewMs;

/** Each seat's time left now (ms): the running seat's counts down to the deadline. */
export function timeLeft(clock) {
  const left = [...clock.remaining_ms];
  if (clock.running !== null && clock.deadline !== null) {
    left[clock.running] = Math.max(0, Date.parse(clock.deadline) - serverNow());
  }
  return left;
}

/** ms as a clock face: h:mm:ss, m:ss, or 0:ss.t under ten seconds; days for correspondence. */
export function formatTime(ms) {
  if (ms < 10_000) return `0:${String(Math.floor(ms / 1000)).padStart(2, "0")}.${Math.floor((ms % 1000) / 100)}`;
  const seconds = Math.floor(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  if (hours >= 24) return `${Math.floor(hours / 24)}d ${hours % 24}h`;
  const mm = String(Math.floor((seconds % 3600) / 60)).padStart(hours ? 2 : 1, "0");
  const ss = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/**
 * Keep each seat's clock element (`finders[seat]()`, redrawn with the game) showing `game()`'s clock, ten
 * times a second; `onLow(seat)` is called once a turn, when the running clock goes under LOW_MS.
 */
export function runClocks(finders, game, onLow = () => {}) {
  let warned = null; // the game version whose running clock was said to be low
  const tick = () => {
    const clock = game()?.clock;
    for (const [seat, find] of finders.entries()) {
      const element = find();
      if (!element) continue;
      element.hidden = !clock;
      if (!clock) continue;
      const left = timeLeft(clock)[seat];
      element.textContent = formatTime(left);
      element.classList.toggle("running", clock.running === seat);
      element.classList.toggle("low", clock.running === seat && left < LOW_MS);
      if (clock.running === seat && left < LOW_MS && clock.deadline !== null && warned !== game().version) {
        warned = game().version;
        onLow(seat);
      }
    }
  };
  tick();
  const timer = setInterval(tick, 100);
  return () => clearInterval(timer);
}

/** The `clock` of POST /games for a choice of the setup form ("" for none). */
export function clockRequest(choice) {
  if (!choice) return null;
  const [kind, a, b] = choice.split(":");
  if (kind === "days") return { days_per_move: Number(a) };
  return { initial_s: Number(a), increment_s: Number(b) };
}

/** A game's, a lobby entry's or a challenge's `clock` in words. */
export function describeClock(clock) {
  if (!clock) return t("no clock");
  if (clock.days_per_move) return tn("{days} day a move", "{days} days a move", "days", { days: clock.days_per_move });
  return t("{minutes} min + {seconds} s a move", { minutes: clock.initial_s / 60, seconds: clock.increment_s });
}
