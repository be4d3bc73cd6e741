// The table drawn in the page from a view (the "view" of a state message, the "table" of a
// public message, or a whole state): HTML that reflows to the window instead of a picture
// that shrinks.  Your seat is drawn last, at the bottom, the other seats above the build
// piles; a long discard pile shows its top cards and a count of those under them.  Every
// card that can be chosen is a <button> (keyboard and touch alike); every text is set as
// textContent, never parsed as HTML.
import { element } from "./net.js";

/** Cards of a discard pile shown fanned; those under them are folded into a count. */
export const FANNED = 5;

const SUIT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK = { 1: "A", 11: "J", 12: "Q", 13: "K" };
const RANK_NAME = { A: "ace", J: "jack", Q: "queen", K: "king" };

/** A card's text (`QS`, `10H`, `SB`, `7`, `*`) split into what is drawn on it. */
export function face(text) {
  const found = /^(A|K|Q|J|\d+)([SHDC])$/.exec(text);
  if (found) {
    return { corner: found[1] + SUIT[found[2]], centre: SUIT[found[2]],
             colour: found[2] === "H" || found[2] === "D" ? "red" : "black",
             words: `${RANK_NAME[found[1]] || found[1]} of ${SUIT_NAME[found[2]]}` };
  }
  if (text.startsWith("*")) return { corner: "\u2605", centre: "joker", colour: "wild", words: "joker" };
  return { corner: text, centre: text, colour: "blue", words: text === "SB" ? "wild card" : text };
}

/** The rank a build pile's top stands for, as it is written (`Q`, `10`, or `11` in a
 * numbered deck). */
function stands(pile, under) {
  const reached = under + pile.length;
  const suited = pile.some((card) => /[SHDC]$/.test(card) && !card.startsWith("*"));
  return suited ? (RANK[reached] || String(reached)) : String(reached);
}

function rankOf(text) {
  const found = /^(A|K|Q|J|\d+)[SHDC]?$/.exec(text);
  if (!found) return null;
  return { A: 1, J: 11, Q: 12, K: 13 }[found[1]] || Number(found[1]);
}

/** One card: `data-card`, `data-zone`, and its name for a screen reader; a <button> when
 * it can be chosen (`live`), else a plain box (a card under the top of its pile, or any
 * card on a page where nobody moves). */
export function card(text, zone, live = true) {
  const shown = face(text);
  const node = element(live ? "button" : "div", "", `card ${shown.colour}`);
  if (live) node.type = "button";
  else node.setAttribute("role", "img");
  node.dataset.card = text;
  node.dataset.zone = zone;
  node.setAttribute("aria-label", shown.words);
  node.append(element("span", shown.corner, "corner"), element("span", shown.centre, "centre"));
  return node;
}

function back(count, zone) {
  const node = element("div", "", "card-back");
  node.dataset.count = String(count);
  node.dataset.zone = zone;
  node.append(element("span", String(count), "centre"));
  node.setAttribute("aria-label", `${count} card${count === 1 ? "" : "s"} face down`);
  return node;
}

function slot(zone, label, live) {
  const node = element(live ? "button" : "div", "", "slot");
  if (live) node.type = "button";
  else node.setAttribute("role", "img");
  node.dataset.zone = zone;
  node.setAttribute("aria-label", label);
  return node;
}

function pileBox(zone, label, words) {
  const box = element("div", "", "pile");
  box.dataset.zone = zone;
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", words);
  box.append(element("span", label, "pile-label"));
  return box;
}

function payoff(seat, number, many, pile, live) {
  const zone = `seat${seat}-payoff${number}`;
  const name = many ? `Pay-off ${number}` : "Pay-off";
  const box = pileBox(zone, name, `${name.toLowerCase()}, ${pile.count} card(s)`);
  box.classList.add("payoff");
  box.append(pile.top === null ? slot(zone, "empty pay-off pile", live) : card(pile.top, zone, live));
  box.append(element("span", `${pile.count} left`, "count-badge"));
  return box;
}

