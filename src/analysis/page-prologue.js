/* page-prologue.js - the start of the script of trax's pages (timeline-page.html,
   html-page.html; put in place of the TRAX-PROLOGUE comment by embed-page.cmake):
   script errors shown on the page and counted in the status element's data-errors
   (the tests read both). */
"use strict";
var T0 = performance.now();
var errorsEl = document.getElementById("errors");
var errorCount = 0;
function reportError(msg) {
  errorCount++;
  errorsEl.textContent += "script error: " + msg + "\n";
  var st = document.getElementById("status");
  if (st) st.setAttribute("data-errors", String(errorCount));
}
window.onerror = function (msg, src, line, col) { reportError(msg + " (line " + line + ":" + col + ")"); return false; };
