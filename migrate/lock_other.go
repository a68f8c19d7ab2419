//go:build !unix

package migrate

// lockDir is a no-op where the platform has no flock: WriteFile's checks
// of the target's content remain.
func lockDir(dir, real string) (unlock func(), err error) { return func() {}, nil }