function discard(seat, number, pile, live) {
  const zone = `seat${seat}-discard${number}`;
  const box = pileBox(zone, `D${number}`, `discard pile ${number}, ${pile.length} card(s)`);
  box.classList.add("discard");
  if (!pile.length) {
    box.append(slot(zone, `empty discard pile ${number}`, live));
    return box;
  }
  const hidden = Math.max(pile.length - FANNED, 0);
  if (hidden) {
    const more = element("span", `+${hidden}`, "folded");
    more.title = `${hidden} more under these: ${pile.slice(0, hidden).join(" ")}`;
    more.setAttribute("aria-label", `${hidden} more cards under these`);
    box.append(more);
  }
  const fan = element("div", "", "fan");
  const shown = pile.slice(hidden);
  shown.forEach((text, i) => fan.append(card(text, zone, live && i === shown.length - 1)));
  box.append(fan);
  return box;
}

function hand(seat, cards, count, live) {
  const zone = `seat${seat}-hand`;
  const box = pileBox(zone, `Hand (${count})`, `hand, ${count} card(s)`);
  box.classList.add("hand");
  const row = element("div", "", "hand-cards");
  if (cards) for (const text of cards) row.append(card(text, zone, live));
  else if (count) row.append(back(count, zone));
  box.append(row);
  return box;
}

/** The label of a seat: `Seat 1 · Bo · team 1+3 (you) — to play`. */
export function seatLabel(view, seat, names, me) {
  let label = `Seat ${seat}`;
  if (names[seat] !== undefined) label += ` \u00b7 ${names[seat]}`;
  for (const team of view.teams || []) {
    if (team.length > 1 && team.includes(seat)) label += ` \u00b7 team ${team.join("+")}`;
  }
  if (seat === me) label += " (you)";
  if (view.outcome === null && seat === view.seat) label += " \u2014 to play";
  return label;
}

function seatArea(view, seat, names, me, hands, live) {
  const public_ = view.seats[seat];
  const area = element("section", "", seat === me ? "seat-area mine" : "seat-area");
  area.dataset.seat = String(seat);
  if (view.outcome === null && seat === view.seat) area.classList.add("on-turn");
  const title = element("h3", "", "seat-label");
  title.append(element("bdi", seatLabel(view, seat, names, me)));
  area.append(title);
  const piles = element("div", "", "piles");
  const many = public_.payoff.length > 1;
  public_.payoff.forEach((pile, i) => piles.append(payoff(seat, i + 1, many, pile, live)));
  const discards = element("div", "", "discards");
  public_.discards.forEach((pile, i) => discards.append(discard(seat, i + 1, pile, live)));
  piles.append(discards, hand(seat, hands[seat], public_.hand_count, live));
  area.append(piles);
  return area;
}

function centre(view, newPile, live) {
  const area = element("section", "", "centre");
  const builds = element("div", "", "builds");
  const row = element("div", "", "build-row");
  const removed = view.build_removed || [];
  view.builds.forEach((pile, i) => {
    const zone = `build${i + 1}`;
    const rank = stands(pile, removed[i] || 0);
    const box = pileBox(zone, `B${i + 1}: ${rank}`, `build pile ${i + 1}, up to ${rank}`);
    box.classList.add("build");
    box.append(card(pile[pile.length - 1], zone, live));
    const top = rankOf(pile[pile.length - 1]);
    if (top !== (removed[i] || 0) + pile.length) box.append(element("span", "(wild)", "note"));
    if (removed[i]) box.append(element("span", `${removed[i]} recycled`, "note"));
    row.append(box);
  });
  if (newPile) {
    const box = pileBox("build-new", "new pile", "a new build pile");
    box.classList.add("build");
    box.append(slot("build-new", "a new build pile", live));
    row.append(box);
  }
  if (!view.builds.length && !newPile) row.append(element("span", "none open", "note"));
  builds.append(row);
  const counts = element("p", "", "counts");
  counts.append(element("span", `draw pile: ${view.draw_count}`),
                element("span", `completed: ${view.completed_count}`));
  area.append(builds, counts);
  return area;
}

/** Seats in the order they are drawn, top to bottom: the others from the one after `me`
 * round the table, then `me` (a spectator, `me` null, sees seat 0 at the bottom). */
export function seatOrder(count, me) {
  const bottom = me === null || me === undefined ? 0 : me;
  const order = [];
  for (let step = 1; step <= count; step++) order.push((bottom + step) % count);
  return order;
}

/**
 * Draw the table into `node`.
 * view: a seat's view (its "hand" face up), a spectator's public table (no hand), or a whole
 *   state (every seat's "hand").
 * names: the seats' names, in seat order; me: the seat at the bottom (null: a spectator);
 * newPile: draw the slot of a new build pile; live: the top cards and empty slots are
 * buttons (a seat's page), else nothing is (a spectator's or a replay).
 */
