// A page's Print button (the site's CSP allows no inline script): prints the page as its
// print styles lay it out.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});
