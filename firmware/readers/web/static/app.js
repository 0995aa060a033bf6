// @ts-check
// The live page: everything it shows comes from the table's events (/events). The server
// sends a page that opens late what it missed since the table's whole state, then `live`,
// so a page opened mid-game shows what one open from the start shows.
import { openHistory } from "./history.js";
import { followTable } from "./service.js";
import { drawLights, ringColour, ringOf } from "./lights.js";
import { freeze, hourglass } from "./hourglass.js";
import { counted, html } from "./svg.js";
import { tapPlace } from "./hands.js";
import { placeReach } from "./reach.js";
import { changeOf, drawTable, ending, oneBoard, revealsOf, scoreLine, trackOf } from "./table.js";

/**
 * @typedef {import("./service.js").EventKind} EventKind
 * @typedef {import("./service.js").Move} Move
 * @typedef {import("./service.js").Observation} Observation
 * @typedef {import("./service.js").PageEvent} PageEvent
 * @typedef {import("./service.js").PageEvents} PageEvents
 * @typedef {import("./service.js").Reveal} Reveal
 * @typedef {import("./service.js").Strip} Strip
 * @typedef {import("./table.js").Asked} Asked
 * @typedef {import("./hourglass.js").Timer} Timer
 */

/**
 * Everything the page shows, as the events so far left it.
 * @typedef {object} PageState
 * @property {string | null} game
 * @property {string} module  the page module that draws it (the declaration's `page`; "": none)
 * @property {Record<string, string>} players
 * @property {string} machine  the table's state: setup, play, repair, over...
 * @property {string | null} turn
 * @property {string} doing
 * @property {string} problem
 * @property {string} problemKind  what the problem is (a refusal's kind: rule, task...)
 * @property {import("./service.js").Place[]} where  the places a refusal marks
 * @property {number} actions
 * @property {Observation | null} obs
 * @property {unknown} change  what the last action changed (the game's module says how)
 * @property {unknown} trail  what the game keeps from one observation to the next
 * @property {Record<string, Reveal> | null} reveals
 * @property {import("./service.js").Outcome | null} outcome
 * @property {boolean} over
 * @property {Record<string, Timer>} timers
 * @property {boolean} paused
 * @property {PageEvents["offer"] | null} offer
 * @property {string} notice
 * @property {{n: number, player: string, text: string}[]} moves
 * @property {number} movesFrom  actions played before this page followed the table
 * @property {{kind: string, words: string}[]} log
 * @property {Strip[]} lights  what the LEDs show, strip by strip
 * @property {string} status
 * @property {boolean} live
 * @property {boolean} absent
 * @property {import("./service.js").Missing[]} missing
 * @property {PageEvents["scanner"] | null} scanner
 * @property {Asked | null} asked
 * @property {PageEvents["remote"] | null} link  a match with another table: how it stands
 * @property {PageEvents["remote"] | null} linked  the last "linked" said (playing the table
 *   ...): said again once the game moves on after the other table came back
 * @property {PageEvents["match"] | null} ask  a match's ask waiting for an answer (either way)
 * @property {string} board
 * @property {string} key  which table the page follows (the `table` event's `table_key`)
 * @property {import("./service.js").HandsTable | null} set  the wooden set, as this page's hands
 *   panel last saw it (obelisk play with the PIN; null otherwise)
 */

/** The game moved on: "the other table is back" is news no more; how the link stands is said
 * again as it was (playing the table ...). */
function movedOn() {
  if (page.link?.state === "back") page.link = page.linked;
}

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const KEEP = 30; // lines of "what happened" kept on screen
/** The head of the page's "what stops play", by the refusal's kind (events.py WORDS).
 * @type {Record<string, string>} */
const PROBLEM_HEADS = { rule: "Not allowed", takeback: "A piece came off", task: "To do",
  fault: "The table cannot record" };

/** @type {PageState} */
const page = {
  game: null, module: "", players: { A: "player A", B: "player B" }, machine: "", turn: null, doing: "",
  problem: "", problemKind: "rule", where: [], actions: 0, obs: null, change: null, trail: null, reveals: null,
  outcome: null, over: false, timers: {}, paused: false, offer: null, notice: "",
  moves: [], movesFrom: 0, log: [], lights: [], status: "connecting to the table…", live: false,
  absent: false, missing: [], scanner: null, asked: null, board: "", set: null, link: null, ask: null,
  linked: null, key: "",
};

