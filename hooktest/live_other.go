//go:build !unix

package hooktest

import (
	"errors"

	"github.com/hookx-dev/hookx/mappings"
)

type liveRun struct{}

func startLive(Options) (*liveRun, error) {
	return nil, errors.New("hookx test --live runs the agents on Linux and macOS only")
}

func (*liveRun) cell(Case, Hook, *mappings.Dialect, Options) (Cell, error) {
	return Cell{}, errors.New("unreachable")
}
