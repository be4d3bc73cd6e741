// The protocol's WebSocket, shared by the lobby and the table pages.
// Every message is one JSON object with a "type" (spitemalice schema message).

/** Open the server's WebSocket; `onMessage(message)` gets each parsed message, and
 * `onClose(reason)` the reason the server gave for closing it ("" when it gave none).
 * A site of several server processes may answer "moved" (the table is another process's):
 * the socket is then opened again at the address it names, and `onOpen` sends the message
 * again there (a few times at most). */
export function connect(onMessage, onOpen, onClose) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let socket = null;
  let hops = 0;
  const open = (url) => {
    socket = new WebSocket(url);
    socket.addEventListener("open", () => onOpen(socket));
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "moved" && hops < 3) {
        hops += 1;
        const old = socket;
        open(new URL(message.socket, `${scheme}//${location.host}/`).href);
        old.close();
        return;
      }
      onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (event.target === socket && onClose) onClose(event.reason || "");
    });
  };
  open(`${scheme}//${location.host}/ws`);
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
