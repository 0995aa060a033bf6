// The controls: the people at the table run it from here once they entered its PIN; guests
// watch only. Which buttons show comes from the table itself (/control/status), asked again
// after each of the table's events and every few seconds; every command goes to the table as
// the input its buttons make, and the table's own rules answer.
import { html } from "./svg.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 3000;
const ctl = { session: false, token: "", status: null, said: "", wrong: false, ending: false,
  form: null, checking: 0, drawn: "" };

async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (ctl.token) headers["X-Obelisk-Token"] = ctl.token;
  let response;
  try {
    response = await fetch(path, { method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { status: 0, data: { error: "the page's server is out of reach; try again" } };
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = { error: `the server answered ${response.status}` };
  }
  return { status: response.status, data };
}

function say(words, wrong = false) {
  ctl.said = words || "";
  ctl.wrong = wrong;
  paint();
}

// ------------------------------------------------------------------ the session

async function lookForSession() {
  const { status, data } = await call("GET", "/session");
  if (status === 200 && data.session) {
    Object.assign(ctl, { session: true, token: data.token });
    await refresh();
  } else if (status === 200 && data.closed) {
    say(data.closed, true); // too many wrong PINs: a hold at the table opens entry again
  }
  paint();
}

async function enterPin(event) {
  event.preventDefault();
  const pin = $("pin").value.trim();
  const { status, data } = await call("POST", "/session", { pin });
  $("pin").value = "";
  if (status === 200) {
    Object.assign(ctl, { session: true, token: data.token });
    say("this phone runs the table now");
    await refresh();
  } else {
    say(data.error || `refused (${status})`, true);
  }
}

async function leave() {
  await call("DELETE", "/session");
  Object.assign(ctl, { session: false, token: "", status: null });
  say("this phone only watches now");
}

// ------------------------------------------------------------------ the table's state

async function refresh() {
  if (!ctl.session) return;
  const { status, data } = await call("POST", "/control/status");
  if (status === 403) {
    Object.assign(ctl, { session: false, token: "", status: null });
    say(data.error, true);
    return;
  }
  ctl.status = status === 200 ? data : null;
  if (status !== 200) ctl.said = data.error || "";
  paint();
}

function soon() {
  clearTimeout(ctl.checking);
  ctl.checking = setTimeout(refresh, 100);
}

async function command(name, fields = {}) {
  const { status, data } = await call("POST", `/control/${name}`, fields);
  if (status === 403) {
    Object.assign(ctl, { session: false, token: "", status: null });
  }
  ctl.ending = false;
  say(data.ok ? data.message || "done" : data.error || `refused (${status})`, !data.ok);
  await refresh();
}

// ------------------------------------------------------------------ drawing the panel

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
  for (const p of can.decline) {
    shown.push(button(`ctl-decline-${p}`, `Player ${p} declines the bonus`,
      () => command("decline", { player: p })));
  }
  for (const p of can.takeback) {
    shown.push(button(`ctl-takeback-${p}`, `Player ${p} confirms the takeback`,
      () => command("takeback", { player: p })));
  }
  const row = [html("div", { class: "ctl-row" }, ...shown)];
  if (can.choose) {
    const who = `Player ${can.choose.player} chooses:`;
    row.push(html("div", { class: "ctl-choose" }, html("p", {}, who),
      ...can.choose.candidates.map((words, i) => button(`ctl-choose-${i}`, words,
        () => command("choose", { index: i }), i === can.choose.pick ? "pick" : ""))));
  }
  if (can.end) {
    row.push(ctl.ending
      ? html("div", { class: "ctl-row" }, html("span", {}, "End this game? Its moves are kept."),
        button("ctl-end-yes", "Yes, end it", () => command("end"), "danger"),
        button("ctl-end-no", "No", () => { ctl.ending = false; paint(); }))
      : html("div", { class: "ctl-row" },
        button("ctl-end", "End the game…", () => { ctl.ending = true; paint(); })));
  }
  if (can.new) row.push(newGameForm(status));
  return row;
}

function newGameForm(status) {
  const games = status.games || {};
  const chosen = ctl.form?.game in games ? ctl.form.game : status.game;
  const select = html("select", { id: "new-game", name: "game" },
    ...Object.entries(games).map(([id, g]) =>
      html("option", { value: id, title: g.help, selected: id === chosen ? "selected" : null }, id)));
  select.addEventListener("change", () => { ctl.form = { game: select.value }; paint(); });
  const fields = (games[chosen]?.options || []).map((o) => optionField(o));
  const form = html("form", { id: "new-game-form", class: "ctl-new" },
    html("h3", {}, "A new game"),
    html("label", {}, "game ", select), ...fields, ...soloFields(status.solo),
    html("button", { type: "submit", id: "ctl-new" }, "Set up this game"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const options = {};
    for (const o of games[chosen]?.options || []) {
      const input = form.elements[`opt-${o.name}`];
      if (!input) continue;
      if (o.switch) { if (input.checked) options[o.name] = true; }
      else if (input.value.trim()) options[o.name] = input.value.trim();
    }
    ctl.form = { game: chosen };
    const solo = form.elements["opt-solo"].value;
    const sent = { game: chosen, options, solo };
    if (solo !== "none") sent.level = Number(form.elements["opt-level"].value);
    command("new", sent);
  });
  return form;
}

// Playing alone: the computer's seat (or two people) and its level, as --solo and --level.
function soloFields(solo) {
  const seat = html("select", { name: "opt-solo", id: "opt-solo" },
    ...[["none", "two people"], ["A", "the computer plays A"], ["B", "the computer plays B"]]
      .map(([value, words]) => html("option",
        { value, selected: (solo?.seat || "none") === value ? "selected" : null }, words)));
  const level = html("select", { name: "opt-level", id: "opt-level" },
    ...[1, 2, 3, 4].map((n) => html("option",
      { value: String(n), selected: (solo?.level || 1) === n ? "selected" : null },
      `${n}${n === 1 ? " (easiest)" : n === 4 ? " (hardest)" : ""}`)));
  return [html("label", { title: "play alone: the table lights the computer's moves" },
    "players ", seat), html("label", { title: "how well the computer plays" }, "level ", level)];
}

function optionField(option) {
  const name = `opt-${option.name}`;
  const words = option.flag.replace(/^--/, "").replace(/-/g, " ");
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
  return html("label", { title: option.help }, `${words} `, input);
}

function paint() {
  const panel = $("controls");
  if (!panel) return;
  $("controls-guest").hidden = ctl.session;
  $("pin-form").hidden = ctl.session;
  $("controls-buttons").hidden = !ctl.session;
  $("controls-leave").hidden = !ctl.session;
  // drawn again only when something changed, so that a half-filled form keeps its values
  const drawn = JSON.stringify([ctl.session, ctl.status, ctl.ending, ctl.form]);
  if (drawn !== ctl.drawn) {
    ctl.drawn = drawn;
    $("controls-buttons").replaceChildren(...(ctl.session ? buttons() : []));
  }
  $("controls-said").textContent = ctl.said;
  $("controls-said").className = ctl.wrong ? "wrong" : "";
  panel.dataset.session = ctl.session ? "yes" : "no";
}

$("pin-form").addEventListener("submit", enterPin);
$("controls-leave").addEventListener("click", leave);
window.addEventListener("obelisk:event", () => soon());
setInterval(() => { if (ctl.session) refresh(); }, POLL_MS);
lookForSession();
