// @ts-check
// The controls: the people at the table run it from here once they entered its PIN; guests
// watch only. Which buttons show comes from the table itself (/control/status), asked again
// after each of the table's events and every few seconds; every command goes to the table as
// the input its buttons make, and the table's own rules answer.
import { askSession, command as send, endSession, openSession, tableStatus } from "./service.js";
import { html } from "./svg.js";

/**
 * @typedef {import("./service.js").ControlStatus} ControlStatus
 * @typedef {import("./service.js").GameOption} GameOption
 */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const POLL_MS = 3000;
/**
 * The panel's state: this phone's session and token, the table's status, what the panel
 * said last and the command it answered, whether that was about the connection (`away`: the
 * table or the page's server out of reach), the new-game form's choice, the drawn buttons
 * (as JSON), the seats' names as the game gives them (the maze's roles), whether the page
 * has the hands panel (`obelisk play`).
 * @type {{session: boolean, token: string, status: ControlStatus | null, said: string,
 *   wrong: boolean, away: boolean, asked: string, ending: boolean,
 *   form: {game: string} | null, checking: number, drawn: string,
 *   names: Record<string, string>, hands: boolean}}
 */
const ctl = { session: false, token: "", status: null, said: "", wrong: false, away: false,
  asked: "", ending: false, form: null, checking: 0, drawn: "", names: {}, hands: false };
/** The answers of a table or a server out of reach (service.js `call`: 0; the web process:
 * 503): they hold only until the table answers again. */
const AWAY = new Set([0, 503]);
/** Where the panel's answers show: moved under the buttons that asked (`placeSaid`). */
const saidNode = $("controls-said");
/** The hands panel's act that sets every piece out for a new game (hands.js `sweeps`). */
const SET_UP = "set it up for a new game";

/** A seat as the game names it, at the start of a button's words ("The Architect").
 * @param {string} seat */
function seatName(seat) {
  const name = (ctl.names[seat] || `player ${seat}`).replace(/ \([^)]*\)$/, "");
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** @param {string | undefined} words @param {boolean} [wrong] @param {boolean} [away] the
 * words are about the connection (they go once the table answers again) */
function say(words, wrong = false, away = false) {
  ctl.said = words || "";
  ctl.wrong = wrong;
  ctl.away = away;
  paint();
}

// ------------------------------------------------------------------ the session

async function lookForSession() {
  const { status, data } = await askSession(ctl.token);
  if (status === 200 && data.session) {
    Object.assign(ctl, { session: true, token: data.token || "" });
    await refresh();
  } else if (status === 200 && data.closed) {
    say(data.closed, true); // too many wrong PINs: a hold at the table opens entry again
  }
  paint();
}

/** @param {Event} event */
async function enterPin(event) {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($("pin"));
  const pin = input.value.trim();
  const { status, data } = await openSession(pin, ctl.token);
  input.value = "";
  if (status === 200) {
    Object.assign(ctl, { session: true, token: data.token || "" });
    say("this phone runs the table now");
    await refresh();
  } else {
    say(data.error || `refused (${status})`, true);
  }
}

async function leave() {
  await endSession(ctl.token);
  Object.assign(ctl, { session: false, token: "", status: null });
  say("this phone only watches now");
}

// ------------------------------------------------------------------ the table's state

async function refresh() {
  if (!ctl.session) return;
  const { status, data } = await tableStatus(ctl.token);
  if (status === 403) {
    Object.assign(ctl, { session: false, token: "", status: null });
    say(data.ok ? "" : data.error, true);
    return;
  }
  // (an answer of 200 that is not the status, which cannot be read, shows no buttons)
  ctl.status = status === 200 && data.ok ? data : null;
  if (status !== 200) {
    Object.assign(ctl, { said: (!data.ok && data.error) || "", away: AWAY.has(status) });
  } else if (ctl.away) { // the table answers again: what said it was away no longer holds
    Object.assign(ctl, { said: "", wrong: false, away: false });
  }
  paint();
}

function soon() {
  clearTimeout(ctl.checking);
  ctl.checking = setTimeout(refresh, 100);
}

/** A command to the table, then its status again.
 * @param {string} name
 * @param {object} [fields] */
async function command(name, fields = {}) {
  const { status, data } = await send(name, fields, ctl.token);
  if (status === 403) {
    Object.assign(ctl, { session: false, token: "", status: null });
  }
  Object.assign(ctl, { ending: false, asked: name });
  say(data.ok ? data.message || "done" : data.error || `refused (${status})`, !data.ok,
    AWAY.has(status));
  await refresh();
}

