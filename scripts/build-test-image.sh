#!/bin/sh
# Builds the image the runtime tests use, without any registry: a rootfs holding only a static
# busybox (from Debian's busybox-static) and its applet links, imported with `docker import`.
#
#   scripts/build-test-image.sh [image]        default image: deskclaw/test-sandbox:busybox
#
# Idempotent: does nothing when the image already exists. Needs: docker, /bin/busybox (static).
set -eu

IMAGE="${1:-deskclaw/test-sandbox:busybox}"
BUSYBOX="${BUSYBOX:-/bin/busybox}"
DOCKER="${DOCKER:-docker}"

if "$DOCKER" image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "$IMAGE already exists"
  exit 0
fi

if [ ! -x "$BUSYBOX" ]; then
  echo "error: $BUSYBOX not found; install it with: apt-get install busybox-static" >&2
  exit 1
fi
# A dynamically linked busybox would need the host's libc inside the image.
if command -v file >/dev/null 2>&1 && ! file -L "$BUSYBOX" | grep -q 'statically linked'; then
  echo "error: $BUSYBOX is not statically linked; install busybox-static" >&2
  exit 1
fi

ROOTFS="$(mktemp -d "${TMPDIR:-/tmp}/deskclaw-test-rootfs.XXXXXX")"
trap 'rm -rf "$ROOTFS"' EXIT

mkdir -p "$ROOTFS/bin" "$ROOTFS/sbin" "$ROOTFS/usr/bin" "$ROOTFS/usr/sbin" \
  "$ROOTFS/etc" "$ROOTFS/tmp" "$ROOTFS/root" "$ROOTFS/home/sandbox" "$ROOTFS/proc" "$ROOTFS/dev" "$ROOTFS/sys"
chmod 1777 "$ROOTFS/tmp"
cp "$BUSYBOX" "$ROOTFS/bin/busybox"
# Every applet at its usual path (bin/sh, usr/bin/wget, …), as `busybox --install -s` would do
# inside a chroot, but without needing root.
"$BUSYBOX" --list-full | while read -r applet; do
  [ -e "$ROOTFS/$applet" ] || ln -s /bin/busybox "$ROOTFS/$applet"
done

cat > "$ROOTFS/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
sandbox:x:1000:1000:sandbox:/home/sandbox:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PASSWD
cat > "$ROOTFS/etc/group" <<'GROUP'
root:x:0:
sandbox:x:1000:
nogroup:x:65534:
GROUP
chown 1000:1000 "$ROOTFS/home/sandbox" 2>/dev/null || true

tar -C "$ROOTFS" --numeric-owner -c . | "$DOCKER" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/bin/sh"]' \
  - "$IMAGE" >/dev/null
echo "built $IMAGE"
