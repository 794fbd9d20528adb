/* Copy buttons: the share field's link, and on an answer page the answer as a quote (plain text
   for chats, Markdown for Discord, forums and BoardGameGeek). A button says "Copied" for a
   moment, then offers itself again. Without JavaScript (or without a clipboard) the read-only
   field stays as it is. The buttons' words come from the script tag's data attributes, in the
   reader's language. */
(() => {
  "use strict";

  const words = document.currentScript ? document.currentScript.dataset : {};
  const RESET_MS = 2000;
  if (!navigator.clipboard || !words.copy) return;

  function copyButton(label, text, onRefused) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = label;
    button.setAttribute("aria-live", "polite");
    let timer = null;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(text());
        button.textContent = words.copied;
        clearTimeout(timer);
        timer = setTimeout(() => { button.textContent = label; }, RESET_MS);
      } catch (error) {
        if (onRefused) onRefused();
      }
    });
    return button;
  }

  const field = document.getElementById("link");
  if (field) {
    // Clipboard refused (permissions): select the text so the reader can copy it by hand.
    field.after(copyButton(words.copy, () => field.value, () => { field.focus(); field.select(); }));
  }

  const share = document.getElementById("share");
  if (share && share.dataset.quoteText && words.quote) {
    const row = document.createElement("p");
    row.className = "quote-buttons";
    row.append(copyButton(words.quote, () => share.dataset.quoteText),
               " ", copyButton(words.markdown, () => share.dataset.quoteMarkdown));
    share.append(row);
  }
})();
