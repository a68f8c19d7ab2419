package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookx-dev/hookx/internal/confine"
)

// ErrUnconfined is Check's answer to a probe asked for where hookx cannot
// confine the hooks it would run (rule 4: anything run of a project to
// inspect it is confined).
var ErrUnconfined = errors.New("--probe needs confinement: the probed hooks are the project's code")

// sandbox is the throwaway world of one probed hook, all inside one
// temporary directory: the copy of the project, a home, XDG directories
// and a TMPDIR. The hook may write there and nowhere else.
type sandbox struct {
	root, proj, home, tmp string
}

func newSandbox(root, dir string) (*sandbox, error) {
	b := &sandbox{
		root: root,
		proj: filepath.Join(root, filepath.Base(realPath(dir))),
		home: filepath.Join(root, "home"),
		tmp:  filepath.Join(root, "tmp"),
	}
	for _, d := range []string{b.home, b.tmp, filepath.Join(b.home, ".config"), filepath.Join(b.home, ".cache"), filepath.Join(b.home, ".local", "share"), filepath.Join(b.home, ".local", "state")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// env is the hook's whole starting environment: a PATH, the locale, and a
// home of its own; nothing else of the user's (no tokens, no agent keys).
func (b *sandbox) env(path string, getenv func(string) string) []string {
	env := []string{
		"PATH=" + path,
		"HOME=" + b.home,
		"TMPDIR=" + b.tmp,
		"XDG_CONFIG_HOME=" + filepath.Join(b.home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(b.home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(b.home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(b.home, ".local", "state"),
		"XDG_RUNTIME_DIR=" + b.tmp,
	}
	for _, k := range []string{"LANG", "LC_ALL", "LC_CTYPE", "TZ"} {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// policy confines the hook to its sandbox: it writes there only, and reads
// neither the real home (keys, tokens) nor the real project, except the
// PATH directories under them, where its tools are.
func (b *sandbox) policy(home, dir, path string) confine.Policy {
	p := confine.Policy{Write: []string{b.root}}
	for _, d := range []string{home, userHome(), dir} {
		if d != "" {
			p.Hide = append(p.Hide, realPath(d))
		}
	}
	for _, d := range filepath.SplitList(path) {
		if filepath.IsAbs(d) && !strings.HasPrefix(realPath(d), realPath(b.root)) {
			p.Read = append(p.Read, d)
		}
	}
	return p
}

func userHome() string {
	h, _ := os.UserHomeDir()
	return h
}