// ------------------------------------------------------------------ drawing the panel

/** @param {string} id @param {string} words @param {() => void} act @param {string} [kind] */
function button(id, words, act, kind = "") {
  const node = html("button", { type: "button", id, class: kind });
  node.textContent = words;
  node.addEventListener("click", act);
  return node;
}

function buttons() {
  const status = ctl.status;
  if (!status) return [html("p", {}, "asking the table…")];
  const can = status.can;
  const shown = [];
  if (can.pause) shown.push(button("ctl-pause", "Pause", () => command("pause")));
  if (can.resume) shown.push(button("ctl-resume", "Resume", () => command("resume"), "main"));
  if (can.start) shown.push(button("ctl-start", "Start the game", () => command("start"), "main"));
  if (can.hint) shown.push(button("ctl-hint", "Hint", () => command("hint")));
  if (can.answer) { // a match: the other table asks (a pause, play on, the end, a takeback)
    shown.push(button("ctl-agree", "Agree", () => command("answer", { agree: true }), "main"),
      button("ctl-disagree", "Decline", () => command("answer", { agree: false })));
  }
  if (can.claim) { // a match whose other table has been out of touch long enough
    shown.push(button("ctl-claim", "Claim the game", () => command("claim"), "danger"));
  }
  for (const p of can.decline) {
    shown.push(button(`ctl-decline-${p}`, `${seatName(p)} declines the bonus`,
      () => command("decline", { player: p })));
  }
  for (const p of can.takeback) {
    shown.push(button(`ctl-takeback-${p}`, `${seatName(p)} confirms the takeback`,
      () => command("takeback", { player: p })));
  }
  /** @type {HTMLElement[]} */
  const row = [html("div", { class: "ctl-row" }, ...shown)];
  if (status.state === "setup" && !can.start) row.push(notReady(status.problem));
  const choose = can.choose;
  if (choose) {
    const who = `${seatName(choose.player)} chooses:`;
    row.push(html("div", { class: "ctl-choose" }, html("p", {}, who),
      ...choose.candidates.map((words, i) => button(`ctl-choose-${i}`, words,
        () => command("choose", { index: i }), i === choose.pick ? "pick" : ""))));
  }
  if (can.end) {
    row.push(ctl.ending
      ? html("div", { class: "ctl-row" }, html("span", {}, status.remote
        ? "End this game? The other table is asked; it ends when its player agrees, its moves kept."
        : "End this game? Its moves are kept."),
        button("ctl-end-yes", "Yes, end it", () => command("end"), "danger"),
        button("ctl-end-no", "No", () => { ctl.ending = false; paint(); }))
      : html("div", { class: "ctl-row" },
        button("ctl-end", "End the game…", () => { ctl.ending = true; paint(); })));
  }
  if (can.new) row.push(newGameForm(status));
  return row;
}

/** What stands before the start, where the start would be: the table's own words (what to
 * set out or clear first), and on a page with the hands panel, its act that does it.
 * @param {string} problem */
function notReady(problem) {
  const what = (problem || "the table is reading the board").replace(/\.$/, "");
  const hands = ctl.hands ? ` On this page the hands panel's "${SET_UP}" does it.` : "";
  return html("p", { id: "ctl-not-ready" }, `Before the game can start: ${what}.${hands}`);
}

/** The form that sets up a new game: the game, its options, who plays.
 * @param {ControlStatus} status */
