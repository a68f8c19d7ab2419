#!/bin/sh
# Asks for one more turn while the tests fail.
cat >/dev/null
if [ -f "$GEMINI_PROJECT_DIR/.tests-failed" ]; then
  printf '%s\n' '{"decision":"deny","reason":"the tests fail: fix them before stopping"}'
fi
exit 0
