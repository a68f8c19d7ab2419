package doctor

import "errors"

// ErrUnconfined is Check's answer to a probe asked for where hookx cannot
// confine the hooks it would run (rule 4: anything run of a project to
// inspect it is confined). The probe's sandbox is confine.Sandbox.
var ErrUnconfined = errors.New("--probe needs confinement: the probed hooks are the project's code")
