#!/usr/bin/env bash
# Install the system Chromium that tests/test_serve_browser.py drives through Playwright.
# Idempotent: does nothing when /usr/bin/chromium exists. Playwright's own browser download
# (`playwright install`) is never used. Needs root (or sudo) and apt-get (Debian/Ubuntu).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    echo "install_browser: /usr/bin/chromium present ($(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown'))"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
if ! command -v apt-get >/dev/null; then
    echo "install_browser: no apt-get here; install Chromium at /usr/bin/chromium by hand" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium
echo "install_browser: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
