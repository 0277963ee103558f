// The report's only script: the failed-only filter, expand/collapse all, and the count of what shows.
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
  // A link to #attempt-N opens that attempt.
  function openTarget() {
    var t = location.hash && document.getElementById(location.hash.slice(1));
    if (t && t.tagName === 'DETAILS') t.open = true;
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  update();
})();