// ------------------------------------------------------------------ the events

/** A new game (or the table's whole state): what the last one left is gone.
 * @param {{game: string, page?: string, players?: Record<string, string>}} event */
function reset(event) {
  Object.assign(page, { game: event.game, module: event.page || "", turn: null, doing: "", problem: "",
    problemKind: "rule", where: [],
    change: null, trail: null, reveals: null, outcome: null, over: false, timers: {},
    paused: false, offer: null, notice: "", moves: [], movesFrom: 0, asked: null, missing: [] });
  if (event.players) page.players = event.players;
}

/** The observation after an action: what it changed, and what the game keeps of it.
 * @param {Observation} obs
 * @param {boolean} [change] whether to show what changed (not after a jump: a takeback)
 * @param {Move} [move] the action that led there, as data */
function observe(obs, change = true, move) {
  const before = page.obs;
  page.obs = obs;
  page.change = change ? changeOf(page.module, before, obs) : null;
  page.trail = trackOf(page.module, page.trail, before, obs, page.actions, move);
}

/** What each kind of event does to the page (the others are only listed).
 * @type {{[K in EventKind]?: (event: PageEvents[K]) => void}} */
const handlers = {
  table(e) {
    // another table (on the same address): nothing the last one said holds here
    if (page.key && e.table_key && e.table_key !== page.key) page.log = [];
    page.key = e.table_key || page.key;
    reset(e);
    // the moves so far, as the table has them (a table started again on its journal too)
    const moves = e.moves || [];
    Object.assign(page, { machine: e.state, turn: e.turn, doing: e.doing, problem: e.problem,
      actions: e.actions, moves, movesFrom: e.actions - moves.length, over: e.state === "over",
      obs: null });
    observe(e.observation, false);
    if (page.over) page.reveals = revealsOf(page.module, e.observation);
    // a page opened now (or reloaded after a restart) has no "what happened" of its own:
    // the moves so far tell it, newest first, as the table said each one
    if (!page.log.length) {
      page.log = moves.slice(-KEEP).reverse().map((m) =>
        ({ kind: "accepted", words: `${bare(nameOf(m.player))} ${m.text}` }));
    }
  },
  start(e) {
    reset(e);
    Object.assign(page, { machine: "play", turn: e.first, actions: 0, obs: null });
    observe(e.observation, false);
  },
  resumed(e) {
    page.actions = e.actions;
    observe(e.observation, false);
  },
  setup(e) { // before a game: what to set out next (and, where the game says, what stands)
    Object.assign(page, { machine: "setup", problem: e.problem });
    if (e.observation) observe(e.observation, false);
  },
  turn(e) {
    page.turn = e.player;
    page.doing = e.doing;
  },
  accepted(e) { // a notice holds until the next action (the table says it after the action)
    movedOn();
    page.actions += 1;
    page.notice = "";
    page.moves.push({ n: page.actions, player: e.player, text: e.text });
    Object.assign(page, { problem: "", where: [], offer: null, asked: null });
    observe(e.observation, true, e.move);
  },
  refused(e) {
    page.problem = e.message;
    page.problemKind = e.kind;
    page.where = e.where;
    // the table drops its candidates when something is wrong; a takeback offer stands
    if (page.offer && page.offer.kind === "choose") page.offer = null;
    page.machine = "repair";
    if (page.live) speak(e.message);
  },
  repaired() {
    Object.assign(page, { problem: "", where: [], machine: "play", offer: null });
  },
  takeback(e) {
    movedOn();
    page.actions = e.actions;
    page.moves = page.moves.filter((m) => m.n <= e.actions);
    Object.assign(page, { problem: "", where: [], offer: null, asked: null, notice: "" });
    observe(e.observation, false);
  },
  timer(e) { // a card shows a glass while it runs or is paused: one stopped or run out goes
    // with its turn, as a page that joins later is never told of it (the lost turn says so)
    if (e.state === "stopped" || e.state === "expired") delete page.timers[e.player];
    else page.timers[e.player] = { state: e.state, seconds: e.seconds, left: e.left, at: performance.now() };
  },
  offer(e) {
    page.offer = e;
  },
  pause(e) {
    page.paused = e.state === "paused";
  },
  game_over(e) {
    Object.assign(page, { outcome: e.outcome, over: true, turn: null, doing: "", offer: null, asked: null,
      machine: "over", problem: "", where: [] });
    for (const timer of Object.values(page.timers)) freeze(timer);
    const before = page.obs;
    page.obs = e.observation;
    page.trail = trackOf(page.module, page.trail, before, e.observation, page.actions);
    // a game that reveals at the end: each reveal is shown as it comes
    if (revealsOf(page.module, e.observation)) page.reveals = page.reveals || {};
  },
  lights(e) { // the LEDs, as the table shows them: the page shows the same
    page.lights = e.strips;
  },
  reveal(e) {
    page.reveals = { ...(page.reveals || {}), [e.square]: e };
  },
  notice(e) {
    page.notice = e.player ? `${nameOf(e.player)}: ${e.message}` : e.message;
  },
  asked(e) { // the computer's move, or the other table's, for the person to make
    page.notice = `${e.by} (${bare(nameOf(e.player))}) asks: ${e.text}`; // where: drawn
    page.asked = { kind: "ask", where: e.where, text: e.text, said: page.notice,
      player: e.player };
  },
  remote(e) { // a match with another table: the link's state stays said until it changes
    page.link = e;
    if (e.state === "linked") page.linked = e;
  },
  match(e) { // an ask between the two tables: said until it is answered, then the answer
    const waiting = e.state === "asked" || e.state === "offered";
    page.ask = waiting ? e : null;
    if (!waiting) page.notice = e.message;
  },
  hint(e) {
    page.notice = `a hint for ${bare(nameOf(e.player))}: ${e.text}`;
    page.asked = { kind: "hint", where: e.where };
  },
  absent(e) {
    page.status = e.words;
    page.absent = true;
    for (const timer of Object.values(page.timers)) freeze(timer);
  },
  live() {
    page.live = true;
  },
  devices(e) { // a table not wired up yet: what it cannot use, and what to do
    page.missing = e.missing;
  },
  scanner(e) { // the board's own measured periods, in microseconds: no game news
    page.scanner = e;
  },
};

