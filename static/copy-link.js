/* The answer page's share field gets a copy button. Without JavaScript (or without a clipboard)
   the read-only field stays as it is. The button's words come from the script tag's data
   attributes, in the reader's language. */
(() => {
  "use strict";

  const words = document.currentScript ? document.currentScript.dataset : {};
  const field = document.getElementById("link");
  if (!field || !navigator.clipboard || !words.copy) return;

  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = words.copy;
  button.setAttribute("aria-live", "polite");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = words.copied;
    } catch (error) {
      // Clipboard refused (permissions): select the text so the reader can copy it by hand.
      field.focus();
      field.select();
    }
  });
  field.after(button);
})();
