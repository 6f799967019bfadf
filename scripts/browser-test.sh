#!/usr/bin/env bash
# Drives `zero serve`'s page in headless Chromium: `scripts/browser-test.sh URL [SECOND_URL]`. Installs Debian's chromium
# with apt-get when it is missing (idempotent: nothing happens once it is there). Fails, never skips, when no
# browser can be had. Prints the driver's JSON report on stdout.
set -euo pipefail
url="${1:?usage: scripts/browser-test.sh URL [SECOND_URL]}"
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v chromium >/dev/null 2>&1; then
    echo "browser-test: installing chromium with apt-get" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get install -y --no-install-recommends chromium >&2 \
        || { $sudo apt-get update >&2 && $sudo apt-get install -y --no-install-recommends chromium >&2; } \
        || { echo "browser-test: chromium could not be installed" >&2; exit 1; }
fi
python="${ZERO_VENV_PYTHON:-python3}"
exec "$python" "$here/browser_drive.py" "$@"
