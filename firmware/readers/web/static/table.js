// @ts-check
// One table drawing for the live page and the replay: each game's module draws its board
// from a view {obs, players, change, marks, trail, reveals, over}.
import * as highrise from "./highrise.js";
import * as maze from "./maze.js";
import * as stones from "./stones.js";
import { html } from "./svg.js";
import * as towers from "./towers.js";

/**
 * @typedef {import("./service.js").Observation} Observation
 * @typedef {import("./service.js").Move} Move
 * @typedef {import("./service.js").Outcome} Outcome
 * @typedef {import("./service.js").Reveal} Reveal
 */

/**
 * Playing alone: the computer's move for the person to make ("ask"), or a hint; `where`
 * names the places as its event does.
 * The computer's asked move (kind "ask") or a hint, drawn where it goes; `text`: the move in
 * words, `said`: the line that says it ("the computer (player B) asks: ..."), `player`: the
 * seat it is asked for.
 * @typedef {{kind: string, where: import("./service.js").Place[], text?: string, said?: string,
 *   player?: string}} Asked
 */

/**
 * What a game's module draws: the observation, and what the page gathered around it.
 * @template [O=Observation] the game's observation
 * @template [C=unknown] what an action changed, as the game's `change` tells it
 * @template [T=unknown] what the game keeps from one observation to the next (`track`)
 * @typedef {object} View
 * @property {O} obs
 * @property {Record<string, string> | null} [players]  the seats' names
 * @property {C | null} [change]  what the last action changed (null: nothing to show)
 * @property {import("./service.js").Place[]} [marks]  the places a refusal marks
 * @property {T | null} [trail]
 * @property {Record<string, Reveal> | null} [reveals]  High Rise's stacks, by square
 * @property {boolean} [over]
 * @property {Asked | null} [asked]
 * @property {import("./service.js").HandsTable | null} [set]  the wooden set as the page's hands
 *   panel last saw it (obelisk play): a game may say where it differs from the game
 * @property {import("./service.js").Strip[]} [lights]  the table's LEDs: a game whose drawing is
 *   its one board draws them on it
 * @property {import("./taps.js").Tap} [tap]  what a tap on the drawing's places does (the hands'
 *   act); none: nothing is acted on here
 * @property {import("./service.js").PageEvents["offer"] | null} [offer]  the choice on offer
 *   (the candidates lit one at a time): a game may draw the one lit as it stands on the set
 */

/**
 * A view before there is anything to draw (no observation yet).
 * @typedef {Omit<View, "obs"> & {obs: Observation | null}} PageView
 */

/**
 * The contract of a game's module (towers.js, stones.js, highrise.js, maze.js): each draws
 * from its own observation, so each takes its own view here.
 * @typedef {{
 *   draw(view: View): Element,
 *   info(view: View): Node | null,
 *   scoreLine(obs: Observation, player: string): string,
 *   change(before: Observation | null, after: Observation): unknown,
 *   track?(trail: unknown, before: Observation | null, after: Observation, actions: number,
 *     move?: Move): unknown,
 *   reveals?(obs: Observation): Record<string, Reveal> | null,
 *   breakdownRow?(row: string): HTMLLIElement,
 *   oneBoard?: boolean,
 * }} GameModule
 * ``oneBoard``: the drawing is where a person acts and sees the table's lights (its places
 * tapped, its lit squares drawn): the page then shows no separate grid of lights, and keeps
 * what the turn asks in the bar at the bottom (reach.js).
 */

/** The page's game modules, by the name each game's declaration gives its page module
 * (`GameType.page`, which the server adds to the events and replays as `page`). A game
 * with none is followed in words and the board as text.
 * @type {Record<string, GameModule>} */
export const MODULES = { towers, stones, highrise, maze };

/** Whether a game's drawing is its one board (``oneBoard``), for the page to lay itself out.
 * @param {string | null} page  the game's page module (its declaration's `page`) */
export function oneBoard(page) {
  return Boolean(page && MODULES[page]?.oneBoard);
}

