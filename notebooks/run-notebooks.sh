#!/usr/bin/env bash
# Executes every notebook of notebooks/ with the Brokkr kernel through real Jupyter clients, then checks
# the executed copies (notebooks/out/), exports each to HTML, drives the kernel directly with
# jupyter_client, opens a ./brokkr report in headless Chromium (browser/run-report-test.sh), and the exported
# wiki notebook too (browser/notebook.test.mjs).
#
#   notebooks/run-notebooks.sh            all of it; the last line is "N passed, M failed"
#
# Needs Debian's Jupyter packages (jupyter-nbconvert, python3-nbclient, jupyter-client, python3-ipykernel);
# installs them with apt-get when they are missing and this user may, and says what to do when not.
# The kernelspec is installed into a temporary prefix (JUPYTER_PATH), never into the user's Jupyter.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
packages=(jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel)

have_jupyter() {
  local py
  for py in /usr/bin/python3 python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import nbclient, nbconvert, jupyter_client, zmq' >/dev/null 2>&1 \
        && command -v jupyter >/dev/null 2>&1 && jupyter nbconvert --version >/dev/null 2>&1; then
      PY="$py"
      return 0
    fi
  done
  return 1
}

if ! have_jupyter; then
  echo "run-notebooks: Jupyter packages missing; installing ${packages[*]} with apt-get" >&2
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "run-notebooks: no apt-get here: install Jupyter (nbconvert, nbclient, jupyter_client) yourself, e.g." >&2
    echo "  pip install nbconvert nbclient jupyter_client" >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
      echo "run-notebooks: not root and no password-less sudo; as root run:" >&2
      echo "  apt-get update && apt-get install -y ${packages[*]}" >&2
      exit 1
    fi
  fi
  if ! { $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${packages[@]}"; } >&2; then
    echo "run-notebooks: apt-get could not install ${packages[*]} (offline? see above)" >&2
    exit 1
  fi
  have_jupyter || { echo "run-notebooks: Jupyter still not usable after apt-get" >&2; exit 1; }
fi

"$root/brokkr" --help >/dev/null || { echo "run-notebooks: ./brokkr could not be built" >&2; exit 1; }
prefix="$(mktemp -d "${TMPDIR:-/tmp}/brokkr-kernelspec.XXXXXX")"
trap 'rm -rf "$prefix"' EXIT
"$root/brokkr" kernel install --prefix "$prefix" >&2 || { echo "run-notebooks: kernelspec install failed" >&2; exit 1; }
export JUPYTER_PATH="$prefix/share/jupyter"
export PYDEVD_DISABLE_FILE_VALIDATION=1

passed=0
failed=0
tally() {  # adds the "N passed, M failed" line of a checker's output
  local line
  line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -1)"
  if [ -z "$line" ]; then failed=$((failed + 1)); return; fi
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
}

log="$(mktemp)"
echo "== kernel protocol (jupyter_client)" >&2
"$PY" "$here/tests/kernel_client_test.py" 2>&1 | grep -v -E '^(Exception ignored in|Traceback|  File "/usr/lib|    |TypeError: .NoneType)' | tee "$log" >&2
tally "$log"

mkdir -p "$here/out"
rm -f "$here/out/"*.ipynb
rm -rf "$here/.brokkr/experiments"   # experiments resume; start them fresh so every run executes every cell
echo "== executing notebooks" >&2
for nb in "$here"/*.ipynb; do
  name="$(basename "$nb")"
  start=$(date +%s)
  if (cd "$here" && jupyter nbconvert --execute --to notebook --ExecutePreprocessor.kernel_name=brokkr \
        --ExecutePreprocessor.timeout=900 --output-dir "$here/out" "$nb") >"$log" 2>&1; then
    echo "executed $name in $(( $(date +%s) - start )) s" >&2
  else
    echo "FAIL executing $name:" >&2
    tail -30 "$log" >&2
  fi
done

echo "== checking executed notebooks" >&2
"$PY" "$here/tests/check_notebooks.py" "$here" 2>&1 | tee "$log" >&2
tally "$log"

# Every executed notebook must also export to HTML (what a reader shares or opens without Jupyter),
# e.g. nbconvert's lxml rejects an SVG output that carries an XML declaration.
echo "== exporting executed notebooks to HTML" >&2
mkdir -p "$here/out/html"
rm -f "$here/out/html/"*.html
for nb in "$here"/*.ipynb; do
  name="$(basename "$nb" .ipynb)"
  if [ ! -f "$here/out/$name.ipynb" ]; then
    echo "FAIL export $name to HTML: not executed" >&2
    failed=$((failed + 1))
  elif jupyter nbconvert --to html --output-dir "$here/out/html" "$here/out/$name.ipynb" >"$log" 2>&1 \
      && [ -s "$here/out/html/$name.html" ]; then
    echo "PASS export $name to HTML ($(wc -c <"$here/out/html/$name.html") bytes)" >&2
    passed=$((passed + 1))
  else
    echo "FAIL export $name to HTML:" >&2
    tail -5 "$log" >&2
    failed=$((failed + 1))
  fi
done

# What the exported pages show: every chart a picture (an <img> or an SVG with drawing elements), never the
# empty box nbconvert 6.5's sanitizer leaves of an SVG-only chart.
echo "== charts in the exported HTML" >&2
"$PY" "$here/tests/check_html_charts.py" "$here" 2>&1 | tee "$log" >&2
tally "$log"

echo "== shareable report in headless Chromium" >&2
"$root/browser/run-report-test.sh" 2>&1 | tee "$log" >&2
tally "$log"

# The exported wiki notebook as a reader opens it (run-report-test.sh above installed Chromium and playwright-core
# when it could): its calibration table, the reference run's rendered pages, a link and a citation clicked.
echo "== exported wiki notebook in headless Chromium" >&2
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$chromium" ] || [ ! -f "$root/browser/node_modules/playwright-core/package.json" ]; then
  echo "SKIP wiki notebook in Chromium: no chromium or playwright-core (see the report test above)" >&2
elif [ ! -f "$here/out/html/wiki.html" ]; then
  echo "FAIL wiki notebook in Chromium: out/html/wiki.html was not exported" >&2
  failed=$((failed + 1))
else
  (cd "$root/browser" && CHROMIUM="$chromium" node notebook.test.mjs "$here/out/html/wiki.html" "$here/out") 2>&1 | tee "$log" >&2
  tally "$log"
fi
rm -f "$log"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
