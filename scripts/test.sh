#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it (.ci/run calls this).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -x /usr/local/go/bin/go ] && export PATH="/usr/local/go/bin:$PATH"

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "test: gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
go test -count=1 -timeout 40m ./...
# The Mat leak check: every gocv Mat the vision code makes must be closed.
go test -count=1 -timeout 20m -tags matprofile ./vision/...
