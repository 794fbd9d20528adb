/* Calculator pages, when JavaScript runs: a player's name shows at once in the card headings and
   labels, and the page's outputs (a player's total, place or share) follow the input. The outputs
   are computed here, with or without a network, from the rule table the game's engine exports
   (the form's data-rules) by the game's script (static/calculators/<game>.js), which also says
   what each output shows. Without JavaScript the pages work as plain forms (the outputs come with
   the submitted result). In the static export there is no server to submit to: the outputs are
   the result. */
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

  // "%(points)d points" with {points: 12}: the server's message with its placeholders filled. A
  // plural message comes as [one, other]; de, en and it use "one" for 1 only.
  const say = (messages) => (key, values = {}) => {
    const message = messages[key];
    const pattern = Array.isArray(message) ? message[values.num === 1 ? 0 : 1] : message;
    return pattern.replace(/%\((\w+)\)[sd]/g, (_, name) => String(values[name]));
  };

  // The form's fields as the server reads them (rules_index/web/calculator_forms.py).
  const reader = (nameRule) => {
    const needed = new RegExp(nameRule.needed);
    const refused = new RegExp(nameRule.refused);
    const value = (name) => {
      const field = form.elements[name];
      return field ? field.value : "";
    };
    return {
      value,
      form: JSON.parse(form.dataset.form || "{}"),  // the form's own constants (a year's reference)
      rows: form.querySelectorAll('input[name^="name"]').length,
      // A player's name: "" when the row is empty, null when the server would refuse it.
      name: (row) => {
        const name = value(`name${row}`).trim();
        if (!name) return "";
        return [...name].length <= nameRule.max && needed.test(name) && !refused.test(name) ? name : null;
      },
      whole: (text) => (/^[0-9]{1,9}$/.test(text) ? Number(text) : null),
    };
  };

  const calculator = window.Calculators && window.Calculators[form.dataset.calculator];
  const rules = calculator ? JSON.parse(form.dataset.rules) : null;
  const read = calculator ? reader(JSON.parse(form.dataset.names)) : null;
  const text = calculator ? say(JSON.parse(form.dataset.messages)) : null;
  const refresh = () => {
    if (!calculator) return;
    const texts = calculator.outputs(rules, read, text);
    form.querySelectorAll("output[data-out]").forEach((output) => {
      const text = texts[output.dataset.out];
      output.textContent = text || (output.dataset.empty === undefined ? "–" : output.dataset.empty);
    });
  };

  // A shared result's link opened where no server answers it (offline, the page kept without
  // its query): the fields come from the address, and the outputs follow them.
  const fillFromAddress = () => {
    for (const [name, value] of new URLSearchParams(window.location.search)) {
      const field = form.elements[name];
      if (!field || !value) continue;
      if (field instanceof RadioNodeList) {
        if (![...field].some((el) => el.checked)) [...field].filter((el) => el.value === value).forEach((el) => { el.checked = true; });
      } else if (field.type === "checkbox" || field.type === "radio") {
        if (!field.checked && field.value === value) field.checked = true;
      } else if (!field.value) {
        field.value = value;
        if (/^name\d+$/.test(name)) showName(field);
      }
    }
  };

  form.addEventListener("input", (event) => {
    if (/^name\d+$/.test(event.target.name || "")) showName(event.target);
    refresh();
  });
  // A page restored from the history, or reloaded, keeps what was typed: its outputs follow it.
  window.addEventListener("pageshow", () => { fillFromAddress(); refresh(); });
  // The export has no server, nor has the installed site without a network (the outputs are the
  // result there): Enter in a field must not reload the page with the fields emptied.
  form.addEventListener("submit", (event) => {
    if (form.hasAttribute("data-static") || !navigator.onLine) event.preventDefault();
  });
})();