export function drawTable(node, view, { names = [], me = null, newPile = false, live = false } = {}) {
  const count = view.seats.length;
  const hands = {};
  view.seats.forEach((seat, i) => { if (Array.isArray(seat.hand)) hands[i] = seat.hand; });
  if (Array.isArray(view.hand) && view.viewer !== undefined && view.viewer !== null) {
    hands[view.viewer] = view.hand;
  }
  const order = seatOrder(count, me);
  const others = order.slice(0, -1).map((seat) => seatArea(view, seat, names, me, hands, live));
  const board = element("div", "", "board-table");
  const top = element("div", "", "others");
  top.append(...others);
  board.append(top, centre(view, newPile, live),
               seatArea(view, order[order.length - 1], names, me, hands, live));
  node.replaceChildren(board);
}

/** A zone in words: `your hand`, `Bo's discard pile 2`, `build pile 1`, `a new build pile`. */
export function zoneWords(zone, names, me) {
  if (zone === "build-new") return "a new build pile";
  let found = /^build(\d+)$/.exec(zone);
  if (found) return `build pile ${found[1]}`;
  found = /^seat(\d+)-(hand|payoff|discard)(\d*)$/.exec(zone);
  if (!found) return zone;
  const seat = Number(found[1]);
  const whose = seat === me ? "your" : `${names[seat] === undefined ? `seat ${seat}` : names[seat]}'s`;
  const what = { hand: "hand", payoff: "pay-off pile", discard: "discard pile" }[found[2]];
  const number = found[2] === "discard" || (found[2] === "payoff" && found[3] !== "1")
    ? ` ${found[3]}` : "";
  return `${whose} ${what}${number}`;
}

/** The cards a move's text moves (`P:9H>B1` → ["9H"]; `9H+9S>D2` → ["9H", "9S"]). */
export function movedCards(text) {
  const head = text.split(">")[0];
  return head.slice(head.indexOf(":") + 1).split("+").filter(Boolean);
}

/** A move in words: `plays 9♥ from your hand on build pile 2`. */
export function moveWords(move, names, me) {
  if (move.move === "pass" || !move.from) return "passes";
  const shown = movedCards(move.move).map((c) => face(c).corner).join(" and ");
  const target = move.to ? zoneWords(move.to, names, me) : "its build pile";
  const verb = move.to && move.to.includes("-discard") ? "discards" : "plays";
  const from = move.from.endsWith("-hand") && verb === "discards" ? ""
    : ` from ${zoneWords(move.from, names, me)}`;
  return `${verb} ${shown}${from} on ${target}`;
}

/** The whole position in sentences, for a screen reader (the situation on request). */
export function situation(view, names, me) {
  const lines = [];
  const name = (seat) => (seat === me ? "You" : names[seat] || `Seat ${seat}`);
  if (view.outcome) lines.push("The game is over.");
  else lines.push(view.seat === me ? "It is your turn." : `${name(view.seat)} is on turn.`);
  if (Array.isArray(view.hand) && me !== null) {
    lines.push(`Your hand: ${view.hand.map((c) => face(c).words).join(", ") || "empty"}.`);
  }
  const removed = view.build_removed || [];
  lines.push(view.builds.length
    ? `Build piles: ${view.builds.map((p, i) => `pile ${i + 1} up to ${stands(p, removed[i] || 0)}`).join("; ")}.`
    : "No build pile is open.");
  for (const seat of seatOrder(view.seats.length, me).reverse()) {
    const s = view.seats[seat];
    const payoffs = s.payoff.map((p) => (p.top === null ? "empty"
      : `${p.count} card(s), ${face(p.top).words} on top`)).join("; ");
    const discards = s.discards.map((p, i) => `D${i + 1} ${p.length
      ? `${p.length} card(s), ${face(p[p.length - 1]).words} on top` : "empty"}`).join("; ");
    lines.push(`${name(seat)}: pay-off ${payoffs}; discard piles ${discards}; ` +
               `${s.hand_count} card(s) in hand.`);
  }
  lines.push(`Draw pile ${view.draw_count}, completed ${view.completed_count}.`);
  return lines.join(" ");
}
