#!/bin/sh
# Crush PreToolUse: logs every call, adds context for the model.
cat >> "$CRUSH_PROJECT_DIR/.crush-hooks/audit.log"
printf '%s\n' '{"context":"audited"}'
