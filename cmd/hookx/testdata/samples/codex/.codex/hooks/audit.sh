#!/bin/sh
# Logs every call to an MCP server's tools: audit.sh SERVER
mkdir -p .codex/audit
cat >> ".codex/audit/$1.jsonl"
exit 0