/** The drawing and the game's own facts (pile, legend, pieces left) into their places.
 * @param {Element} drawing
 * @param {Element} facts
 * @param {string | null} page  the game's page module (its declaration's `page`)
 * @param {PageView} view */
export function drawTable(drawing, facts, page, view) {
  const module = page ? MODULES[page] : undefined;
  const obs = view.obs;
  if (!module || !obs) {
    drawing.replaceChildren();
    facts.replaceChildren();
    return;
  }
  try {
    drawing.replaceChildren(module.draw({ ...view, obs }));
    facts.replaceChildren(module.info({ ...view, obs }) || "");
  } catch (error) {
    // an observation this page cannot draw: say so rather than show half a table
    drawing.replaceChildren(html("p", { class: "cannot" }, `this page cannot draw this table (${messageOf(error)}); the words below still follow it`));
  }
}

/** What went wrong, in words.
 * @param {unknown} error */
export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/** One line a player reads under their name: the score so far, or what counts in this game.
 * @param {string | null} page  the game's page module (its declaration's `page`)
 * @param {Observation | null} obs
 * @param {string} player */
export function scoreLine(page, obs, player) {
  const module = page ? MODULES[page] : undefined;
  try {
    return module && obs ? module.scoreLine(obs, player) : "";
  } catch {
    return "";
  }
}

/** What the last action changed, for the drawing to highlight.
 * @param {string | null} page  the game's page module (its declaration's `page`)
 * @param {Observation | null} before
 * @param {Observation | null} after
 * @returns {unknown} */
export function changeOf(page, before, after) {
  const module = page ? MODULES[page] : undefined;
  try {
    return module && after ? module.change(before, after) : null;
  } catch {
    return null;
  }
}

/** What a game keeps from one observation to the next (the maze's route, the towers' blocks
 * over the top), one observation further on; ``move`` is the action that led there, as data.
 * @param {string | null} page  the game's page module (its declaration's `page`)
 * @param {unknown} trail
 * @param {Observation | null} before
 * @param {Observation | null} after
 * @param {number} actions  actions played
 * @param {Move} [move]
 * @returns {unknown} */
export function trackOf(page, trail, before, after, actions, move) {
  const module = page ? MODULES[page] : undefined;
  try {
    return module?.track && after ? module.track(trail, before, after, actions, move) : null;
  } catch {
    return trail;
  }
}

/** What a game shows only at its end (High Rise's stacks), by square; null for a game
 * that hides nothing, or before its end.
 * @param {string | null} page  the game's page module (its declaration's `page`)
 * @param {Observation} obs
 * @returns {Record<string, Reveal> | null} */
export function revealsOf(page, obs) {
  const module = page ? MODULES[page] : undefined;
  return module?.reveals ? module.reveals(obs) : null;
}

/** The end: the result in words, then each player's breakdown with pictures.
 * @param {string | null} page  the game's page module (its declaration's `page`)
 * @param {Outcome | null} outcome
 * @param {Record<string, string> | null} [players]
 * @returns {HTMLElement[]} */
export function ending(page, outcome, players) {
  if (!outcome) return [];
  const module = page ? MODULES[page] : undefined;
  /** @type {(row: string) => HTMLLIElement} */
  const row = module?.breakdownRow || ((text) => html("li", {}, text));
  const columns = Object.entries(outcome.breakdown || {}).map(([p, rows]) => {
    const score = outcome.scores ? ` ${outcome.scores[p]}` : "";
    const won = outcome.winner === p ? " winner" : "";
    return html("div", { class: `breakdown player-${p.toLowerCase()}${won}`, "data-player": p },
      html("h3", {}, `${players?.[p] || `player ${p}`}${score ? `:${score}` : ""}${won ? " (wins)" : ""}`),
      html("ul", {}, ...rows.map((text) => {
        const item = row(text);
        item.dataset.row = text; // the row as the table wrote it, whatever the picture
        return item;
      })));
  });
  return [html("p", { class: "result" }, outcome.words || ""), html("div", { class: "columns" }, ...columns)];
}
