// Package conformance holds the conformance suite: tests that run the real
// Gemini CLI 0.61.0 and the real Claude Code 2.1.330, fully offline against
// fake model servers, to prove hook behaviour in the actual hosts, natively
// and through hookx.
//
// The package has no API; everything is in its _test.go files and in
// internal/fakemodel (the fake model servers), internal/driver (sandboxes
// and agent runs) and agents (the pinned install). See README.md here for
// how to run it.
package conformance
