//go:build unix && !netbsd

package safefile

func isFtype(error) bool { return false }