/**
 * The handler of an event's kind, given the event.
 * @template {EventKind} K
 * @param {K} kind
 * @param {PageEvents[K]} event
 */
function handle(kind, event) {
  const handler = handlers[kind];
  if (handler) handler(event);
}

/** @param {PageEvent} event */
function take(event) {
  followed();
  // the table back after a line said none was running: said too, so that line is not the last
  // (another table is not that one back: the page starts afresh)
  const back = page.absent && event.event === "table"
    && !(page.key && event.table_key && event.table_key !== page.key);
  if (event.event !== "absent" && event.event !== "live") page.absent = false;
  handle(event.event, event);
  if (back) page.log.unshift({ kind: "notice", words: "the table is running again" });
  if (event.words && !["table", "scanner", "lights"].includes(event.event)) {
    // a refusal's line is red when a rule was broken, not for an offer or a thing to do
    const asks = event.event === "refused" && (event.kind === "takeback" || event.kind === "task");
    page.log.unshift({ kind: asks ? "asks" : event.event, words: event.words });
    page.log.length = Math.min(page.log.length, KEEP);
  }
  if (event.board) page.board = event.board;
  window.dispatchEvent(new CustomEvent("obelisk:event", { detail: event })); // controls.js
  if (page.live) render(); // shown as it happens
  else soon(); // a backlog: drawn once it is all in
}

/** The page has heard from its server (an event, or that it is out of reach): it knows now
 * where its parts stand (the PIN's form: in the bar, on a game with one board), and shows
 * them there; a form that moved under a finger would lose its tap (style.css). */
function followed() {
  document.body.dataset.followed = "yes";
}

// ------------------------------------------------------------------ drawing the page

let pending = 0;
function soon() {
  if (!pending) pending = requestAnimationFrame(render);
}

function render() {
  cancelAnimationFrame(pending);
  pending = 0;
  paint();
}

