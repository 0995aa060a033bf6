// @ts-check
/**
 * A player's hourglass on the page: a ring that drains and the seconds left, drawn from
 * the table's last `timer` event and brought up to date between events, as the LED rings
 * drain (app.js keeps each player's Timer and draws it on their card).
 */

import { html, secondsLeft, svg } from "./svg.js";

/**
 * An hourglass as its last `timer` event left it; `at`: when that came (performance.now()).
 * @typedef {{state: string, seconds: number, left: number, at: number}} Timer
 */

const RING = 2 * Math.PI * 15; // the hourglass ring's length (r = 15)

/** The table stopped: a running glass keeps the seconds it had left, "stopped".
 * @param {Timer} timer */
export function freeze(timer) {
  if (timer.state === "started" || timer.state === "resumed") {
    timer.left = leftOf(timer);
    timer.state = "stopped";
  }
}

/** @param {Timer} timer */
function leftOf(timer) {
  const running = timer.state === "started" || timer.state === "resumed";
  const gone = running ? (performance.now() - timer.at) / 1000 : 0;
  return Math.max(0, timer.left - gone);
}

/** Each hourglass on the page, and what brings it up to date.
 * @type {WeakMap<Element, () => void>} */
const hourglasses = new WeakMap();

/** A player's hourglass: a ring that drains, and the seconds left.
 * @param {Timer} timer */
export function hourglass(timer) {
  const ring = svg("circle", { cx: 18, cy: 18, r: 15, class: "sand", "stroke-dasharray": `${RING} ${RING}` });
  const words = html("span", { class: "seconds" });
  const box = html("div", { class: "hourglass" },
    svg("svg", { viewBox: "0 0 36 36", class: "ring", "aria-hidden": "true" },
      svg("circle", { cx: 18, cy: 18, r: 15, class: "glass" }), ring), words);
  const update = () => {
    const left = leftOf(timer);
    const share = timer.seconds > 0 ? left / timer.seconds : 0;
    ring.setAttribute("stroke-dashoffset", String(RING * (1 - share)));
    ring.classList.toggle("low", left <= 10);
    const running = timer.state === "started" || timer.state === "resumed";
    words.textContent = `${secondsLeft(left)}${running ? "" : ` ${timer.state}`}`;
    box.classList.toggle("running", running);
  };
  hourglasses.set(box, update);
  update();
  return box;
}

// the hourglasses drain between the table's timer events, as the rings do
setInterval(() => {
  for (const box of document.querySelectorAll(".hourglass.running")) hourglasses.get(box)?.();
}, 200);

