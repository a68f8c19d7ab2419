//go:build !unix

package safefile

import "os"

// Elsewhere (Windows) an open follows links: Append and ReadPrivate refuse a
// symlink found by Lstat first; ownership and modes are not Unix bits.
const (
	noFollow   = 0
	nonBlock   = 0
	checkModes = false
)

func isLoop(error) bool { return false }

func ownedByMe(os.FileInfo) bool { return true }

func links(os.FileInfo) uint64 { return 1 }
