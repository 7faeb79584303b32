# Endpoint pools for the openai backend against real HTTP servers on the loopback: requests spread over two
# endpoints within their limits across worker processes; failover past an endpoint answering 503 and past one
# refusing connections, each noted on stderr; the API key never shows.
. "$(dirname "$0")/lib.sh"
D="$SRC/data"
start() { # start NAME MODE: a server; its port in $TMP/NAME.port
  python3 "$SRC/integration/llm_server.py" "$TMP/$1.port" "$D/vector_add_good.ptx" "$TMP/$1.state" "$2" &
  echo $! >"$TMP/$1.pid"
  for i in $(seq 50); do [ -s "$TMP/$1.port" ] && break; sleep 0.1; done
}
start a ok
start b ok
start c 503
start h hang
trap 'for s in a b c h; do kill $(cat "$TMP/$s.pid") 2>/dev/null; done; rm -rf "$TMP"' EXIT
A="http://127.0.0.1:$(cat "$TMP/a.port")/v1"
B="http://127.0.0.1:$(cat "$TMP/b.port")/v1"
C="http://127.0.0.1:$(cat "$TMP/c.port")/v1"
# a port nothing listens on: bind one, note it, close it
DEAD="http://127.0.0.1:$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')/v1"
state() { python3 -c "import json,sys; print(json.load(open('$TMP/$1.state'))['$2'])"; }
run() { GASP_API_KEY=sekrit-123 "$GASP" bench --target ptx-sm90 --backend openai --model tiny --tasks vector_add --no-time "$@"; }
# 1. two endpoints, one request at a time each, four workers asking
expect_rc 0 "two endpoints, limit 1 each" run --url "$A#1" --url "$B#1" --workers 4 --samples 8 -q -o "$TMP/p.jsonl"
[ "$(grep -c '"class":"error"' "$TMP/p.jsonl")" = 0 ] && [ "$(wc -l <"$TMP/p.jsonl")" = 8 ] && ok || bad "8 records, no errors"
[ "$(state a max_in_flight)" = 1 ] && [ "$(state b max_in_flight)" = 1 ] && ok || bad "limit 1 held across workers (a $(state a max_in_flight), b $(state b max_in_flight))"
ra=$(state a requests); rb=$(state b requests)
[ "$ra" -ge 2 ] && [ "$rb" -ge 2 ] && [ $((ra + rb)) = 8 ] && ok || bad "requests shared by both endpoints ($ra + $rb)"
# 2. a comma list and a shared limit of 2: both used at once
expect_rc 0 "comma list, --endpoint-limit 2" run --url "$A,$B" --endpoint-limit 2 --workers 4 --samples 8 -q -o "$TMP/q.jsonl"
[ "$(state a max_in_flight)" -le 2 ] && [ "$(state b max_in_flight)" -le 2 ] && ok || bad "limit 2 held"
[ "$(grep -c '"class":"error"' "$TMP/q.jsonl")" = 0 ] && ok || bad "no errors with a comma list"
# 3. failover: one endpoint answers 503, one refuses connections; every answer comes from the healthy one
expect_rc 0 "failover" run --url "$C" --url "$DEAD" --url "$A" --workers 2 --samples 6 --retries 1 -o "$TMP/f.jsonl"
[ "$(grep -c '"class":"error"' "$TMP/f.jsonl")" = 0 ] && [ "$(grep -c '.entry vector_add' "$TMP/f.jsonl")" = 6 ] && ok || { bad "failover: every answer from the healthy endpoint"; head -c 600 "$TMP/f.jsonl"; }
grep -q "endpoint $C failed (HTTP 503)" "$TMP/err" && ok || { bad "503 noted"; cat "$TMP/err"; }
grep -q "endpoint $DEAD failed (Could.*connect" "$TMP/err" && ok || { bad "refused connection noted"; cat "$TMP/err"; }
grep -q "endpoint $A: [0-9]* request(s), 0 failed" "$TMP/err" && ok || { bad "tally for the healthy endpoint"; cat "$TMP/err"; }
grep -q "sekrit" "$TMP/err" "$TMP/out" "$TMP/f.jsonl" "$TMP/p.jsonl" && bad "API key leaked" || ok
# 3b. an endpoint that stops answering (accepts, never replies): the request times out and fails over
H="http://127.0.0.1:$(cat "$TMP/h.port")/v1"
expect_rc 0 "failover on timeout" run --url "$H" --url "$A" --request-timeout 1 --samples 2 -o "$TMP/t.jsonl"
[ "$(grep -c '.entry vector_add' "$TMP/t.jsonl")" = 2 ] && ok || bad "timeout: answers from the other endpoint"
grep -q "endpoint $H failed (Timeout was reached)" "$TMP/err" && ok || { bad "timeout noted"; cat "$TMP/err"; }
# 4. every endpoint down: the candidates are recorded as errors (infra), not lost
expect_rc 0 "all endpoints down" run --url "$C" --url "$DEAD" --retries 0 -q -o "$TMP/d.jsonl"
grep -q '"class":"error"' "$TMP/d.jsonl" && grep -q '"infra_error":true' "$TMP/d.jsonl" && ok || bad "all down recorded as infra error"
expect_rc 2 "bad endpoint limit" run --url "$A#0" -o "$TMP/x.jsonl"
expect_rc 2 "not a URL" run --url "ftp://x" -o "$TMP/x.jsonl"
finish
