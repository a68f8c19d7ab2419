#!/bin/sh
# Logs every call to an MCP server's tools: audit.sh SERVER
mkdir -p "$COPILOT_PROJECT_DIR/.github/audit"
cat >> "$COPILOT_PROJECT_DIR/.github/audit/$1.jsonl"
exit 0
