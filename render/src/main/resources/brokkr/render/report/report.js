// The report's only script: the failed-only filter, expand/collapse all, the count of what shows, and jumps to
// what a link names (an attempt, a file an attempt left, a source).
(function () {
  var box = document.getElementById('failed-only');
  var attempts = document.querySelectorAll('details.attempt');
  var shown = document.getElementById('shown');
  function update() {
    document.body.classList.toggle('failed-only', box.checked);
    var n = 0;
    attempts.forEach(function (a) { if (!box.checked || a.getAttribute('data-passed') !== '1') n++; });
    shown.textContent = 'showing ' + n + ' of ' + attempts.length + ' attempts';
  }
  function openAll(open) {
    attempts.forEach(function (a) { if (!box.checked || a.getAttribute('data-passed') !== '1') a.open = open; });
  }
  box.addEventListener('change', update);
  document.getElementById('expand-all').addEventListener('click', function () { openAll(true); });
  document.getElementById('collapse-all').addEventListener('click', function () { openAll(false); });
  // A link to #attempt-N opens that attempt; a link to a file (a wiki page, a cited source) opens every fold
  // around it first, so that the jump lands on it.
  function reveal(id) {
    var t = id && document.getElementById(id);
    if (!t) return null;
    if (t.tagName === 'DETAILS') t.open = true;
    for (var p = t.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    return t;
  }
  function openTarget() { reveal(decodeURIComponent(location.hash.slice(1))); }
  document.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a[href^="#"]');
    if (!a) return;
    var t = reveal(decodeURIComponent(a.getAttribute('href').slice(1)));
    // the same link clicked again changes no hash: scroll to it all the same
    if (t && location.hash === a.getAttribute('href')) { e.preventDefault(); t.scrollIntoView(); }
  });
  window.addEventListener('hashchange', openTarget);
  openTarget();
  update();
})();
