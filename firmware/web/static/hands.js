// The hands panel: a person's hands on the simulated table (`obelisk play`). It asks /hands
// what is on the table and sends each act there; the table itself learns of an act only
// through its sensors, and the rest of the page shows what it made of it, as for wooden pieces.
// Each game draws its own part (the module its declaration names, `hands_page`, which the
// table sends as `page`); this file holds what they share.
import { html } from "./svg.js";

const panel = document.getElementById("hands");
const hands = { table: null, seat: "A", acts: 0, busy: false, said: "", page: null, draw: null,
  token: "", obs: null };

async function call(method, body) {
  const headers = body ? { "Content-Type": "application/json" } : {};
  if (body && hands.token) headers["X-Obelisk-Token"] = hands.token;
  const response = await fetch("/hands", {
    method, headers, credentials: "same-origin",
    body: body ? JSON.stringify(body) : undefined, cache: "no-store",
  });
  return { status: response.status, answer: await response.json() };
}

/** The token of this phone's PIN session (the controls' one): the hands need it too. */
async function token() {
  try {
    const response = await fetch("/session", { cache: "no-store", credentials: "same-origin" });
    const data = await response.json();
    hands.token = data.session ? data.token : "";
  } catch {
    hands.token = "";
  }
}

async function send(request) {
  let { status, answer } = await call("POST", request);
  if (status === 403) { // a session entered (or ended) since: ask for the token again
    await token();
    ({ status, answer } = await call("POST", request));
  }
  return answer;
}

/** Do one act (or a button press), then draw the table as it is after it. */
export async function act(request) {
  if (hands.busy) return;
  hands.busy = true;
  panel.dataset.busy = "1";
  try {
    const answer = await send(request);
    hands.said = answer.ok ? "" : answer.error;
    if (answer.table) hands.table = answer.table;
    if (request.press) await look();
  } catch {
    hands.said = "the page lost the table: is `obelisk play` still running?";
  } finally {
    hands.busy = false;
    hands.acts += 1;
    panel.dataset.acts = String(hands.acts);
    delete panel.dataset.busy;
    await draw();
  }
}

async function look() {
  try {
    const { status, answer } = await call("GET");
    if (status === 404) return false;
    if (answer.table) hands.table = answer.table;
    return true;
  } catch {
    return false;
  }
}

function seats() {
  const choose = (seat) => {
    const button = html("button", { type: "button", "data-seat": seat,
      "aria-pressed": String(hands.seat === seat) }, `player ${seat}'s hands`);
    button.addEventListener("click", () => { hands.seat = seat; draw(); });
    return button;
  };
  return html("div", { class: "hands-seats" }, "Acting as: ", choose("A"), choose("B"));
}

function buttons() {
  const press = (name, hold, words) => {
    const button = html("button", { type: "button", "data-press": name,
      "data-hold": hold ? "1" : null }, words);
    button.addEventListener("click", () => act({ press: name, hold }));
    return button;
  };
  return html("div", { class: "hands-buttons" }, "The table's buttons: ",
    press("A", false, "press A"), press("A", true, "hold A"),
    press("B", false, "press B"), press("B", true, "hold B"),
    press("menu", false, "menu"));
}

async function draw() {
  const table = hands.table;
  if (!table) return;
  if (hands.page !== table.page) { // the module the game declares for its hands
    hands.page = table.page;
    hands.draw = (await import(`./${table.page}.js`)).drawHands;
  }
  const said = html("p", { id: "hands-said", role: "status" }, hands.said);
  panel.replaceChildren(
    html("h2", {}, "Your hands on the table"), seats(), said,
    hands.draw(table, hands.seat, act, hands.obs), buttons());
  panel.hidden = false;
}

async function start() {
  if (!(await look())) return; // no simulated table here: no panel
  await token();
  window.addEventListener("obelisk:event", (e) => { // the game's board size, whose turn
    if (e.detail && e.detail.observation) {
      hands.obs = e.detail.observation;
      if (!hands.busy) draw();
    }
  });
  await draw();
  setInterval(async () => { // another page's hands may have moved something
    if (!hands.busy && (await look()) && !hands.busy) draw();
  }, 2000);
}

start();
