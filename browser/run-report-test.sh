#!/usr/bin/env bash
# Opens a real ./brokkr report in headless Chromium and checks it as a reader uses it (report.test.mjs):
# it opens with no network and no script errors, "failed only" hides what passed, a transcript expands, a priced
# experiment's score-against-cost chart shows its Pareto front, and a wiki experiment's pages render with their
# links and citations jumping inside the report and a hostile page's markup inert; screenshots go to browser/out/.
# The main experiment is tau2 retail's gold and stop-at-once candidates on four tasks, so the report has passes,
# failures, tool calls and JSON results.
#
# Needs Debian's chromium and Node (installed with apt-get when missing and this user may) and
# playwright-core (npm ci from package-lock.json; it drives the system chromium, no browser download).
# The last line is "N passed, M failed". Only when the browser truly cannot be installed it says SKIP
# loudly (and counts nothing).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

skip() {
  echo "SKIP browser report test: $*" >&2
  echo "SKIP browser report test: $*"
  echo "0 passed, 0 failed"
  exit 0
}

apt_install() {  # apt_install PACKAGE...: as root or with password-less sudo
  local sudo=""
  command -v apt-get >/dev/null 2>&1 || return 1
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else return 1; fi
  fi
  echo "run-report-test: installing $* with apt-get" >&2
  { $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$@"; } >&2
}

chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$chromium" ]; then
  apt_install chromium || skip "chromium is not installed and apt-get could not install it (as root: apt-get install -y chromium)"
  chromium="$(command -v chromium || true)"
  [ -n "$chromium" ] || skip "chromium still missing after apt-get"
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  apt_install nodejs npm || { echo "FAIL report: Node and npm are missing and apt-get could not install them"; echo "0 passed, 1 failed"; exit 1; }
fi
if [ ! -f "$here/node_modules/playwright-core/package.json" ]; then
  echo "run-report-test: npm ci (playwright-core)" >&2
  (cd "$here" && npm ci --no-audit --no-fund >&2) || { echo "FAIL report: npm ci could not install playwright-core"; echo "0 passed, 1 failed"; exit 1; }
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/brokkr-report.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cat > "$work/exp.yaml" <<'YAML'
name: retail-report
domain: tau2-retail
tasks: ["0", "5", "12", "62"]
candidates:
  - {id: gold, provider: scripted, model: gold}
  - {id: stop-at-once, provider: scripted, model: stop}
repetitions: 2
YAML
if ! "$root/brokkr" experiment run "$work/exp.yaml" --dir "$work/run" --no-progress >"$work/run.log" 2>&1; then
  echo "FAIL report: the experiment did not run:"; tail -20 "$work/run.log"; echo "0 passed, 1 failed"; exit 1
fi
if ! "$root/brokkr" report "$work/run" --out "$work/report.html" >&2; then
  echo "FAIL report: ./brokkr report failed"; echo "0 passed, 1 failed"; exit 1
fi

# A priced experiment for the score-against-cost chart: three OpenAI-wire candidates on a loopback stand-in
# (fake-openai-server.py: no network, no key) over four BFCL tasks, at the experiment file's prices: caller
# (cheapest, scores 0) and mute (0.5) are the Pareto front, mute-pricey (0.5 at ten times mute's cost) is not.
python3 "$here/fake-openai-server.py" >"$work/port" 2>"$work/server.log" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port="$(head -1 "$work/port")"
[ -n "$port" ] || { echo "FAIL report: the loopback model server did not start:"; cat "$work/server.log"; echo "0 passed, 1 failed"; exit 1; }
cat > "$work/cost.yaml" <<'YAML'
name: bfcl-cost
domain: bfcl
split: simple_python,irrelevance:sample=2
candidates:
  - {id: caller, provider: openai, model: caller}
  - {id: mute, provider: openai, model: mute}
  - {id: mute-pricey, provider: openai, model: mute-pricey}
prices:
  "openai:caller": {input: 2, output: 8}
  "openai:mute": {input: 2, output: 8}
  "openai:mute-pricey": {input: 2, output: 8}
YAML
if ! env -u OPENAI_API_KEY OPENAI_BASE_URL="http://127.0.0.1:$port/v1" \
    "$root/brokkr" experiment run "$work/cost.yaml" --dir "$work/cost" --no-progress >"$work/cost.log" 2>&1; then
  echo "FAIL report: the priced experiment did not run:"; tail -20 "$work/cost.log"; echo "0 passed, 1 failed"; exit 1
fi
# A wiki experiment: the scripted reference wiki, and wiki-vandal's hostile pages from the same loopback stand-in.
cat > "$work/wiki.yaml" <<'YAML'
name: wiki-report
domain: wiki
split: public
candidates:
  - {id: reference, provider: scripted, model: reference}
  - {id: vandal, provider: openai, model: wiki-vandal}
YAML
if ! env -u OPENAI_API_KEY OPENAI_BASE_URL="http://127.0.0.1:$port/v1" \
    "$root/brokkr" experiment run "$work/wiki.yaml" --dir "$work/wiki" --no-progress >"$work/wiki.log" 2>&1; then
  echo "FAIL report: the wiki experiment did not run:"; tail -20 "$work/wiki.log"; echo "0 passed, 1 failed"; exit 1
fi
kill "$server" 2>/dev/null
if ! "$root/brokkr" report "$work/cost" --out "$work/cost.html" >&2; then
  echo "FAIL report: ./brokkr report of the priced experiment failed"; echo "0 passed, 1 failed"; exit 1
fi
if ! "$root/brokkr" report "$work/wiki" --out "$work/wiki.html" >&2; then
  echo "FAIL report: ./brokkr report of the wiki experiment failed"; echo "0 passed, 1 failed"; exit 1
fi
mkdir -p "$here/out"
cp "$work/report.html" "$here/out/report.html"
cp "$work/cost.html" "$here/out/report-cost.html"
cp "$work/wiki.html" "$here/out/report-wiki.html"
CHROMIUM="$chromium" node "$here/report.test.mjs" "$here/out/report.html" "$here/out" "$here/out/report-cost.html" \
  "$here/out/report-wiki.html"
