// Aiming a patch (or a leather patch) at the player's own quilt. A patch is
// aimed by a cell of its own, its handle: the first of its cells in reading
// order (row by row, left to right), which a plus shape, say, does cover, unlike
// the top-left corner of its bounding box. Three ways, one preview:
// - a mouse: hovering a highlighted cell previews the patch there, a click places it;
// - a touch (or a pen): a tap previews the patch there (pinned), the Confirm button places it;
// - the keyboard, the quilt focused: the arrow keys move the pinned preview,
//   Enter or Space places it, R rotates, F flips, Escape puts the patch back.

import { BOARD } from "./draw.js";

/** The first of `cells` ([row, col] pairs) in reading order. */
export function handleOf(cells) {
  return [...cells].sort(([r1, c1], [r2, c2]) => r1 - r2 || c1 - c2)[0];
}

const key = (row, col) => `${row},${col}`;

/**
 * What can be aimed: `moves` (one orientation's buys, or the leather moves) as
 * {targets: "row,col" of the handle -> move, offsets: the cells relative to the handle}.
 */
export function aimable(moves) {
  const targets = new Map();
  let offsets = [[0, 0]];
  for (const move of moves) {
    if (move.action === "buy") {
      const cells = move.placement.cells;
      const [row, col] = handleOf(cells);
      targets.set(key(row, col), move);
      offsets = cells.map(([r, c]) => [r - row, c - col]);
    } else {
      targets.set(key(move.row, move.col), move);
    }
  }
  return { targets, offsets };
}

/** The move a handle at `aim` makes, or null where the patch does not fit. */
export const moveAt = (aimed, aim) => (aim ? aimed.targets.get(key(aim.row, aim.col)) ?? null : null);

/** The first place the handle may go (in reading order), or null. */
function firstFit(aimed) {
  const places = [...aimed.targets.keys()].map((k) => k.split(",").map(Number));
  if (places.length === 0) return null;
  const [row, col] = handleOf(places);
  return { row, col };
}

/**
 * Make the quilt `{element, cells}` (drawQuilt's) the place to aim `moves` at. `aim` is the pinned
 * preview ({row, col} of the handle, or null); `on` holds the page's answers: aim(aim) pins a new one,
 * place(move) plays, rotate(), flip(), cancel(), and tell(text) says something to a screen reader.
 */
export function aimAt(quilt, moves, aim, on) {
  const { element, cells } = quilt;
  const aimed = aimable(moves);
  const covered = (at) => aimed.offsets.map(([dr, dc]) => [at.row + dr, at.col + dc])
    .filter(([r, c]) => r >= 0 && r < BOARD && c >= 0 && c < BOARD);
  const mark = (at, on) => {
    const fits = moveAt(aimed, at) !== null;
    for (const [r, c] of covered(at)) {
      cells[r][c].classList.toggle(fits ? "preview" : "preview-bad", on);
    }
  };
  for (const [position, move] of aimed.targets) {
    const [row, col] = position.split(",").map(Number);
    const cell = cells[row][col];
    cell.classList.add(move.action === "buy" ? "anchor" : "legal");
  }
  if (aim) {
    mark(aim, true);
    cells[aim.row][aim.col].classList.add("aimed");
  }

  let pointer = "mouse";
  element.addEventListener("pointerdown", (event) => { pointer = event.pointerType || "mouse"; });
  for (let row = 0; row < BOARD; row++) {
    for (let col = 0; col < BOARD; col++) {
      const at = { row, col };
      const move = moveAt(aimed, at);
      if (!move) continue;
      const cell = cells[row][col];
      cell.addEventListener("pointerenter", (event) => {
        if (event.pointerType !== "mouse") return;
        if (aim) mark(aim, false);
        mark(at, true);
      });
      cell.addEventListener("pointerleave", (event) => {
        if (event.pointerType !== "mouse") return;
        mark(at, false);
        if (aim) mark(aim, true);
      });
      cell.addEventListener("click", () => {
        if (pointer === "mouse") on.place(move);
        else on.aim(at);
      });
    }
  }

  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "application");
  element.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const handled = () => { event.preventDefault(); event.stopPropagation(); };
    if (event.key in steps) {
      handled();
      const [dr, dc] = steps[event.key];
      const clamp = (n) => Math.min(BOARD - 1, Math.max(0, n));
      // The first key press shows the patch where it first fits; the next ones move it a cell.
      const next = aim ? { row: clamp(aim.row + dr), col: clamp(aim.col + dc) } : firstFit(aimed);
      if (!next) return;
      on.aim(next);
    } else if (event.key === "Enter" || event.key === " ") {
      handled();
      const move = moveAt(aimed, aim);
      if (move) on.place(move);
      else on.tell(aim ? "misfit" : "no-aim");
    } else if (event.key === "r" || event.key === "R") {
      handled();
      on.rotate();
    } else if (event.key === "f" || event.key === "F") {
      handled();
      on.flip();
    } else if (event.key === "Escape") {
      handled();
      on.cancel();
    }
  });
  return aimed;
}
