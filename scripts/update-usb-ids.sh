#!/bin/sh
# Refreshes resources/usb-ids/usb.ids (the names src/main/devices/usb-ids.ts reads) from
# linux-usb.org, or from a local copy given as the first argument (e.g. /usr/share/misc/usb.ids),
# checks that it is a usb.ids file, and updates the Version line of resources/usb-ids/README.md.
#
#   sh scripts/update-usb-ids.sh                          # download http://www.linux-usb.org/usb.ids
#   sh scripts/update-usb-ids.sh /usr/share/misc/usb.ids  # copy a local file
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
target="$here/resources/usb-ids/usb.ids"
readme="$here/resources/usb-ids/README.md"
url="http://www.linux-usb.org/usb.ids"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT INT TERM

if [ $# -ge 1 ]; then
  cp "$1" "$tmp"
  source_name="$1"
elif command -v curl >/dev/null 2>&1; then
  curl -fsSL --max-time 120 -o "$tmp" "$url"
  source_name="$url"
elif command -v wget >/dev/null 2>&1; then
  wget -q -T 120 -O "$tmp" "$url"
  source_name="$url"
else
  echo "update-usb-ids: neither curl nor wget is installed; pass a local usb.ids as the argument" >&2
  exit 1
fi

# It must look like usb.ids: the header, a Version line, thousands of vendor lines, the class section.
if ! head -n 20 "$tmp" | grep -q '^#[[:space:]]*List of USB ID'; then
  echo "update-usb-ids: $source_name has no '# List of USB ID's' header: not a usb.ids file" >&2
  exit 1
fi
version=$(sed -n 's/^# Version:[[:space:]]*//p' "$tmp" | head -n 1)
date=$(sed -n 's/^# Date:[[:space:]]*//p' "$tmp" | head -n 1)
if [ -z "$version" ]; then
  echo "update-usb-ids: $source_name has no '# Version:' line" >&2
  exit 1
fi
vendors=$(grep -c '^[0-9a-f][0-9a-f][0-9a-f][0-9a-f]  ' "$tmp" || true)
if [ "$vendors" -lt 2000 ]; then
  echo "update-usb-ids: $source_name has only $vendors vendor lines (expected thousands): truncated?" >&2
  exit 1
fi
if ! grep -q '^C 00  ' "$tmp"; then
  echo "update-usb-ids: $source_name has no device class section (C 00): truncated?" >&2
  exit 1
fi

cp "$tmp" "$target"
chmod 644 "$target"
line="Version: $version${date:+ (Date: $date)}"
if grep -q '^Version: ' "$readme"; then
  sed "s|^Version: .*|$line|" "$readme" >"$tmp"
  cat "$tmp" >"$readme"
else
  printf '\n%s\n' "$line" >>"$readme"
fi
echo "usb.ids $version: $vendors vendors → resources/usb-ids/usb.ids (from $source_name)"
