/* Calculator pages, when JavaScript runs: a player's name shows at once in the card headings and
   labels, and the score pad's totals follow the input. Without JavaScript the pages work as
   plain forms (the totals come with the submitted result). Where the page carries the engine's
   rule table (data-rules), the totals are computed here from it (static/score-rules.js), with or
   without a network; otherwise the form is sent to the page itself, exactly as a submit would,
   and the server's totals are shown. */
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

  const rules = form.dataset.rules && window.ScorePad ? JSON.parse(form.dataset.rules) : null;

  // Each card's total from the rule table; "–" for a card the server would refuse.
  const localTotals = (outputs) => {
    const first = (form.querySelector('input[name="first"]:checked') || {}).value || "";
    outputs.forEach((output) => {
      const row = output.dataset.total;
      const name = (form.elements[`name${row}`] || {}).value || "";
      const districts = [];
      let valid = name.trim() !== "";
      for (const colour of rules.colours) {
        const field = form.elements[`${colour}${row}`];
        const values = field ? window.ScorePad.costs(field.value, rules) : [];
        if (values === null) valid = false;
        else values.forEach((cost) => districts.push({color: colour, cost}));
      }
      let text = "–";
      if (valid) {
        try {
          const result = window.ScorePad.score(rules, [{name: name.trim(), districts}], first === row ? name.trim() : null);
          text = form.dataset.points.replace("12345", String(result.scores[name.trim()].total));
        } catch (error) { /* the server would refuse it too: no total */ }
      }
      output.textContent = text;
    });
  };

  let timer = null;
  let sent = 0;
  const refreshTotals = async () => {
    const outputs = form.querySelectorAll("output[data-total]");
    if (!outputs.length) return;
    if (rules) {
      localTotals(outputs);
      return;
    }
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