function newGameForm(status) {
  const games = status.games || {};
  const chosen = ctl.form && ctl.form.game in games ? ctl.form.game : status.game;
  const select = html("select", { id: "new-game", name: "game" },
    ...Object.entries(games).map(([id, g]) =>
      html("option", { value: id, title: g.help, selected: id === chosen ? "selected" : null }, id)));
  select.addEventListener("change", () => { ctl.form = { game: select.value }; paint(); });
  const fields = (games[chosen]?.options || []).map((o) => optionField(o));
  const solo = soloFields(status.solo, status.remote, seatsOf(games[chosen]));
  const form = html("form", { id: "new-game-form", class: "ctl-new" },
    html("h3", {}, "A new game"),
    html("label", {}, "game ", select), ...fields.map((f) => f.label), ...solo.labels,
    html("button", { type: "submit", id: "ctl-new" }, "Set up this game"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    /** @type {Record<string, string | boolean>} */
    const options = {};
    for (const { option: o, input } of fields) {
      if (o.switch) { if (input instanceof HTMLInputElement && input.checked) options[o.name] = true; }
      else if (input.value.trim()) options[o.name] = input.value.trim();
    }
    // (the form is not drawn again for this: a game refused keeps what was typed)
    const who = solo.seat.value;
    if (who.startsWith("remote-")) { // a match with another table: its name, the seat here
      command("new", { game: chosen, options, remote: solo.match.value.trim(),
        seat: who.slice("remote-".length), secret: solo.secret.value });
      return;
    }
    /** @type {{game: string, options: Record<string, string | boolean>, solo: string, level?: number}} */
    const sent = { game: chosen, options, solo: who };
    if (sent.solo !== "none") sent.level = Number(solo.level.value);
    command("new", sent);
  });
  return form;
}

/** A game's seats as it names them ({A: "the Architect", ...}; none named: player A, B).
 * @param {ControlStatus["games"][string] | undefined} game */
function seatsOf(game) {
  // (the status's games name them: firmware.service.commands.games)
  return (/** @param {string} seat */ (seat) => game?.seats?.[seat] || `player ${seat}`);
}

/** Who plays: two people, the computer in a seat and its level (--solo, --level), or a
 * friend at another table (--remote, --seat, --secret); each seat as the game names it.
 * @param {ControlStatus["solo"]} solo  as the table plays now
 * @param {ControlStatus["remote"]} remote  the match the table plays now, if any
 * @param {(seat: string) => string} seatOf  the chosen game's name of a seat */
function soloFields(solo, remote, seatOf) {
  const now = remote ? `remote-${remote.seat}` : solo?.seat || "none";
  const seat = html("select", { name: "opt-solo", id: "opt-solo" },
    ...[["none", "two people"],
      ...["A", "B"].map((p) => [p, `the computer plays ${seatOf(p)}`]),
      ...["A", "B"].map((p) => [`remote-${p}`, `a friend at another table; ${seatOf(p)} here`])]
      .map(([value, words]) => html("option",
        { value, selected: now === value ? "selected" : null }, words)));
  const match = html("input", { name: "opt-match", id: "opt-match", value: remote?.match || "",
    placeholder: "friday-night", autocomplete: "off" });
  const secret = html("input", { name: "opt-secret", id: "opt-secret", type: "password",
    autocomplete: "off" });
  const level = html("select", { name: "opt-level", id: "opt-level" },
    ...[1, 2, 3, 4].map((n) => html("option",
      { value: String(n), selected: (solo?.level || 1) === n ? "selected" : null },
      `${n}${n === 1 ? " (easiest)" : n === 4 ? " (hardest)" : ""}`)));
  return { seat, level, match, secret, labels: [html("label", { title: "play alone: the table lights the computer's moves" },
    "players ", seat), html("label", { title: "how well the computer plays" }, "level ", level),
  html("label", { title: "a match: the name both tables give it" }, "match ", match),
  html("label", { title: "a match of High Rise: the word both players agreed on" },
    "secret word ", secret)] };
}

/** One of a game's options as a field: a checkbox, a list of choices or a text.
 * @param {GameOption} option */
function optionField(option) {
  const name = `opt-${option.name}`;
  const words = option.label;
  /** @type {HTMLInputElement | HTMLSelectElement} */
  let input;
  if (option.switch) {
    input = html("input", { type: "checkbox", name, id: name });
  } else if (option.choices) {
    input = html("select", { name, id: name }, html("option", { value: "" }, "as usual"),
      ...option.choices.map((c) => html("option", { value: c }, c)));
  } else {
    input = html("input", { type: "text", name, id: name, placeholder: option.metavar || "",
      autocomplete: "off", size: 8 });
  }
  return { option, input, label: html("label", { title: option.help }, `${words} `, input) };
}

