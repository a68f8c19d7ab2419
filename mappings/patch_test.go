package mappings

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOnePatchEditReadsOneChangeAndRefusesTheRest(t *testing.T) {
	for _, c := range []struct {
		name, patch string
		want        patchEdit
		why         string
	}{
		{"one chunk", "*** Begin Patch\n*** Update File: a.go\n@@ func f\n ctx\n-old\n+new\n*** End Patch\n",
			patchEdit{path: "a.go", old: "ctx\nold", new: "ctx\nnew"}, ""},
		{"add", "*** Begin Patch\n*** Add File: n.txt\n+hi\n+there\n*** End Patch", patchEdit{path: "n.txt", new: "hi\nthere\n"}, ""},
		{"two chunks", "*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+b\n@@\n-c\n+d\n*** End Patch\n", patchEdit{}, "several places"},
		{"two files", "*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+b\n*** Add File: b.go\n+x\n*** End Patch\n", patchEdit{}, "2 file operations"},
		{"delete", "*** Begin Patch\n*** Delete File: a.go\n*** End Patch\n", patchEdit{}, "deletes"},
		{"move", "*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-a\n+b\n*** End Patch\n", patchEdit{}, "moves"},
		{"no envelope", "rm -rf /", patchEdit{}, "must be '*** Begin Patch'"},
		{"insertion only", "*** Begin Patch\n*** Update File: a.go\n@@\n+b\n*** End Patch\n", patchEdit{}, "no text to find"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, why := onePatchEdit(c.patch)
			if c.why == "" && why != "" || c.why != "" && !contains(why, c.why) {
				t.Fatalf("why = %q, want %q", why, c.why)
			}
			if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(patchEdit{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// An edit written as a patch reads back as the same edit.
func TestEditPatchRoundTrips(t *testing.T) {
	for _, e := range []patchEdit{{path: "/p/a.go", old: "x := 1", new: "x := 2"}, {path: "b.txt", old: "", new: "new file\n"}, {path: "c", old: "a\nb", new: "a\nc\nd"}} {
		got, why := onePatchEdit(editPatch(e.path, e.old, e.new))
		if why != "" {
			t.Fatalf("%v: %s", e, why)
		}
		if diff := cmp.Diff(e, got, cmp.AllowUnexported(patchEdit{})); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
