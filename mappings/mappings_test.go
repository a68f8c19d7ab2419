package mappings

import "testing"

func TestDefaultLoads(t *testing.T) {
	if _, err := Load(dataFS, "data"); err != nil {
		t.Fatal(err)
	}
}
