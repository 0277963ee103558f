#!/usr/bin/env bash
# Installs the pinned Claude Code CLI (@anthropic-ai/claude-code, the version package.json and package-lock.json
# pin) into tools/claude-code/node_modules/, where brokkr.provider.claudecode.ClaudeCli finds it. The package ships
# a native binary per platform as an optional dependency, so no install script has to download anything
# (its postinstall links that binary in place of the stub). Nothing is done when the pinned
# version is there already.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
want="$(sed -n 's/.*"@anthropic-ai\/claude-code": *"\([^"]*\)".*/\1/p' "$here/package.json")"
bin="$here/node_modules/.bin/claude"
if [ -x "$bin" ] && [ "$("$bin" --version 2>/dev/null | cut -d' ' -f1)" = "$want" ]; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "tools/claude-code/install.sh: npm is not installed (apt-get install npm)" >&2
  exit 1
fi
cd "$here"
npm ci --no-audit --no-fund --loglevel=error >&2
got="$("$bin" --version | cut -d' ' -f1)"
if [ "$got" != "$want" ]; then
  echo "tools/claude-code/install.sh: installed claude reports $got, not the pinned $want" >&2
  exit 1
fi
echo "Claude Code $got installed in tools/claude-code/node_modules" >&2
