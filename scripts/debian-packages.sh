#!/usr/bin/env bash
# Installs those of the given Debian packages that are missing (apt, with
# sudo when not root). Used by setup.sh, train-cornernet.sh and
# train-patchnet.sh.
#
#   scripts/debian-packages.sh WHO HOW_LONG PACKAGE...
#
# WHO names the caller in the message, HOW_LONG says how long it takes.
set -euo pipefail
who=$1 how_long=$2
shift 2
missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "$who: installing ${missing[*]} ($how_long)" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
