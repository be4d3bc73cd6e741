// Leavers and reactions at a table (issue 36 §2), shared by the seat's page (table.js) and
// the spectator's (watch.js): the move clock of the seat on turn, counted down here between
// the server's messages; a takeover (a bot plays a seat whose person left or ran out of
// time) in the move log and the live region; reactions shown for a few seconds and read out.
import { element } from "./net.js";

/** The fixed set the server takes (spitemalice.server.protocol.REACTIONS). */
export const REACTIONS = [
  ["hello", "\u{1F44B}", "Hello!"], ["nice", "\u{1F44D}", "Nice move!"],
  ["wow", "\u{1F62E}", "Wow!"], ["oops", "\u{1F605}", "Oops!"],
  ["thinking", "\u{1F914}", "Let me think..."], ["hurry", "\u{23F3}", "Your move!"],
  ["thanks", "\u{1F64F}", "Thanks!"], ["good-game", "\u{1F44F}", "Good game!"],
];

const SHOWN_MS = 4000;
let ticking = null;

/** Show `clock` (a state's or public's clock field) in `node`: who is on the clock and the
 * seconds left, counting down; hidden at a table without a move clock. */
export function showClock(node, clock, nameOf) {
  if (ticking) clearInterval(ticking);
  ticking = null;
  if (!clock || clock.per_move === null) { node.hidden = true; return; }
  node.hidden = false;
  if (clock.seat === null) {
    node.textContent = `Move clock: ${clock.per_move} s a move`;
    node.classList.remove("short");
    return;
  }
  const ends = Date.now() + clock.left_ms;
  const draw = () => {
    const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    node.textContent = `Move clock: ${nameOf(clock.seat)} has ${left} s left`;
    node.dataset.left = String(left);
    node.classList.toggle("short", left <= Math.min(10, clock.per_move / 3));
    if (left <= 0 && ticking) { clearInterval(ticking); ticking = null; }
  };
  draw();
  ticking = setInterval(draw, 250);
}

/** What the seat list says of a seat's player: a person, a bot, or a bot that took over. */
export function playerWords(seat) {
  if (seat.takeover) {
    return `bot: ${seat.takeover.player} (since move ${seat.takeover.at + 1}, ${seat.takeover.why})`;
  }
  return seat.player === "human" ? "person" : `bot: ${seat.player}`;
}

/** A takeover message: a line in the move log, and said to the live region. */
export function showTakeover(message, log, speak) {
  const item = element("li", message.message, "takeover");
  log.append(item);
  log.scrollTop = log.scrollHeight;
  speak(message.message);
}

/** A reaction message: a bubble in `box` for a few seconds, said to the live region. */
export function showReaction(message, box, speak) {
  const bubble = element("p", "", "bubble");
  bubble.append(element("span", message.emoji, "emoji"),
                element("span", ` ${message.name}: ${message.text}`));
  box.append(bubble);
  setTimeout(() => bubble.remove(), SHOWN_MS);
  speak(`${message.name}: ${message.text}`);
}

/** The reaction buttons of a seat in `node`; each sends its reaction with `send`. */
export function reactionButtons(node, send) {
  node.replaceChildren(...REACTIONS.map(([name, emoji, words]) => {
    const button = element("button", emoji, "react");
    button.type = "button";
    button.dataset.reaction = name;
    button.title = words;
    button.setAttribute("aria-label", `React: ${words}`);
    button.addEventListener("click", () => send({ type: "react", reaction: name }));
    return button;
  }));
}
