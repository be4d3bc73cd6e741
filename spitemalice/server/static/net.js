// The protocol's WebSocket, shared by the lobby and the table pages.
// Every message is one JSON object with a "type" (spitemalice schema message).

/** Open the server's WebSocket; `onMessage(message)` gets each parsed message, and
 * `onClose(reason)` the reason the server gave for closing it ("" when it gave none). */
export function connect(onMessage, onOpen, onClose) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws`);
  socket.addEventListener("open", () => onOpen(socket));
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => onClose && onClose(event.reason || ""));
  return {
    send(message) { socket.send(JSON.stringify(message)); },
    get open() { return socket.readyState === WebSocket.OPEN; },
  };
}

/** A new element with text (always textContent: names typed by people stay text). */
export function element(tag, text = "", className = "") {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}
