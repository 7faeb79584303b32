# The openai backend against a real HTTP server on the loopback: completions and chat, the API key sent
# but never recorded, retries after a server error, errors recorded as such.
. "$(dirname "$0")/lib.sh"
D="$SRC/data"
cat >"$TMP/server.py" <<'PY'
import http.server, json, sys, threading, time
answer = open(sys.argv[2]).read()
log = open(sys.argv[3], "a")
seen = {"n": 0}
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def do_POST(self):
        seen["n"] += 1
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        log.write(json.dumps({"path": self.path, "auth": self.headers.get("Authorization"), "body": body}) + "\n")
        log.flush()
        if self.headers.get("Authorization") != "Bearer sekrit-123":
            return self.reply(401, {"error": {"message": "bad key"}})
        if seen["n"] == 1:
            return self.reply(500, {"error": {"message": "warming up"}})
        text = "Here it is:\n```ptx\n" + answer + "```\n" if "vector_add" in json.dumps(body) else "no idea"
        if self.path.endswith("/chat/completions"):
            out = {"choices": [{"message": {"role": "assistant", "content": text}}], "usage": {"completion_tokens": 42}}
        else:
            out = {"choices": [{"text": text}], "usage": {"completion_tokens": 42}}
        self.reply(200, out)
    def reply(self, code, obj):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(srv.server_address[1]))
threading.Timer(120, srv.shutdown).start()  # never outlives the test
srv.serve_forever()
PY
python3 "$TMP/server.py" "$TMP/port" "$D/vector_add_good.ptx" "$TMP/requests.log" &
spid=$!
trap 'kill $spid 2>/dev/null; rm -rf "$TMP"' EXIT
for i in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
URL="http://127.0.0.1:$(cat "$TMP/port")/v1"
GASP_API_KEY=sekrit-123 "$GASP" bench --target ptx-sm90 --backend openai --url "$URL" --model tiny-test --tasks vector_add \
  --temperature 0.7 --stop '```\n\n' --retries 2 -q -o "$TMP/r.jsonl" >"$TMP/out" 2>"$TMP/err"
[ $? = 0 ] && ok || { bad "bench with openai backend"; cat "$TMP/err"; }
python3 - "$TMP/r.jsonl" "$TMP/requests.log" <<'PY' && ok || bad "completions record"
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["backend"] == "openai" and r["model"] == "tiny-test", r
assert r["class"] in ("pass", "skipped"), r["class"]
assert ".entry vector_add" in r["answer"] and r["tokens"] == 42
reqs = [json.loads(l) for l in open(sys.argv[2])]
assert len(reqs) == 2, "one 500 then a retry: %d" % len(reqs)
b = reqs[-1]["body"]
assert reqs[-1]["path"] == "/v1/completions" and b["model"] == "tiny-test" and abs(b["temperature"] - 0.7) < 1e-9
assert "prompt" in b and "Constraints" in b["prompt"]
assert b["stop"] == ["```\\n\\n"], b.get("stop")
PY
grep -q "sekrit" "$TMP/r.jsonl" "$TMP/out" "$TMP/err" && bad "API key leaked into output" || ok
GASP_API_KEY=sekrit-123 "$GASP" bench --target ptx-sm90 --backend openai --chat --url "$URL" --model tiny-test --tasks vector_add -q -o "$TMP/c.jsonl" 2>"$TMP/err"
tail -1 "$TMP/requests.log" | grep -q '"path": "/v1/chat/completions"' && grep -q '.entry vector_add' "$TMP/c.jsonl" && ok || bad "chat completions"
GASP_API_KEY=wrong "$GASP" bench --target ptx-sm90 --backend openai --url "$URL" --tasks vector_add -q -o "$TMP/w.jsonl" 2>"$TMP/err"
grep -q '"class":"error"' "$TMP/w.jsonl" && grep -q 'HTTP 401' "$TMP/w.jsonl" && ok || bad "401 recorded as error"
grep -q "wrong" "$TMP/w.jsonl" && bad "wrong key leaked" || ok
kill $spid; wait $spid 2>/dev/null
GASP_API_KEY=x "$GASP" bench --target ptx-sm90 --backend openai --url "$URL" --tasks vector_add --retries 1 -q -o "$TMP/d.jsonl" 2>"$TMP/err"
grep -q '"class":"error"' "$TMP/d.jsonl" && grep -q 'failed' "$TMP/d.jsonl" && ok || bad "server down recorded as error"
expect_rc 2 "openai without a URL" env -u GASP_OPENAI_URL "$GASP" bench --target ptx-sm90 --backend openai -o "$TMP/x.jsonl"
finish
