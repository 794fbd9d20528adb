/* A form sent back with problems: focus goes to the summary of them at the top, so it is on the
   first screen of a phone and a screen reader reads it out. */
(() => {
  "use strict";
  const summary = document.getElementById("error-summary");
  if (!summary) return;
  summary.focus();
  if (summary.scrollIntoView) summary.scrollIntoView({block: "start"});
})();
