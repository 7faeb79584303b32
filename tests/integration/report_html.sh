# gasp report --html: a self-contained page with SVG charts and the failed answers marked; rendered in
# headless Chromium when it is installed (no console errors, a non-blank screenshot).
. "$(dirname "$0")/lib.sh"
D="$SRC/data"
mkdir -p "$TMP/ans"
cp "$D/answer_bad.md" "$TMP/ans/vector_add.0.txt"
cp "$D/vector_add_good.ptx" "$TMP/ans/vector_add.1.txt"
cp "$D/answer_prose.txt" "$TMP/ans/saxpy.0.txt"
"$GASP" bench --target ptx-sm90 --backend files --answers "$TMP/ans" --tasks 'vector_add' --samples 2 -q -o "$TMP/r.jsonl"
"$GASP" bench --target ptx-sm90 --backend files --answers "$TMP/ans" --tasks 'saxpy' -q --resume -o "$TMP/r.jsonl"
expect_rc 0 "report --html" "$GASP" report "$TMP/r.jsonl" --html "$TMP/r.html"
grep -q "<svg" "$TMP/r.html" && ok || bad "charts are SVG"
[ "$(grep -o '<svg' "$TMP/r.html" | wc -l)" -ge 3 ] && ok || bad "pass rate, funnel and class charts"
grep -q '<span class="bad">  23  ' "$TMP/r.html" && ok || bad "the range error's line is marked"
grep -q "register &#39;%f9&#39;\|register '%f9'" "$TMP/r.html" && ok || bad "diagnostic text shown (escaped)"
grep -qi "<script\|http://\|https://" "$TMP/r.html" && bad "no script and no network references" || ok
grep -q "&lt;" "$TMP/r.html" || grep -q "extract" "$TMP/r.html" && ok || bad "content escaped"
expect_rc 3 "report --html to an unwritable path" "$GASP" report "$TMP/r.jsonl" --html /nonexistent/dir/r.html
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$CHROME" ]; then
  timeout 120 "$CHROME" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,1400 \
    --enable-logging=stderr --v=0 --screenshot="$TMP/r.png" "file://$TMP/r.html" >"$TMP/chrome.out" 2>"$TMP/chrome.err"
  [ -s "$TMP/r.png" ] && ok || bad "chromium made a screenshot"
  grep -E "CONSOLE|Uncaught" "$TMP/chrome.err" && bad "console errors" || ok
  python3 - "$TMP/r.png" <<'PY' && ok || bad "screenshot shows the charts (blue bars present)"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp + 1
prev = bytearray(stride - 1)
blue = 0
for y in range(len(raw) // stride):
    f, line = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, len(line), bpp):
        r, g, bb = line[x], line[x + 1], line[x + 2]
        if bb > 180 and r < 100 and 90 < g < 160:  # the bar colour #3b7dd8
            blue += 1
    prev = line
assert blue > 2000, blue
PY
else
  echo "note: chromium not installed; the page was checked as text only"
fi
finish
