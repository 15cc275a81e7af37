#!/usr/bin/env bash
# Installs everything the build needs and builds bin/companion. Idempotent:
# a second run only checks. Used by scripts/run.sh, scripts/test.sh and CI.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: OpenCV 4.6 for gocv, ALSA headers for sound, the cgo toolchain.
bash scripts/debian-packages.sh setup "about 80 s the first time" libopencv-dev libasound2-dev pkg-config g++

if ! command -v go >/dev/null 2>&1; then
	[ -x /usr/local/go/bin/go ] && export PATH="/usr/local/go/bin:$PATH"
fi
command -v go >/dev/null 2>&1 || { echo "setup: Go is not installed (see go.mod for the version)" >&2; exit 1; }

go mod download
mkdir -p bin
go build -ldflags "-X main.version=$(git describe --always --dirty 2>/dev/null || echo dev)" -o bin/companion ./cmd/companion
echo "setup: built bin/companion" >&2
