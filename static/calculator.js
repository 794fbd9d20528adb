/* Calculator pages, when JavaScript runs: a player's name shows at once in the card headings and
   labels, and the score pad's totals follow the input. Without JavaScript the pages work as
   plain forms (the totals come with the submitted result). The totals are not computed here: the
   form is sent to the page itself, exactly as a submit would, and the server's totals are shown,
   so the rules live in one place. */
(() => {
  "use strict";

  const form = document.querySelector("form.calc");
  if (!form) return;

  const showName = (input) => {
    const row = input.name.slice(4);
    const name = input.value.trim();
    document.querySelectorAll(`[data-name-of="${row}"]`).forEach((el) => {
      el.textContent = name || el.dataset.default;
    });
    // Fields per player (a land's counts): once someone is named, only named players' fields show.
    const rows = form.querySelectorAll("[data-row]");
    if (!rows.length) return;
    const named = new Set(
      [...form.querySelectorAll('input[name^="name"]')].filter((el) => el.value.trim()).map((el) => el.name.slice(4)));
    rows.forEach((el) => {
      const filled = [...el.querySelectorAll("input")].some((field) => field.value.trim());
      el.hidden = named.size > 0 && !named.has(el.dataset.row) && !filled;
    });
  };

  let timer = null;
  let sent = 0;
  const refreshTotals = async () => {
    const outputs = form.querySelectorAll("output[data-total]");
    if (!outputs.length) return;
    const query = new URLSearchParams(new FormData(form));
    query.set("submit", "1");
    const ticket = ++sent;
    try {
      const response = await fetch(`${location.pathname}?${query}`, { headers: { Accept: "text/html" } });
      if (ticket !== sent) return; // a newer request is on its way
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      outputs.forEach((output) => {
        const fresh = page.querySelector(`output[data-total="${output.dataset.total}"]`);
        output.textContent = fresh ? fresh.textContent : "–";
      });
    } catch (error) {
      // Offline or refused: the totals stay as they are until the form is submitted.
    }
  };

  form.addEventListener("input", (event) => {
    if (/^name\d+$/.test(event.target.name || "")) showName(event.target);
    if (form.hasAttribute("data-live")) {
      clearTimeout(timer);
      timer = setTimeout(refreshTotals, 300);
    }
  });
})();
