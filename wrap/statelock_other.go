//go:build !unix

package wrap

// lockState is a no-op where hookx takes no file lock: hooks of one stop
// that update the session's stop state at once may then drop one's block.
func lockState(string) (unlock func()) { return func() {} }