function paint() {
  document.body.dataset.game = page.game || "";
  document.body.dataset.state = page.over ? "over" : page.machine || "";
  $("title").textContent = page.game ? `Obelisk Table · ${page.game}` : "Obelisk Table";
  $("status").textContent = statusWords();
  $("status").className = page.absent && !page.over ? "away" : "";
  $("devices").hidden = !page.missing.length;
  $("devices-list").replaceChildren(...page.missing.map((m) =>
    html("li", {}, html("strong", {}, m.device), `: ${m.words}`)));
  $("scanner").hidden = !page.scanner;
  if (page.scanner) $("scanner").textContent = scannerWords(page.scanner);
  renderPlayers();
  // before a game the table's "problem" is what to do to begin, not a refusal
  const setup = page.machine === "setup";
  // at the end, the result and what comes next (a player's button: the table's new game)
  $("turn").textContent = page.over ? `${page.outcome?.words || "the game is over"}; a player `
    + "button sets up the next game" : setup ? page.problem : page.paused ? pausedWords()
    : turnWords();
  $("turn").hidden = !$("turn").textContent;
  renderBandGlass();
  cardsAway();
  renderOffer();
  $("notice").textContent = noticeWords($("turn").textContent);
  $("notice").hidden = !$("notice").textContent;
  $("link").textContent = [page.link?.message, page.ask?.message].filter(Boolean).join(" · ");
  $("link").className = page.ask ? "ask" : page.link ? page.link.state : "";
  $("link").hidden = !page.link && !page.ask;
  $("problem-text").textContent = page.problem;
  $("problem").hidden = !page.problem || setup;
  // what stops play, headed by its kind: a piece lifted off again is an offer to take it
  // back, a lost turn's blocks a thing to put back; only a broken rule is "not allowed"
  const kind = page.offer?.kind === "takeback" ? "takeback" : page.problemKind;
  $("problem-head").textContent = PROBLEM_HEADS[kind] || PROBLEM_HEADS.rule;
  $("problem").classList.toggle("offered", kind === "takeback" || kind === "task");
  // a game whose drawing is its one board: the lights on it, its places tapped (with hands)
  const one = oneBoard(page.module);
  document.body.classList.toggle("one-board", one);
  if (touching) drawLater = true; // drawn once the finger lifts, its tap landed
  else {
    drawTable($("drawing"), $("facts"), page.module, { obs: page.obs, players: page.players,
      change: page.change, marks: page.problem && !setup ? page.where : [], trail: page.trail,
      reveals: page.reveals, over: page.over, asked: page.asked, set: page.set,
      lights: page.lights, tap: page.set ? tapPlace : null, offer: page.offer });
  }
  drawLights($("lights"), one ? [] : page.lights);
  placeReach(one);
  $("board-text").textContent = page.board || "";
  $("ending").replaceChildren(...ending(page.module, page.outcome, page.players));
  $("ending").hidden = !page.outcome;
  renderMoves();
  $("log").replaceChildren(...page.log.map((line) => html("li", { class: line.kind }, line.words)));
}

// A finger (or the mouse) down on the drawing, where a person acts: the drawing drawn again
// now would take the square from under it, and the tap would do nothing. It waits until the
// finger lifts, and after the tap's click (which follows the lift in the same turn).
let touching = false;
let drawLater = false;
$("drawing").addEventListener("pointerdown", () => { touching = true; });
for (const kind of ["pointerup", "pointercancel"]) {
  addEventListener(kind, () => {
    if (!touching) return;
    touching = false;
    if (drawLater) setTimeout(() => { drawLater = false; soon(); });
  });
}

/** As `obelisk diag` says them (hardware/sensors.py period_words).
 * @param {PageEvents["scanner"]} e */
function scannerWords(e) {
  /** @param {number} us */
  const ms = (us) => `${(us / 1000).toFixed(us < 1000 ? 2 : 1).replace(/\.?0+$/, "")} ms`;
  const loads = e.load_us ? `load cells every ${ms(e.load_us)}` : "no load cells read";
  return `scanner board: a scan every ${ms(e.scan_us)}, ${loads} (its own measure)`;
}

function statusWords() {
  if (page.absent && page.over) return "the game is over and the table has stopped; this page follows the next one";
  if (page.absent || !page.game) return page.status;
  if (page.over) return "the game is over";
  if (page.paused) return page.link ? "paused: the menu button asks the other table to play on"
    : "paused: the menu button resumes";
  return `${counted(page.actions, "action")} played`;
}

