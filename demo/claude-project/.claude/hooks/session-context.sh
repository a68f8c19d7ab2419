#!/bin/sh
# SessionStart (startup, resume): plain stdout is added to the model's
# context by Claude Code.
cd "$CLAUDE_PROJECT_DIR" || exit 0
echo "Branch: $(git branch --show-current 2>/dev/null)"
echo "Recent commits:"
git log --oneline -5 2>/dev/null
[ -f NOTES.md ] && { echo "Notes:"; cat NOTES.md; }
exit 0
