// Command hookx makes the hooks of AI coding agents portable between Claude
// Code and Gemini CLI: it runs a hook written for one agent under the other
// (wrap), migrates hook settings (migrate), and translates single payloads
// (translate) with one mapping table (mappings).
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
