// @ts-check
// The club's page: every table's card and the results, from the club server's events alone.
import { followClub } from "./service.js";

/**
 * @typedef {import("./service.js").ClubState} ClubState
 * @typedef {import("./service.js").ResultNews} ResultNews
 */

/** @type {Map<string, {status: string, state: ClubState | null, last?: string}>} */
const tables = new Map();  // name -> {status, state, last}

/**
 * An element with a class and words.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [cls]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};

/** @param {ClubState} state */
function scoresLine(state) {
  const scores = state && state.scores;
  if (!scores) return "";
  return Object.entries(scores).map(([who, points]) => `${who}: ${points}`).join("  ");
}

/** @param {string} name */
function card(name) {
  const known = tables.get(name) || { status: "unknown", state: null };
  /** @type {ClubState} */
  const state = known.state || {};
  const box = el("article", "table");
  box.id = `table-${name}`;
  box.dataset.table = name;
  if (known.status === "offline") box.classList.add("offline");
  const head = el("h3");
  head.append(el("span", "name", name), el("span", "status", known.status === "online" ? "online" : known.status));
  box.append(head);
  const what = state.game ? `${state.game}${state.running === false ? " (table stopped)" : ""}` : "no game yet";
  box.append(el("p", "game", what));
  const scores = scoresLine(state);
  const scoresLineEl = el("p", "scores");
  if (scores) scoresLineEl.textContent = `scores: ${scores}`;
  box.append(scoresLineEl);
  const turn = el("p", "turn");
  if (state.phase === "over" && state.outcome) turn.textContent = state.outcome.words;
  else if (state.turn) {
    turn.textContent = `player ${state.turn} to play${state.doing ? ": " + state.doing : ""}`;
    turn.classList.add(`player-${state.turn.toLowerCase()}`);
  }
  box.append(turn);
  const last = known.last || (state.last && state.last.words) || "";
  box.append(el("p", "last", last));
  return box;
}

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {string} name */
function draw(name) {
  const fresh = card(name);
  const old = document.getElementById(`table-${name}`);
  if (old) old.replaceWith(fresh);
  else {
    const list = $("tables");
    const after = [...list.children].find((node) => node instanceof HTMLElement
      && (node.dataset.table ?? "") > name);
    list.insertBefore(fresh, after || null);
  }
  $("no-tables").hidden = true;
}

/** @param {ResultNews} result */
function addResult(result) {
  const item = el("li", "result");
  item.dataset.key = `${result.table}/${result.id}`;
  // a remote match: one game of two tables, listed once under the match's words
  item.append(el("strong", "", result.match || result.table), document.createTextNode(` ${result.game}, ${result.when}: ${result.result}`));
  for (const [form, words] of [["json", "record (JSON)"], ["text", "score sheet"]]) {
    const link = el("a", form, words);
    link.href = form === "json" ? result.json : result.text;
    link.setAttribute("download", "");
    item.append(link);
  }
  const list = $("results");
  list.insertBefore(item, list.firstChild);
  $("no-results").hidden = true;
}

const status = $("status");
followClub({
  open: () => { status.textContent = "live"; status.classList.remove("away"); },
  lost: () => { status.textContent = "lost the club server; trying again…"; status.classList.add("away"); },
  table: (data) => {
    const known = tables.get(data.table) || {};
    tables.set(data.table, { ...known, status: data.status, state: data.state });
    draw(data.table);
  },
  event: (data) => {
    const known = tables.get(data.table) || { status: "unknown", state: null };
    tables.set(data.table, { ...known, last: data.data.words || data.data.event });
    draw(data.table);
  },
  result: (data) => {
    $("results").querySelectorAll("li").forEach((li) => {
      if (li.dataset.key === `${data.table}/${data.id}`) li.remove();
    });
    addResult(data);
  },
  live: () => { status.textContent = "live"; },
});
