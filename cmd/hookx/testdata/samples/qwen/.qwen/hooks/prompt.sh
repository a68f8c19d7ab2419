#!/bin/sh
cat >/dev/null
printf '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"current branch: %s"}}\n' "$(git -C "$QWEN_PROJECT_DIR" branch --show-current 2>/dev/null)"
