package translate

// BlockFindings says what a block answered by a hook of tr.From's event
// hookEvent becomes on tr.To's event hostEvent, before any hook has run:
// the findings Result gives for every such block (a block the host cannot
// honour comes back with Mark None; a cap on a loop of blocks, or a block
// carried another way, with Mark Approximate). None: the block is carried
// exactly. migrate reports them when it writes the entry, from the same
// code that renders the block at run time. Unknown events give none.
func (tr *Translator) BlockFindings(hookEvent, hostEvent string) []Finding {
	hookEv, hostEv := tr.From.Event(hookEvent), tr.To.Event(hostEvent)
	if hookEv == nil || hostEv == nil {
		return nil
	}
	var fs findings
	var r rendered
	tr.renderBlock(hookEv.Output, hostEv.Output, hostEv, Verdict{Block: true, Reason: "blocked"}, &r, &fs)
	return fs
}
