# A small OpenAI-compatible completions server for tests, on the loopback only. It answers every prompt that
# names vector_add with a PTX file, counts requests in flight (to check per-endpoint limits), and can be told
# to fail: "503" answers every request with HTTP 503, "hang" takes 20 s to answer. Stops by itself after 120 s.
#   python3 llm_server.py PORTFILE ANSWER.ptx LOG MODE
import http.server, json, sys, threading, time

port_file, answer_file, log_file, mode = sys.argv[1:5]
answer = open(answer_file).read()
lock = threading.Lock()
state = {"in_flight": 0, "max_in_flight": 0, "requests": 0}

def log():
    with open(log_file, "w") as f:
        json.dump(state, f)

class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with lock:
            state["requests"] += 1
            state["in_flight"] += 1
            state["max_in_flight"] = max(state["max_in_flight"], state["in_flight"])
            log()
        time.sleep(20 if mode == "hang" else 0.15)  # long enough for requests from several workers to overlap
        # out of flight before the answer leaves: the client may send its next request the moment it has it
        with lock:
            state["in_flight"] -= 1
            log()
        if mode == "503":
            return self.reply(503, {"error": {"message": "overloaded"}})
        text = "```ptx\n" + answer + "```\n" if "vector_add" in json.dumps(body) else "no idea"
        self.reply(200, {"choices": [{"text": text}], "usage": {"completion_tokens": 7}})
    def reply(self, code, obj):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
open(port_file, "w").write(str(srv.server_address[1]))
threading.Timer(120, srv.shutdown).start()  # never outlives the test
srv.serve_forever()
