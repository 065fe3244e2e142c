#!/bin/sh
# Draws DeskClaw's app icon with ImageMagick (no SVG delegate needed): build/icon.png (1024×1024,
# electron-builder derives the macOS .icns and the Windows .ico from it) and build/icons/NxN.png
# (the Linux hicolor sizes). Run again only to change the icon: the PNGs are committed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/icons"

# Drawn at 2048 and scaled down, for smooth edges.
S=2048
convert -size ${S}x${S} -define gradient:angle=135 gradient:'#4f46e5'-'#0d9488' "$tmp/bg.png"
convert -size ${S}x${S} xc:none -fill white -draw "roundrectangle 128,128 1920,1920 400,400" "$tmp/mask.png"
convert "$tmp/bg.png" "$tmp/mask.png" -alpha off -compose CopyOpacity -composite "$tmp/plate.png"
# Three claw marks: curved, tapering strokes from upper right to lower left.
convert -size ${S}x${S} xc:none -stroke white -fill none -strokewidth 130 -draw "stroke-linecap round \
  path 'M 880,520 Q 860,1080 580,1520' \
  path 'M 1200,460 Q 1180,1080 900,1610' \
  path 'M 1520,520 Q 1500,1080 1220,1520'" "$tmp/claws.png"
convert "$tmp/claws.png" -background '#0f172a' -shadow 40x24+0+24 "$tmp/shadow.png"
convert "$tmp/plate.png" \( "$tmp/shadow.png" -background none -gravity center -extent ${S}x${S} \) -compose over -composite \
  "$tmp/claws.png" -compose over -composite "$tmp/full.png"

convert "$tmp/full.png" -resize 1024x1024 -depth 8 -strip "$out/icon.png"
for size in 16 24 32 48 64 128 256 512; do
  convert "$tmp/full.png" -resize ${size}x${size} -depth 8 -strip "$out/icons/${size}x${size}.png"
done
echo "wrote $out/icon.png and $out/icons/"
