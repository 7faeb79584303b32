# Shared helpers for the integration scripts: a counter and the closing "N passed, N failed" line.
set -u
GASP="$1"
SRC="$2"
PASSED=0
FAILED=0
TMP=$(mktemp -d /tmp/gasp-it.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
ok() { PASSED=$((PASSED + 1)); }
bad() { FAILED=$((FAILED + 1)); echo "FAIL: $*"; }
expect() { # expect DESCRIPTION COMMAND...: the command must succeed
  local what="$1"; shift
  if "$@"; then ok; else bad "$what"; fi
}
expect_rc() { # expect_rc WANT DESCRIPTION COMMAND...
  local want="$1" what="$2"; shift 2
  "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "$what: exit $rc, want $want"; sed -n 1,20p "$TMP/err"; fi
}
finish() {
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" = 0 ]
}
gpu_here() { # true when the run stage can execute here
  [ -z "${GASP_NO_GPU:-}" ] || return 1
  "$GASP" run --target ptx-sm90 --task vector_add --no-time "$SRC/data/vector_add_good.ptx" >/dev/null 2>&1
  [ $? = 0 ]
}
