#!/bin/sh
# PreToolUse on MCP tools: appends the call to an audit log.
printf '%s %s\n' "$(date -u +%FT%TZ)" "$(cat)" >> "$CLAUDE_PROJECT_DIR/.claude/audit-$1.log"
