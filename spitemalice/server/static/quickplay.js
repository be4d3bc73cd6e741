// Play now (quick play): wait for a table of the chosen rule set with whoever else waits for
// the same, or a bot after the server's stated wait; then sit down at it.
import { connect, element } from "./net.js";
import { rememberSeat } from "./held.js";

const $ = (id) => document.getElementById(id);
let server = null;
let rulesets = [];
let timer = null;
let waiting = false;

function say(text, bad = false) {
  $("qp-status").textContent = text;
  $("qp-status").classList.toggle("bad", bad);
}

function stopCountdown() {
  if (timer) clearInterval(timer);
  timer = null;
}

function idle() {
  waiting = false;
  stopCountdown();
  $("qp-go").disabled = false;
  $("qp-cancel").hidden = true;
}

function onMessage(message) {
  if (message.type === "catalog") fill(message);
  else if (message.type === "queued") queued(message);
  else if (message.type === "matched") matched(message);
  else if (message.type === "unqueued") {
    idle();
    say("You left the queue.");
  } else if (message.type === "error") {
    idle();
    say(message.message, true);
  }
}

function fill(catalog) {
  rulesets = catalog.rulesets;
  const select = $("qp-ruleset");
  select.replaceChildren(...rulesets.map((r) => {
    const option = element("option", r.name);
    option.value = r.name;
    return option;
  }));
  select.addEventListener("change", counts);
  counts();
}

function counts() {
  const ruleset = rulesets.find((r) => r.name === $("qp-ruleset").value);
  const select = $("qp-players");
  select.replaceChildren(...ruleset.players.map((n) => {
    const option = element("option", String(n));
    option.value = String(n);
    return option;
  }));
  $("qp-players-row").hidden = ruleset.players.length < 2;  // one count: nothing to choose
}

function queued(message) {
  waiting = true;
  const others = message.players - 1;
  const until = Date.now() + message.wait * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    const people = others === 1 ? "another player" : `${others} other players`;
    const bots = others === 1 ? `a ${message.bot} bot takes the seat` :
      `${message.bot} bots take the seats`;
    say(`Waiting for ${people} for ${message.ruleset} (${message.waiting} waiting now); ` +
        `${bots} in ${left} s if nobody comes.`);
    $("qp-countdown").textContent = String(left);
  };
  tick();
  stopCountdown();
  timer = setInterval(tick, 250);
  $("qp-cancel").hidden = false;
}

function matched(message) {
  idle();
  const mine = message.seats[message.seat];
  say(message.bots ? `No one else came: ${message.bots === 1 ? "a bot" : `${message.bots} bots`}` +
      " sit with you. Sitting down…" : "Matched with other players. Sitting down…");
  rememberSeat({ table: message.table, seat: message.seat, token: message.token,
                 name: mine.name, ruleset: message.ruleset });
  location.assign(new URL(message.link, location.origin).href);
}

function start() {
  const message = { type: "quickplay", ruleset: $("qp-ruleset").value,
                    players: Number($("qp-players").value) };
  const name = $("qp-name").value.trim();
  if (name) message.name = name;
  $("qp-go").disabled = true;
  $("qp-countdown").textContent = "";
  say("Asking the server…");
  // a connection of its own, open while waiting: closing it (leaving the page) leaves the queue
  server = connect(onMessage, () => server.send(message), (reason) => {
    if (!waiting) return;
    idle();
    say(`The server closed the connection${reason ? `: ${reason}` : ""}.`, true);
  });
}

$("qp-go").addEventListener("click", start);
$("qp-cancel").addEventListener("click", () => {
  if (server && server.open) server.send({ type: "unqueue" });
});
const catalogSocket = connect(onMessage, () => catalogSocket.send({ type: "catalog" }));
