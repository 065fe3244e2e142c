#!/bin/sh
# Draws the tray icons with ImageMagick, in the app icon's look (scripts/make-icons.sh: the
# indigo-to-teal plate with three claw marks), bolder so they read at 16 px:
# - tray.png (16×16) and tray@2x.png (32×32): Windows (Electron picks the @2x on HiDPI);
# - tray-linux.png (32×32): Linux panels scale it to their own size;
# - trayTemplate.png (16×16) and trayTemplate@2x.png (32×32): macOS template images (black claws
#   on transparent; the menu bar tints them for light and dark).
# Run again only to change them: the PNGs are committed.
set -eu
out=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

S=1024
claws() {
  # $1: stroke colour, $2: output
  convert -size ${S}x${S} xc:none -stroke "$1" -fill none -strokewidth 118 -draw "stroke-linecap round \
    path 'M 380,230 Q 320,520 250,800' \
    path 'M 560,200 Q 500,520 430,830' \
    path 'M 740,230 Q 680,520 610,800'" "$2"
}

# Drawn half as big again before turning it 45°, so the square cut from its middle has no corners left blank.
G=$((S * 3 / 2))
convert -size ${G}x${G} gradient:'#4f46e5'-'#0d9488' -rotate -45 +repage -gravity center -crop ${S}x${S}+0+0 +repage "$tmp/bg.png"
convert -size ${S}x${S} xc:none -fill white -draw "roundrectangle 16,16 1008,1008 230,230" "$tmp/mask.png"
convert "$tmp/bg.png" "$tmp/mask.png" -alpha off -compose CopyOpacity -composite "$tmp/plate.png"
claws white "$tmp/claws.png"
convert "$tmp/plate.png" "$tmp/claws.png" -compose over -composite "$tmp/colour.png"

# The template: the claws alone, a little bolder and using the whole square.
convert -size ${S}x${S} xc:none -stroke black -fill none -strokewidth 150 -draw "stroke-linecap round \
  path 'M 330,130 Q 250,520 160,900' \
  path 'M 560,100 Q 480,520 390,930' \
  path 'M 790,130 Q 710,520 620,900'" "$tmp/template.png"

convert "$tmp/colour.png" -resize 16x16 -strip "$out/tray.png"
convert "$tmp/colour.png" -resize 32x32 -strip "$out/tray@2x.png"
convert "$tmp/colour.png" -resize 32x32 -strip "$out/tray-linux.png"
convert "$tmp/template.png" -resize 16x16 -strip "$out/trayTemplate.png"
convert "$tmp/template.png" -resize 32x32 -strip "$out/trayTemplate@2x.png"
echo "wrote $out/tray*.png"
