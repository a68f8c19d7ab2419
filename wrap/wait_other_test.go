//go:build unix && !linux

package wrap

import "testing"

// pidfdSupported: waitHook uses no pidfds here.
func pidfdSupported(*testing.T) bool { return false }
