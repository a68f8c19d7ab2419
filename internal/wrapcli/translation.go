package wrapcli

import (
	"github.com/hookx-dev/hookx/mappings"
	"github.com/hookx-dev/hookx/translate"
	"github.com/hookx-dev/hookx/wrap"
)

// Translation binds wrap's Translation interface to package translate.
type Translation struct {
	Table          *mappings.Table
	Match          string // the hook's own tool matcher (--match)
	HostEventGiven string // the host's event, where its payload names none (--host-event)
}

func (t Translation) New(host, hook string) (wrap.Translator, error) {
	in, err := translate.New(t.Table, host, hook)
	if err != nil {
		return nil, err
	}
	in.HostEvent = t.HostEventGiven
	if t.Match != "" {
		if in.Match, err = in.To.ToolMatcher(t.Match); err != nil {
			return nil, err
		}
	}
	out, err := translate.New(t.Table, hook, host)
	if err != nil {
		return nil, err
	}
	return translator{in: in, out: out}, nil
}

func (t Translation) DetectHost(payload []byte, getenv func(string) string) (string, error) {
	return translate.DetectHost(t.Table, payload, getenv)
}

func (t Translation) HostEvent(host *mappings.Dialect, payload []byte) (string, error) {
	return translate.HostEvent(host, payload, t.HostEventGiven)
}

func (t Translation) Failure(host *mappings.Dialect, hostEvent string, err error) wrap.Output {
	return wrap.Output(translate.FailureOutput(host, hostEvent, err))
}

func (t Translation) Blocks(host *mappings.Dialect, hostEvent string, out wrap.Output) bool {
	v, _, err := translate.ReadOutput(host, hostEvent, translate.Output(out))
	return err == nil && v.Block
}

// translator holds both directions: the event goes host → hook, the result
// hook → host.
type translator struct{ in, out *translate.Translator }

func (t translator) Event(payload []byte) (*wrap.Event, error) {
	ev, err := t.in.Event(payload)
	if err != nil {
		return nil, err
	}
	return &wrap.Event{
		Payload: ev.Payload, Name: ev.Event, Tool: ev.Tool,
		Skip: ev.Skip, SkipReason: ev.SkipReason,
		Findings: findings(ev.Findings, false),
	}, nil
}

func (t translator) Result(ctx wrap.ResultContext, out wrap.Output) (wrap.Output, []wrap.Finding) {
	res, fs := t.out.Result(translate.ResultContext(ctx), translate.Output(out))
	return wrap.Output(res), findings(fs, true)
}

// findings renders translation findings for wrap. Everything said about a
// hook's answer is a notice; of the event, only what did not reach the hook
// at all (see wrap.Finding).
func findings(fs []translate.Finding, result bool) []wrap.Finding {
	out := make([]wrap.Finding, len(fs))
	for i, f := range fs {
		out[i] = wrap.Finding{Text: f.String(), Notice: result || f.Mark == mappings.None}
	}
	return out
}
