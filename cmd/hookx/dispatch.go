package main

import (
	"context"
	"fmt"
	"io"

	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/migrate/clinehooks"
	"github.com/spf13/cobra"
)

func init() {
	extraCommands = append(extraCommands, func(s streams) *cobra.Command { return newDispatchCmd(s, nil) })
}

// dispatchOptions are hookx dispatch's flags.
type dispatchOptions struct {
	s           streams
	host, event string
	script      string
}

func newDispatchCmd(s streams, runF func(*dispatchOptions) error) *cobra.Command {
	opts := &dispatchOptions{s: s}
	cmd := &cobra.Command{
		Use:   "dispatch --host HOST --event EVENT -- DISPATCHER",
		Short: "Run the hooks hookx migrate wrote for an agent that runs one file per event",
		Long: `dispatch is what the dispatcher files run that hookx migrate writes for an
agent that runs one executable file per event (one per event, named after
it, beside hookx.hooks.json): it reads the host's payload on stdin,
runs the EVENT entries of hookx.hooks.json beside DISPATCHER in order (each a
hookx wrap command, whose --match is the hook's own matcher), and prints
the host's answer on stdout: the first refusal, after which no hook runs;
else the first rewrite of the input (the hooks after it still run, and a
refusal of theirs wins); else the hooks' context. On an event whose answer guards something, an
entries file it cannot read and a hook that cannot start or does not answer
in time are a refusal (fail closed).`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.script = args[0]
			if runF != nil {
				return runF(opts)
			}
			return dispatchRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.host, "host", "", "the dialect of the agent running the dispatcher")
	f.StringVar(&opts.event, "event", "", "the host's event the dispatcher was written for")
	_ = cmd.MarkFlagRequired("host")
	_ = cmd.MarkFlagRequired("event")
	return cmd
}

func dispatchRun(opts *dispatchOptions) error {
	d, err := mappings.Default().Dialect(opts.host)
	if err != nil {
		return withCode(exitBadInput, err)
	}
	if !d.Settings.HookFiles {
		return withCode(exitBadInput, fmt.Errorf("dispatch: %s runs its hooks from its settings, not from one file per event; hookx wrap is its hook", d.Agent))
	}
	payload, err := io.ReadAll(io.LimitReader(opts.s.In, 64<<20))
	if err != nil {
		return withCode(exitInternal, err)
	}
	out := clinehooks.Dispatch(context.Background(), clinehooks.DispatchOptions{
		Host: d.Name, Event: opts.event, Script: opts.script, Stdin: payload, Stderr: opts.s.Err})
	_, err = opts.s.Out.Write(out)
	return err
}