/** Paused, in every game: the turn line says so and whose turn waits, and asks for no move
 * (how play goes on, the status says). */
function pausedWords() {
  return page.turn ? `paused: ${bare(nameOf(page.turn))}'s turn waits` : "paused";
}

/** The notice, unless it only says again the move asked that the turn line says ("make the
 * computer's move: ..."): each thing said once. Where the turn line does not say it, the
 * notice does.
 * @param {string} turn the turn line shown */
function noticeWords(turn) {
  const ask = page.asked;
  // the asking seat's turn says the move, all of it or what is left of it once part is made
  // (the block already in the hand): the ask's own line would say it again, or stale
  const repeats = ask?.said === page.notice && Boolean(ask?.text)
    && (turn.includes(ask?.text || "") || (Boolean(ask?.player) && page.turn === ask?.player));
  // paused, the move asked waits with the turn (the turn line says so)
  return repeats || (page.paused && ask?.said === page.notice) ? "" : page.notice;
}

/** Whose turn and what it asks; the seat named bare (the computer's seat's mark is on its
 * card, and its moves say "make the computer's move"): the words a phone's bar keeps to two
 * lines are the move's, not the seat's mark. */
function turnWords() {
  if (!page.turn) return page.doing || "";
  return `${bare(nameOf(page.turn))}: ${page.doing}`;
}

/** A seat as the game names it ("player A"; the maze's roles: "the Architect").
 * @param {string} seat */
function nameOf(seat) {
  return page.players[seat] || `player ${seat}`;
}

/** A seat's name without the mark of a far seat ("the Maze Master (computer, level 2)").
 * @param {string} name */
function bare(name) {
  return name.replace(/ \([^)]*\)$/, "");
}

/** @returns {Set<string>} the players to move now */
function toMove() {
  const moving = page.obs?.to_move;
  if (page.over) return new Set();
  if (Array.isArray(moving) && moving.length) return new Set(moving);
  return new Set(page.turn ? [page.turn] : []);
}

function renderPlayers() {
  const moving = toMove();
  const winner = page.outcome?.winner;
  $("players").replaceChildren(...["A", "B"].map((p) => {
    const card = html("div", { class: `card player-${p.toLowerCase()}${moving.has(p) ? " to-move" : ""}${winner === p ? " winner" : ""}`,
      "data-player": p },
    html("div", { class: "name" }, nameOf(p)),
    html("div", { class: "score" }, scoreLine(page.module, page.obs, p)));
    const timer = page.timers[p];
    if (timer && !page.over) card.append(hourglass(timer));
    const ring = page.lights.find((s) => s.strip === "ring" && s.owner === p);
    if (ring) card.append(ringOf(ring, `${nameOf(p)}'s ring`));
    // the ring around the card too, in the colour it mostly shows (one board: style.css;
    // from script, as the page allows no inline style)
    const glow = ring ? ringColour(ring) : null;
    if (glow) {
      card.dataset.ring = glow;
      card.style.setProperty("--ring", glow);
    }
    // what the ring tells that a person must read off it (High Rise: the size asked for)
    if (ring?.says) card.append(html("p", { class: "ring-says" }, ring.says));
    return card;
  }));
  if (!page.game) $("players").replaceChildren();
}

/** The glass a card shows (it runs, or is paused), with whose it is, beside the turn
 * line: the pinned band keeps it in view on a phone once the cards have scrolled away
 * (style.css shows it only then: ``cardsAway``). */
function renderBandGlass() {
  const [seat, timer] = Object.entries(page.timers)[0] || [null, null];
  const shown = Boolean(seat && timer && !page.over);
  $("band-glass").hidden = !shown;
  $("band-glass").replaceChildren(...(shown && seat && timer
    ? [html("span", { class: "whose" }, `${bare(nameOf(seat))}'s hourglass`), hourglass(timer)]
    : []));
}

/** Whether the cards have scrolled away: the board's band, pinned at the top while the
 * hands are shown, then covers them, and shows the running glass in their place. */
function cardsAway() {
  document.body.classList.toggle("cards-away", $("board-view").getBoundingClientRect().top <= 1);
}
addEventListener("scroll", cardsAway, { passive: true });
addEventListener("resize", cardsAway);

/** Whether the person here asked the other table of a match to take back (their press): the
 * offer of a press no longer holds, the link's line says what was asked. */
