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

/** The card a table shows on: its own, or its match's (a match's two tables share one).
 * @param {string} name */
const cardOf = (name) => {
  const match = tables.get(name)?.state?.match;
  return match ? `match-${match.match}` : `table-${name}`;
};

/** The tables a card shows, by name. @param {string} id */
const tablesOn = (id) => [...tables.keys()].filter((name) => cardOf(name) === id).sort();

/** @param {string} id  the card's: `table-NAME` or `match-MATCH` */
function card(id) {
  const names = tablesOn(id);
  const known = names.map((name) => tables.get(name) || { status: "unknown", state: null });
  // the game as the table heard from last tells it (both tables of a match hold the same)
  const freshest = known.reduce((a, b) => ((b.state?.updated || 0) > (a.state?.updated || 0) ? b : a),
    known[0] || { status: "unknown", state: null });
  /** @type {ClubState} */
  const state = freshest.state || {};
  const box = el("article", "table");
  box.id = id;
  box.dataset.table = names[0] || id;
  if (known.some((t) => t.status === "offline")) box.classList.add("offline");
  const head = el("h3");
  if (state.match) {
    head.append(el("span", "name", `match ${state.match.match}`));
    box.append(head);
    for (const [i, name] of names.entries()) { // each table of the match: its seat, online or not
      box.append(el("p", "seat", `${name}: player ${known[i].state?.match?.seat || "?"}, ${known[i].status}`));
    }
  } else {
    head.append(el("span", "name", names[0] || id), el("span", "status", known[0]?.status || "unknown"));
    box.append(head);
  }
  const what = state.game ? `${state.game}${state.running === false ? " (table stopped)" : ""}` : "no game yet";
  box.append(el("p", "game", what));
  const scores = scoresLine(state);
  const scoresLineEl = el("p", "scores");
  if (scores) scoresLineEl.textContent = `scores: ${scores}`;
  box.append(scoresLineEl);
  const turn = el("p", "turn");
  if (state.phase === "over" && state.outcome) turn.textContent = state.outcome.words;
  else if (state.turn) {
    const at = names.find((name) => tables.get(name)?.state?.match?.seat === state.turn);
    turn.textContent = `player ${state.turn}${at ? ` (at ${at})` : ""} to play${state.doing ? ": " + state.doing : ""}`;
    turn.classList.add(`player-${state.turn.toLowerCase()}`);
  }
  box.append(turn);
  const last = freshest.last || (state.last && state.last.words) || "";
  box.append(el("p", "last", last));
  return box;
}

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** A table's card drawn afresh (a table that joined a match leaves its own card).
 * @param {string} name @param {string} [was]  the card it showed on before */
function draw(name, was) {
  const id = cardOf(name);
  if (was && was !== id) {
    document.getElementById(was)?.remove();
    if (tablesOn(was).length) draw(tablesOn(was)[0]);
  }
  const fresh = card(id);
  const old = document.getElementById(id);
  if (old) old.replaceWith(fresh);
  else {
    const list = $("tables");
    const after = [...list.children].find((node) => node instanceof HTMLElement
      && (node.dataset.table ?? "") > (fresh.dataset.table ?? ""));
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
    const was = tables.has(data.table) ? cardOf(data.table) : undefined;
    tables.set(data.table, { ...known, status: data.status, state: data.state });
    draw(data.table, was);
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
