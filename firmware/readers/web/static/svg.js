// @ts-check
// Small helpers every drawing shares: SVG elements, squares, the players' colours.
// Styles go through attributes and classes only: the page's policy forbids inline style.
const NS = "http://www.w3.org/2000/svg";

/**
 * Attributes by name; one that is undefined, null or false is left out.
 * @typedef {Record<string, string | number | boolean | null | undefined>} Attrs
 */
/**
 * A child: a node, or words (a number too); null, undefined and false are left out.
 * @typedef {Node | string | number | null | undefined | false} Child
 */

/**
 * An SVG element with attributes and children (strings become text).
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
    }
  }
  return node;
}

/**
 * An HTML element, the same way.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = String(value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
    }
  }
  return node;
}

/** Points for a polygon's "points" attribute.
 * @param {number[][]} list [x, y] each */
export const points = (list) => list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

/** "c3" -> {col: 2, row: 2}; null for anything else.
 * @param {unknown} name
 * @returns {{col: number, row: number} | null} */
export function square(name) {
  const found = /^([a-h])([1-8])$/.exec(String(name).trim());
  return found ? { col: found[1].charCodeAt(0) - 97, row: Number(found[2]) - 1 } : null;
}

/** (2, 2) -> "c3"
 * @param {number} row
 * @param {number} col */
export const squareName = (row, col) => `${"abcdefgh"[col]}${row + 1}`;

/** The players' own colours, as their LED rings show them. */
export const PLAYER_CLASS = { A: "player-a", B: "player-b" };

/**
 * A board of rows x cols squares, rank 1 at the bottom (player A's edge), files a.. left to
 * right, with their names in the margin. Returns the svg, a layer to draw on, and where each
 * square is.
 * @param {number} rows
 * @param {number} cols
 * @param {number} size  a square's side
 * @param {string} [label]  what a screen reader says it is
 * @returns {Board}
 */
export function board(rows, cols, size, label = "the board") {
  const margin = Math.round(size * 0.45);
  const width = margin + cols * size + 4;
  const height = rows * size + margin + 4;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "drawing board",
    role: "img", "aria-label": label });
  /** @param {number} row @param {number} col @returns {Spot} */
  const at = (row, col) => ({ x: margin + col * size, y: (rows - 1 - row) * size + 2 });
  const grid = svg("g", { class: "grid" });
  for (let row = 0; row < rows; row += 1) {
    for (let col = 0; col < cols; col += 1) {
      const { x, y } = at(row, col);
      grid.append(svg("rect", { x, y, width: size, height: size,
        class: (row + col) % 2 ? "square light" : "square dark", "data-square": squareName(row, col) }));
    }
    const { y } = at(row, 0);
    grid.append(svg("text", { x: margin / 2, y: y + size / 2, class: "coord" }, row + 1));
  }
  for (let col = 0; col < cols; col += 1) {
    const { x } = at(0, col);
    grid.append(svg("text", { x: x + size / 2, y: rows * size + margin * 0.65, class: "coord" },
      "abcdefgh"[col]));
  }
  const layer = svg("g", { class: "pieces" });
  root.append(grid, layer);
  /** @param {string} name */
  const place = (name) => {
    const sq = square(name);
    return sq && sq.row < rows && sq.col < cols ? at(sq.row, sq.col) : null;
  };
  return { root, layer, at, place, size };
}

/**
 * Where a square is drawn: its top left corner.
 * @typedef {{x: number, y: number}} Spot
 */
/**
 * A drawn board: its svg, the layer to draw on, where each square is.
 * @typedef {object} Board
 * @property {SVGSVGElement} root
 * @property {SVGGElement} layer
 * @property {(row: number, col: number) => Spot} at
 * @property {(name: string) => Spot | null} place  null: not a square of this board
 * @property {number} size
 */
/**
 * What a board's outlines come from: a view's change (its from and to squares), the
 * computer's asked move or a hint, a refusal's marks.
 * @typedef {object} Outlined
 * @property {{from?: string[], to?: string[], [more: string]: unknown} | null} [change]
 * @property {import("./table.js").Asked | null} [asked]
 * @property {import("./service.js").Place[]} [marks]
 */

/** A board drawing's outlines, the same in every board game: the last move's from and
 * to squares, the computer's asked move or a hint (playing alone), then a refusal's marks
 * on top.
 * @param {Board} b
 * @param {Outlined} view */
export function outlineView(b, view) {
  outline(b, view.change?.from, "from");
  outline(b, view.change?.to, "to");
  /** @param {import("./service.js").Place[] | undefined} marks @returns {string[]} */
  const squares = (marks) => (marks || []).flatMap((m) => (m.square ? [m.square] : []));
  if (view.asked) outline(b, squares(view.asked.where), view.asked.kind);
  outline(b, squares(view.marks), "wrong");
}

/** The attribute each kind of outline carries (the last move's: data-last).
 * @type {Record<string, string>} */
const MARK = { wrong: "data-mark", ask: "data-ask", hint: "data-ask" };

/** Outline squares on a board: the last move (from, to) and the marks of a refusal.
 * @param {Board} b
 * @param {string[] | undefined} names
 * @param {string} kind  from, to, wrong, ask or hint */
export function outline(b, names, kind) {
  for (const name of names || []) {
    const spot = b.place(name);
    if (!spot) continue;
    const inset = kind === "wrong" ? 2 : 3;
    b.layer.append(svg("rect", { x: spot.x + inset, y: spot.y + inset, width: b.size - 2 * inset,
      height: b.size - 2 * inset, rx: 3, class: `outline ${kind}`,
      [MARK[kind] || "data-last"]: kind,
      "data-square": name }));
  }
}

/** A count and its noun as people write it: "1 action", "2 actions", "0 walls" (the words
 * of engine/core.py counted).
 * @param {number} n @param {string} noun @param {string} [many]  a plural where an s will not do */
export function counted(n, noun, many = "") {
  return `${n} ${Math.abs(n) === 1 ? noun : many || `${noun}s`}`;
}

/** An hourglass's time left as a countdown shows it: whole seconds rounded up, so 0.4 s left
 * is "1 s" until it is 0 (the words of firmware/readers/terminal/screen.py seconds_left).
 * @param {number} left  seconds */
export const secondsLeft = (left) => `${Math.ceil(left)} s`;
