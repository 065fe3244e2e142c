#!/bin/sh
# Builds the image the run_code tests use, without any registry: the busybox test image
# (scripts/build-test-image.sh) plus this machine's python3 and node, with the shared libraries
# they load and Python's standard library, added with `docker cp` + `docker commit`.
# (The user-facing image, resources/sandbox/Dockerfile, installs python3 and nodejs from Debian.)
#
#   scripts/build-code-test-image.sh [image]     default image: deskclaw/test-sandbox:code
#
# Idempotent: does nothing when the image already exists. Needs: docker, busybox-static,
# /usr/bin/python3 and node on the host.
set -eu

IMAGE="${1:-deskclaw/test-sandbox:code}"
BASE="deskclaw/test-sandbox:busybox"
DOCKER="${DOCKER:-docker}"
HERE="$(cd "$(dirname "$0")" && pwd)"

if "$DOCKER" image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "$IMAGE already exists"
  exit 0
fi
sh "$HERE/build-test-image.sh" "$BASE" >/dev/null

PYTHON="$(readlink -f /usr/bin/python3)"
NODE="$(readlink -f "$(command -v node)")"
for bin in "$PYTHON" "$NODE"; do
  [ -x "$bin" ] || { echo "error: $bin not found" >&2; exit 1; }
done
PYLIB="/usr/lib/$(basename "$PYTHON")"
[ -f "$PYLIB/os.py" ] || { echo "error: Python's standard library is not at $PYLIB" >&2; exit 1; }

ROOTFS="$(mktemp -d "${TMPDIR:-/tmp}/deskclaw-code-rootfs.XXXXXX")"
CONTAINER=""
cleanup() {
  rm -rf "$ROOTFS"
  [ -z "$CONTAINER" ] || "$DOCKER" rm -f "$CONTAINER" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# A file at its own path inside the rootfs (symlinks followed, so the target is what lands).
put() {
  mkdir -p "$ROOTFS$(dirname "$1")"
  cp -L "$1" "$ROOTFS$1"
}

put "$PYTHON"
put "$NODE"
ln -sf "$(basename "$PYTHON")" "$ROOTFS/usr/bin/python3"
[ "$NODE" = /usr/bin/node ] || { mkdir -p "$ROOTFS/usr/bin"; ln -sf "$NODE" "$ROOTFS/usr/bin/node"; }
# The standard library without its own tests, GUI and installer parts.
mkdir -p "$ROOTFS$PYLIB"
tar -C "$PYLIB" --exclude=./test --exclude=./idlelib --exclude=./tkinter --exclude=./ensurepip \
  --exclude=./site-packages --exclude=./dist-packages -c . | tar -C "$ROOTFS$PYLIB" -x
# Every shared library the interpreters and Python's extension modules load.
{ ldd "$PYTHON"; ldd "$NODE"; find "$PYLIB/lib-dynload" -name '*.so' -exec ldd {} \; ; } 2>/dev/null |
  sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' | sort -u |
  while read -r lib; do put "$lib"; done

CONTAINER="$("$DOCKER" create "$BASE" /bin/true)"
tar -C "$ROOTFS" --numeric-owner -c . | "$DOCKER" cp - "$CONTAINER:/"
"$DOCKER" commit "$CONTAINER" "$IMAGE" >/dev/null
echo "built $IMAGE"
