package main

// Exit codes are part of hookx's API: scripts and CI depend on them. They are
// listed in docs/cli.md and in `hookx --help`.
const (
	// exitOK: success. `wrap` always exits 0 once it has an answer for the
	// host: the decision travels in the JSON it prints, never in its status.
	exitOK = 0
	// exitChanges: `migrate --check` found the target out of date,
	// `migrate --strict` found something it cannot carry over exactly or a
	// guard it would weaken, or `doctor` found at least one error (or more
	// warnings than --max-warnings), or `test` found a case that failed.
	exitChanges = 1
	// exitBadInput: bad usage or input hookx cannot read (malformed JSON, an
	// unknown dialect or event, a settings file that does not parse).
	exitBadInput = 2
	// exitInternal: an I/O or internal error.
	exitInternal = 3
)

const exitCodesHelp = `Exit codes:
  0  success (wrap: always, once it has answered the host)
  1  migrate --check: target out of date; migrate --strict: items not carried exactly,
     or a guard would be weakened; doctor: at least one error found (or more
     warnings than --max-warnings N); test: a case failed
  2  bad usage or unreadable input (malformed JSON, unknown dialect or event, bad settings,
     a file too large or too deeply nested, a migrate target outside the project, ~ or --out)
  3  I/O or internal error; migrate: the target kept changing while being written`

// wrapExitCodesHelp is wrap's part of the exit-code API: the host reads
// wrap's status, so it has rules of its own.
const wrapExitCodesHelp = `Exit codes:
  0      translating: always, once wrap has answered the host (the decision
         is in the JSON on stdout, never in the status)
  2      bad usage at a terminal (with an event on stdin, a usage error is
         answered like hookx's own failure instead, with exit 0)
  128+n  stopped by signal n
  pass-through (same dialect): the hook's own status; 2 with --fail-closed
         when the hook failed`