function paint() {
  const panel = document.getElementById("controls");
  if (!panel) return;
  $("controls-guest").hidden = ctl.session;
  $("pin-form").hidden = ctl.session;
  $("controls-buttons").hidden = !ctl.session;
  $("controls-leave").hidden = !ctl.session;
  // drawn again only when something changed, so that a half-filled form keeps its values
  const drawn = JSON.stringify([ctl.session, ctl.status, ctl.ending, ctl.form, ctl.names,
    ctl.hands]);
  if (drawn !== ctl.drawn) {
    ctl.drawn = drawn;
    keepingTyped($("controls-buttons"), () => $("controls-buttons").replaceChildren(
      ...(ctl.session ? buttons() : [])));
  }
  placeSaid();
  saidNode.textContent = ctl.said;
  saidNode.className = ctl.wrong ? "wrong" : "";
  panel.dataset.session = ctl.session ? "yes" : "no";
  tell();
}

/** Draw ``node`` again (``redraw``) keeping what a person typed or chose in its fields, and
 * the field they were in: the table's status changes while a new game is half filled in.
 * Only fields touched are kept; the others show the table's values as drawn.
 * @param {HTMLElement} node @param {() => void} redraw */
function keepingTyped(node, redraw) {
  /** @type {Map<string, string | boolean>} */
  const typed = new Map();
  for (const field of node.querySelectorAll("input[data-typed], select[data-typed]")) {
    const f = /** @type {HTMLInputElement} */ (field);
    typed.set(f.name, f.type === "checkbox" ? f.checked : f.value);
  }
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && node.contains(active) ? active.id : "";
  redraw();
  for (const field of node.querySelectorAll("input[name], select[name]")) {
    const f = /** @type {HTMLInputElement} */ (field);
    const kept = typed.get(f.name);
    if (kept === undefined) continue;
    if (typeof kept === "boolean") f.checked = kept;
    else f.value = kept;
    f.dataset.typed = "yes";
  }
  if (focused) document.getElementById(focused)?.focus();
}

/** A field the person typed in or chose from: kept when the panel is drawn again. */
document.addEventListener("input", (event) => {
  const field = event.target;
  if (field instanceof HTMLElement && field.closest("#controls-buttons")) field.dataset.typed = "yes";
});

/** The answer stands under the buttons that asked, in view with them on a phone: a new
 * game's under its form, any other command's under the row of buttons; with no session,
 * under the PIN's form. */
function placeSaid() {
  const buttons = $("controls-buttons");
  const form = ctl.asked === "new" ? document.getElementById("new-game-form") : null;
  const near = ctl.session ? form || buttons.firstElementChild || buttons : buttons;
  if (saidNode.previousElementSibling !== near) near.after(saidNode);
}

/** Whether this phone had a session when the page was last told (hands.js listens). */
let told = false;

/** Tells the page when this phone's session begins or ends, with its token: the hands
 * panel shows as soon as the PIN is accepted, and goes when the phone only watches. */
function tell() {
  if (ctl.session === told) return;
  told = ctl.session;
  window.dispatchEvent(new CustomEvent("obelisk:session",
    { detail: { session: ctl.session, token: ctl.token } }));
}

$("pin-form").addEventListener("submit", enterPin);
$("controls-leave").addEventListener("click", leave);
/** Events after which the last answer no longer holds: the game has moved on. */
const MOVED_ON = new Set(["accepted", "takeback", "game_over"]);
/** The table's pause that undoes what a command's answer said (paused from the table's
 * menu button after "play goes on", or played on after "paused"). */
const UNDONE = { pause: "resumed", resume: "paused" };
/** A match's ask answered, either way: "asked the other table to ..." no longer holds. */
const ANSWERED = new Set(["agreed", "declined"]);
window.addEventListener("obelisk:event", (e) => {
  if (!(e instanceof CustomEvent)) return;
  const answered = e.detail?.event === "match" && ANSWERED.has(e.detail.state);
  const undone = e.detail?.event === "pause"
    && UNDONE[/** @type {"pause" | "resume"} */ (ctl.asked)] === e.detail.state;
  if (MOVED_ON.has(e.detail?.event) || answered || undone) {
    Object.assign(ctl, { said: "", wrong: false, away: false });
  }
  // the game's seats by their names, as the table's whole state and a start say them
  if (e.detail?.event === "table" || e.detail?.event === "start") ctl.names = e.detail.players;
  soon();
});
// the hands panel (obelisk play) tells what is on the table; null: this page has no hands
window.addEventListener("obelisk:hands", (e) => {
  const hands = e instanceof CustomEvent && e.detail !== null;
  if (hands !== ctl.hands) { ctl.hands = hands; paint(); }
});
setInterval(() => { if (ctl.session) refresh(); }, POLL_MS);
lookForSession();
