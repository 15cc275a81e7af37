#!/usr/bin/env bash
# Sets up and runs the companion on its embedded default: the six-scenario
# campaign, played in this terminal with a virtual die. Extra arguments go
# to `companion play`; a game left unfinished is resumed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec bin/companion play --manual --virtual-die --resume "$@"
