// SVG drawing: quilts, patch shapes and the time track. Only SVG attributes
// and classes, never a style attribute: the page's Content-Security-Policy
// allows no inline style.

const SVG = "http://www.w3.org/2000/svg";
export const BOARD = 9;
const CELL = 20;

/** An SVG element with attributes; `classes` is a space-separated list. */
export function svg(name, attributes = {}, classes = "") {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (classes) element.setAttribute("class", classes);
  return element;
}

/**
 * A stable colour per patch id (0, leather, is brown): the board picture's palette
 * (service/pictures/pieces.py), hues a golden angle apart, lightness and saturation in three steps.
 */
export function patchColour(id) {
  if (id === 0) return "#8a5a34";
  const hue = ((id * 0.381966) % 1) * 360;
  const lightness = [62, 72, 54][id % 3];
  const saturation = [55, 62, 48][id % 3];
  return `hsl(${hue.toFixed(1)} ${saturation}% ${lightness}%)`;
}

/** The cells of a piece that show its printed buttons: `count` spread over its `cells` in reading order. */
export function buttonCells(cells, count) {
  const sorted = [...cells].sort(([r1, c1], [r2, c2]) => r1 - r2 || c1 - c2);
  return Array.from({ length: Math.min(count, sorted.length) },
    (_, k) => sorted[Math.floor(((2 * k + 1) * sorted.length) / (2 * count))]);
}

/** A button (the game's currency) at (cx, cy), `r` its radius: a disc with two holes. */
export function buttonMark(cx, cy, r, classes = "button-mark") {
  const group = svg("g", {}, classes);
  group.append(svg("circle", { cx, cy, r }), svg("circle", { cx: cx - r / 3, cy, r: r / 5 }, "hole"),
    svg("circle", { cx: cx + r / 3, cy, r: r / 5 }, "hole"));
  return group;
}

/** A button drawn alone, to stand in text for "buttons" (a cost, a legend). */
export function buttonIcon(label = "") {
  const element = svg("svg", { viewBox: "0 0 12 12", width: 11, height: 11, "aria-hidden": "true" }, "button-icon");
  element.append(buttonMark(6, 6, 5.5));
  if (label) element.setAttribute("aria-label", label);
  return element;
}

/** A seat's token: seat 0 a disc, seat 1 a square, so the seats differ by shape as well as colour. */
export function seatToken(seat, cx, cy, r) {
  return seat === 0
    ? svg("circle", { cx, cy, r }, `token seat-${seat}`)
    : svg("rect", { x: cx - r * 0.9, y: cy - r * 0.9, width: r * 1.8, height: r * 1.8 }, `token seat-${seat}`);
}

/** A seat's token drawn alone, beside its name. */
export function seatIcon(seat) {
  const element = svg("svg", { viewBox: "0 0 12 12", width: 12, height: 12, "aria-hidden": "true" }, "seat-icon");
  element.append(seatToken(seat, 6, 6, 5));
  return element;
}

/**
 * A 9x9 quilt: `grid` as Game.players[i].quilt (null, 0 for leather, or a patch id).
 * Returns {element, cells}: cells[row][col] is each cell's <rect>, carrying
 * data-row and data-col, for the caller to mark and listen to.
 */
export function drawQuilt(grid, label, incomeOf = null) {
  const element = svg("svg", { viewBox: `0 0 ${BOARD * CELL} ${BOARD * CELL}`, role: "img", "aria-label": label }, "quilt");
  const cells = [];
  for (let row = 0; row < BOARD; row++) {
    cells.push([]);
    for (let col = 0; col < BOARD; col++) {
      const id = grid[row][col];
      const rect = svg("rect", {
        x: col * CELL, y: row * CELL, width: CELL, height: CELL,
        fill: id === null ? "#f6f1e7" : patchColour(id),
        "data-row": row, "data-col": col,
      }, id === null ? "cell empty" : "cell");
      element.append(rect);
      cells[row].push(rect);
    }
  }
  element.append(svg("path", { d: seams(grid) }, "seams"));
  if (incomeOf) element.append(...quiltButtons(grid, incomeOf));
  return { element, cells };
}

/** The buttons printed on each piece of a quilt (`incomeOf(id)` says how many a patch has). */
function quiltButtons(grid, incomeOf) {
  const pieces = new Map();
  grid.forEach((line, row) => line.forEach((id, col) => {
    if (id === null || id === 0) return;
    if (!pieces.has(id)) pieces.set(id, []);
    pieces.get(id).push([row, col]);
  }));
  const marks = [];
  for (const [id, cells] of pieces) {
    for (const [row, col] of buttonCells(cells, incomeOf(id) ?? 0)) {
      marks.push(buttonMark((col + 0.5) * CELL, (row + 0.5) * CELL, CELL * 0.27));
    }
  }
  return marks;
}

