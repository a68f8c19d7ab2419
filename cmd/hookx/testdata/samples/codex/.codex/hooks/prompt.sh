#!/bin/sh
cat >/dev/null
printf '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"current branch: %s"}}\n' "$(git branch --show-current 2>/dev/null)"
