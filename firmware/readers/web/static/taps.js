// @ts-check
// The drawing is where a person acts: over a game's drawing, one target a finger taps for
// each place the game names (a square, a rod, a pad), on top of the pieces, so a tap on a
// stack or the square under it does the same. A game plugs in its targets; the page hands
// in what a tap does (the hands' act, hands.js), and none where nothing is acted on (a
// guest's page, a replay).
import { svg } from "./svg.js";

/** One place to tap: its name (what the act names), its box on the drawing, its words;
 * ``points``: its outline where it is not its box (a rod's diamond on a tower's plate seen
 * from a corner), a polygon's points inside the box.
 * @typedef {{name: string, x: number, y: number, width: number, height: number,
 *   label: string, points?: string}} Target */

/** What a tap on a target does (null: the drawing is only looked at).
 * @typedef {((name: string) => void) | null} Tap */

/** Lay the targets over the drawing, each a button to a screen reader and the keyboard.
 * @param {SVGSVGElement} root @param {Target[]} targets @param {Tap | undefined} tap */
export function tapTargets(root, targets, tap) {
  if (!tap) return;
  const layer = svg("g", { class: "taps" });
  for (const t of targets) {
    const shape = t.points ? { points: t.points }
      : { x: t.x, y: t.y, width: t.width, height: t.height };
    /** @type {SVGElement} */
    const node = svg(t.points ? "polygon" : "rect", { ...shape, class: "tap",
      "data-tap": t.name, role: "button", tabindex: 0, "aria-label": t.label });
    node.addEventListener("click", () => tap(t.name));
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        tap(t.name);
      }
    });
    layer.append(node);
  }
  root.append(layer);
  root.classList.add("acts");
}
