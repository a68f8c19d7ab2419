#!/bin/sh
cat >/dev/null
branch=$(git -C "$GEMINI_PROJECT_DIR" branch --show-current 2>/dev/null)
printf '{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"current branch: %s"}}\n' "$branch"