function askedAfar() {
  return page.ask?.state === "asked" && page.ask.ask.kind === "takeback";
}

function renderOffer() {
  const offer = page.offer && !(page.offer.afar && askedAfar()) ? page.offer : null;
  $("offer").hidden = !offer;
  if (!offer) {
    delete $("offer").dataset.presses;
    return;
  }
  const who = offer.players.map(nameOf).join(" and ");
  /** @type {Record<string, string>} */
  const words = { choose: "press to show the next, hold to pick", takeback: offer.afar
    ? "a press of your button asks the other table to take it back" : "press your button to take it back",
    bonus: "place a black block, or press your button to decline" };
  const only = offer.kind === "choose" && offer.candidates.length === 1;
  // the buttons the offer waits for, by the bar's names (reach.js makes them stand out)
  const presses = offer.kind !== "choose" ? ["press"] : only ? ["hold"] : ["press", "hold"];
  $("offer").dataset.presses = offer.players.flatMap((p) => presses.map((k) => `${k}-${p}`))
    .join(" ");
  const what = only ? "hold your button if it was this" : words[offer.kind] || offer.kind;
  // the computer presses no button: the person presses its seat's for it
  const mine = offer.players.length > 1 ? "your button and " : "";
  const said = offer.computer
    ? `to take it back, press ${mine}${bare(nameOf(offer.computer))}'s button for the computer`
    : `${who}: ${what}`;
  $("offer").replaceChildren(html("p", {}, said),
    html("ol", {}, ...offer.candidates.map((c, i) => html("li", { class: i === offer.pick ? "pick" : "" }, c))));
}

function renderMoves() {
  // what each player did, the seat by its name: "player A chose the green block G01 ..."
  const items = page.moves.map((m) => html("li", { value: m.n, "data-player": m.player },
    html("span", { class: `who player-${m.player.toLowerCase()}`, title: nameOf(m.player) },
      bare(nameOf(m.player))), ` ${m.text}`));
  $("moves").replaceChildren(...items);
  $("moves-count").textContent = page.movesFrom
    ? `${page.moves.length} (after the ${page.movesFrom} played before this page followed the table)`
    : `${page.moves.length}`;
}

// ------------------------------------------------------------------ speaking

const speakSwitch = /** @type {HTMLInputElement} */ (document.getElementById("speak"));
speakSwitch.checked = localStorage.getItem("obelisk-speak") === "on";
speakSwitch.disabled = !("speechSynthesis" in window);
speakSwitch.addEventListener("change", () => {
  localStorage.setItem("obelisk-speak", speakSwitch.checked ? "on" : "off");
  if (speakSwitch.checked && page.problem) speak(page.problem);
});

/** @param {string} words */
function speak(words) {
  if (!speakSwitch.checked || !("speechSynthesis" in window)) return;
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(new SpeechSynthesisUtterance(words));
}

// ------------------------------------------------------------------ the stream

// every kind the page handles, and those it only lists in "what happened"
const KINDS = [...Object.keys(handlers), "options", "calibrated"];
followTable(KINDS, take, () => {
  // the page's server is out of reach (it sends `absent` itself when the table stops)
  page.live = false;
  page.absent = true;
  page.status = "this page lost its server (obelisk play or obelisk web stopped, or is starting again); trying again…";
  followed();
  soon();
});
// the wooden set as the hands panel sees it (hands.js): the drawing says where it differs
let setSeen = "";
window.addEventListener("obelisk:hands", (e) => {
  if (!(e instanceof CustomEvent)) return;
  const seen = JSON.stringify(e.detail);
  if (seen === setSeen) return; // looked at again, unchanged: nothing to draw again
  setSeen = seen;
  page.set = e.detail;
  soon();
});
$("history-open").addEventListener("click", () => openHistory());
// the board's band, kept at the top of the screen while the hands are used: what is brought
// into view lands below it (style.css: scroll-padding-top)
const band = $("board-view");
const bandHeight = new ResizeObserver(() => {
  const kept = getComputedStyle(band).position === "sticky";
  document.documentElement.style.setProperty("--board-h", kept ? `${band.offsetHeight}px` : "0px");
});
bandHeight.observe(band);
bandHeight.observe($("hands")); // (the band is kept at the top only while the hands show)
render();
