// The hub's pages: each board's card replaced as its events come (server-sent events).
// The server escapes every name in the card's HTML; moves are placed as text.
"use strict";
(function () {
  const one = document.querySelector(".one-board");
  const board = one ? one.dataset.board : null;
  const status = document.getElementById("connection");
  const source = new EventSource("/api/events" + (board ? "?board=" + board : ""));
  source.onopen = () => { status.textContent = "live"; status.className = "online"; };
  source.onerror = () => { status.textContent = "reconnecting…"; status.className = "offline"; };
  source.addEventListener("board", (e) => {
    const data = JSON.parse(e.data);
    let card = document.getElementById("board-" + data.board);
    if (!card) {
      if (board) return;
      card = document.createElement("article");
      card.className = "card";
      card.id = "board-" + data.board;
      const cards = Array.from(document.querySelectorAll("#round .card"));
      const after = cards.find((c) => Number(c.id.slice(6)) > data.board);
      document.getElementById("round").insertBefore(card, after || null);
    }
    // drawn again only when it changed: a card replaced between a click's press and release
    // loses the click (the round page's test missed its way to the board so)
    if (card.drawn !== data.html) {
      card.innerHTML = data.html;
      card.drawn = data.html;
    }
    const moves = document.getElementById("moves");
    if (board && moves) {
      moves.replaceChildren(...data.moves.map((m) => {
        const li = document.createElement("li");
        li.textContent = m;
        return li;
      }));
    }
  });
})();
