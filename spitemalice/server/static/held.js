// The seats this browser holds, kept in its localStorage (on this device only, never sent
// to the server but for the tables' ids): a person who closes the tab sits down again from
// the lobby without the link.
const KEY = "spitemalice.seats";
const MOST = 30;

/** Every seat held: {table, seat, token, name, ruleset, at}, the latest first. */
export function heldSeats() {
  try {
    const found = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(found) ? found.filter((s) => s && s.table && s.token) : [];
  } catch (error) {
    return [];  // storage off or unreadable: nothing remembered
  }
}

function store(seats) {
  try {
    localStorage.setItem(KEY, JSON.stringify(seats.slice(0, MOST)));
  } catch (error) {
    // storage full or off: the link is still the way back
  }
}

/** Remember a seat this browser sat at (the latest first, one entry per seat). */
export function rememberSeat(entry) {
  const others = heldSeats().filter((s) => !(s.table === entry.table && s.seat === entry.seat));
  store([{ ...entry, at: Date.now() }, ...others]);
}

/** Forget one seat. */
export function forgetSeat(table, seat) {
  store(heldSeats().filter((s) => !(s.table === table && s.seat === seat)));
}

/** The seat's link (the token in the fragment, which a browser never sends). */
export function seatLink(entry) {
  return `/table/${entry.table}#seat=${entry.seat}&token=${entry.token}`;
}
