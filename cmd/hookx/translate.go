package main

import "github.com/spf13/cobra"

func newTranslateCmd(s streams) *cobra.Command {
	return &cobra.Command{Use: "translate", Short: "Translate one payload or hook result between dialects"}
}
