package mappings

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode"
)

// Gemini CLI resolves its tools' paths with Node's path.resolve and
// decodeURIComponent; hookx's resolvers must agree with Node on every input,
// or a Claude guard checks one path while Gemini opens another. Node is the
// oracle (the conformance suite needs it, so CI has it).
func TestPathResolutionAgreesWithNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is required in CI")
		}
		t.Skip("node not installed: the oracle is missing")
	}
	inputs := []string{
		"secrets/key.txt", "./secrets//key.txt/", "a/../../b", "/abs/./x/../y", "..", ".", "",
		"secrets%2Fkey.txt", "%2E%2E/%2E%2E/etc/passwd", "a%zz", "a%", "a%2", "%C3%A9t%C3%A9", "%C3", "%C3%28",
		"%E2%82%AC", "%ED%A0%80", "%F0%9F%98%80", "%F4%90%80%80", "%C0%AF", "%E0%80%AF", "%25", "%2525", "%00x",
		"é/%41", "~/x", "a\\b", "%FF", "%80",
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"%", "2", "F", "E", "C", "3", "A", "9", "0", "8", "/", ".", "a", "z", "é", "\\"}
	for range 500 {
		var b strings.Builder
		for range 1 + r.IntN(14) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	in, _ := json.Marshal(inputs)
	// What resolveToRealPath does before realpath: decode, then resolve.
	script := `const path = require("path");
const inputs = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(inputs.map(p => {
  let r = path.resolve("/w/t", p);
  try { r = decodeURIComponent(r); } catch {}
  return [path.resolve("/w/t", p), path.resolve(r)];
})));`
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var want [][2]string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	c := PathContext{Cwd: "/w/t", Exists: func(string) bool { return false }}
	for i, p := range inputs {
		if strings.HasPrefix(p, "@") {
			continue
		}
		dir, _ := pathResolvers()["geminiDir"](p, c)
		search, _ := pathResolvers()["geminiSearchDir"](p, c)
		if dir != want[i][0] || search != want[i][1] {
			t.Errorf("%q: hookx resolves %q and %q; Node %q and %q", p, dir, search, want[i][0], want[i][1])
		}
		// Qwen Code's glob and grep_search: path.resolve once ~ and shell
		// escapes are ruled out (they make the path uncertain).
		qwen, why := pathResolvers()["qwenSearchDir"](p, c)
		if plain := !strings.HasPrefix(p, "~") && !strings.Contains(p, `\`); plain != (why == "") {
			t.Errorf("%q: qwenSearchDir says uncertain = %q", p, why)
		} else if plain && qwen != want[i][0] {
			t.Errorf("%q: qwenSearchDir resolves %q; Node %q", p, qwen, want[i][0])
		}
	}
}

// Gemini's resolveDefensiveToolPath: NUL bytes go, and a leading @ (the
// model's file-reference syntax) is dropped unless the path exists with it.
func TestGeminiDefensivePath(t *testing.T) {
	for _, c := range []struct {
		in, want string
		exists   []string
	}{
		{"@a/b", "/w/a/b", nil},
		{"@/a", "/w/a", nil},
		{"@", "/w/@", nil},
		{"@a/b", "/w/@a/b", []string{"/w/@a"}},
		{"@a/b", "/w/@a/b", []string{"/w/@a/b"}},
		{"a\x00b", "/w/ab", nil},
	} {
		got, unc := pathResolvers()["geminiFile"](c.in, PathContext{Cwd: "/w", Exists: func(p string) bool {
			for _, e := range c.exists {
				if p == e {
					return true
				}
			}
			return false
		}})
		if got != c.want || unc != "" {
			t.Errorf("%q: got %q (%s), want %q", c.in, got, unc, c.want)
		}
	}
}

// Qwen Code trims a glob or grep_search path with JavaScript's
// String.prototype.trim before resolving it; Go's strings.TrimSpace trims
// another set (U+0085 but not U+FEFF). A path hookx trims differently is
// one the guard checks while Qwen searches another ("\uFEFF/etc" is /etc to
// Qwen). Node is the oracle, on every rune either language calls space.
func TestQwenSearchDirTrimsAsJavaScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is required in CI")
		}
		t.Skip("node not installed: the oracle is missing")
	}
	var inputs []string
	for r := rune(0); r <= 0xFFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if r == 0xFEFF || r == 0x85 || unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) || r == 0x180E || r == 0x200B {
			s := string(r)
			inputs = append(inputs, s+"/etc", "/etc"+s, s+"etc"+s, s)
		}
	}
	in, _ := json.Marshal(inputs)
	cmd := exec.Command(node, "-e", `const path = require("path");
const inputs = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(inputs.map(p => path.resolve("/w/t", p.trim()))));`)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	c := PathContext{Cwd: "/w/t"}
	for i, p := range inputs {
		got, why := pathResolvers()["qwenSearchDir"](p, c)
		if why != "" || got != want[i] {
			t.Errorf("%+q: qwenSearchDir resolves %+q (%s); Qwen Code %+q", p, got, why, want[i])
		}
	}
}
