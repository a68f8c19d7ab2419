#!/bin/sh
# Logs every call to an MCP server's tools: audit.sh SERVER
mkdir -p "$GEMINI_PROJECT_DIR/.gemini/audit"
cat >> "$GEMINI_PROJECT_DIR/.gemini/audit/$1.jsonl"
echo >> "$GEMINI_PROJECT_DIR/.gemini/audit/$1.jsonl"
exit 0
