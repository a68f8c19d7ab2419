//go:build !unix

package transcript

import "os"

// lock is a no-op where flock is missing; concurrent hooks of one session
// may then interleave records.
func lock(*os.File) error { return nil }

func inode(os.FileInfo) uint64 { return 0 }