/**
 * The edges between cells of different pieces (and between a piece and an
 * empty cell), as one path: drawn dark, so two neighbouring patches of
 * similar colour still read as two.
 */
function seams(grid) {
  const same = (r, c, id) => r >= 0 && r < BOARD && c >= 0 && c < BOARD && grid[r][c] === id;
  let d = "";
  for (let row = 0; row < BOARD; row++) {
    for (let col = 0; col < BOARD; col++) {
      const id = grid[row][col];
      if (id === null) continue;
      const x = col * CELL, y = row * CELL;
      if (!same(row - 1, col, id)) d += `M${x} ${y}h${CELL}`;
      if (!same(row + 1, col, id)) d += `M${x} ${y + CELL}h${CELL}`;
      if (!same(row, col - 1, id)) d += `M${x} ${y}v${CELL}`;
      if (!same(row, col + 1, id)) d += `M${x + CELL} ${y}v${CELL}`;
    }
  }
  return d || "M0 0";
}

/** A small hourglass (a patch's time), drawn so that no emoji font is needed. */
export function hourglassIcon() {
  const element = svg("svg", { viewBox: "0 0 10 14", width: 8, height: 11, "aria-hidden": "true" }, "hourglass");
  element.append(svg("path", { d: "M1 1h8M1 13h8M2 1c0 4 6 4 6 6s-6 2-6 6M8 1c0 4-6 4-6 6s6 2 6 6" }));
  return element;
}

/** The cells [[row, col], ...] of a shape given as strings ("X." rows). */
export function shapeCells(shape) {
  const cells = [];
  shape.forEach((line, row) => [...line].forEach((c, col) => { if (c === "X") cells.push([row, col]); }));
  return cells;
}

/** A patch's cells drawn small, moved to the top-left corner. */
export function drawShape(cells, id, unit = 10) {
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  const rows = Math.max(...cells.map(([r]) => r)) - top + 1;
  const cols = Math.max(...cells.map(([, c]) => c)) - left + 1;
  const element = svg("svg", { viewBox: `0 0 ${cols * unit} ${rows * unit}`,
                               width: cols * unit, height: rows * unit }, "shape");
  for (const [r, c] of cells) {
    element.append(svg("rect", { x: (c - left) * unit, y: (r - top) * unit, width: unit, height: unit,
                                 fill: patchColour(id), "data-row": r, "data-col": c }, "shape-cell"));
  }
  return element;
}

/**
 * The time track: spaces 0..track_length, `perRow` a row (a phone shows it in
 * several rows, each space wide enough to read), every fifth space numbered,
 * income spaces marked with a button, leather patches still on the track, and
 * both players' tokens: seat 0 a disc above its space, seat 1 a square below.
 */
export function drawTrack(game, perRow, label) {
  const spaces = game.track_length + 1;
  const rows = Math.ceil(spaces / perRow);
  const size = 16;
  const band = size * 3;
  const element = svg("svg", { viewBox: `0 0 ${perRow * size} ${rows * band}`, role: "img", "aria-label": label }, "track");
  const place = (space) => ({ x: (space % perRow) * size, y: Math.floor(space / perRow) * band });
  for (let space = 0; space < spaces; space++) {
    const { x, y } = place(space);
    element.append(svg("rect", { x, y: y + size, width: size, height: size }, "space"));
    if (game.income_spaces.includes(space)) {
      element.append(buttonMark(x + size / 2, y + size * 1.5, size / 3.2, "button-mark income-space"));
    } else if (game.leather_spaces.includes(space)) {
      element.append(svg("rect", { x: x + size / 4, y: y + size * 1.25, width: size / 2, height: size / 2,
                                   fill: patchColour(0) }, "leather-space"));
    } else if (space % 5 === 0) {
      const number = svg("text", { x: x + size / 2, y: y + size * 1.5 + 2.5, "text-anchor": "middle" }, "space-number");
      number.textContent = String(space);
      element.append(number);
    }
  }
  game.players.forEach((player, seat) => {
    const { x, y } = place(Math.min(player.position, spaces - 1));
    element.append(seatToken(seat, x + size / 2, y + (seat === 0 ? size / 2 : size * 2.5), size / 2.6));
  });
  return element;
}

/**
 * Cells [[row, col], ...] drawn over a quilt of drawQuilt (its `element`), each
 * a square of `classes`: the analysis shows a move played and the best one so,
 * over the position they were chosen in.
 */
export function drawCellsOver(quilt, cells, classes, id = null) {
  const group = svg("g", id === null ? {} : { "data-patch-id": id }, classes);
  for (const [row, col] of cells) {
    group.append(svg("rect", { x: col * CELL + 1.5, y: row * CELL + 1.5, width: CELL - 3, height: CELL - 3,
                               "data-row": row, "data-col": col }));
  }
  quilt.append(group);
  return group;
}
