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

/** Show `deal` (the "deal" field of state and public: the commitment to the deal's seed,
 * and once the game is over the seed, dealer and salt that open it) in the element `node`:
 * the commitment's first 12 hex digits, the whole value (selectable, to copy) on request,
 * and at the end the seed and how to check it. Hidden when the table sends none. */
export function showDeal(node, deal) {
  if (!deal) {
    node.hidden = true;
    return;
  }
  const key = `${deal.commitment}:${deal.seed || ""}`;
  if (node.dataset.shown === key) return;  // unchanged: an opened "details" stays open
  node.dataset.shown = key;
  const full = element("code", deal.commitment);
  full.className = "commitment";
  const more = element("details", "");
  more.append(element("summary", `Deal committed: SHA-256 ${deal.commitment.slice(0, 12)}…`),
    full);
  const parts = [more];
  if (deal.seed !== undefined) {
    const seed = element("p", `Seed revealed: ${deal.seed} (dealer ` +
      `${deal.dealer === null ? "none" : deal.dealer}, salt ${deal.salt}). ` +
      "Check it: spitemalice check on the game's record, or run:");
    const line = element("code", deal.check.split(", or: ")[1] || deal.check);
    line.className = "commitment";
    parts.push(seed, line);
  } else {
    more.append(element("span", " The seed is revealed when the game ends, so anyone " +
      "can check that nobody chose the cards."));
  }
  node.replaceChildren(...parts);
  node.hidden = false;
}
