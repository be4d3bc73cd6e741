// A match's running score, shared by the table and watch pages (issue 36: BF-19).
import { element } from "./net.js";

/** Show `match` (the "match" field of welcome, watching, state and public; null at a
 * table of single games) in the element `node`, naming seats from `seats`. */
export function showMatch(node, match, seats) {
  if (!match) {
    node.hidden = true;
    return;
  }
  const name = (seat) => (seats.find((s) => s.seat === seat) || { name: `seat ${seat}` }).name;
  const totals = match.totals.map((points, seat) => `${name(seat)} ${points}`).join(" · ");
  let text = `Match to ${match.target} points, game ${match.game}: ${totals}`;
  if (match.winner !== null) text += ` — ${name(match.winner)} wins the match`;
  node.replaceChildren(element("span", text));
  node.hidden = false;
}

/** Show how many people watch the table in `node` (hidden while nobody does). */
export function showWatchers(node, count) {
  node.textContent = count === 1 ? "1 person is watching" : `${count} people are watching`;
  node.hidden = !count;
}
