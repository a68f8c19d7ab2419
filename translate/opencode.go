package translate

// The opencode protocol family: the plugin host of OpenCode and Kilo Code
// (one plugin, migrate/ocplugin/hookx.js). Neither agent has command hooks;
// the plugin runs hookx on tool.execute.before, tool.execute.after and
// chat.message and reads its answer as Pi's extension does (pi.go), but for
// the key of new arguments:
//
//   - exit 0 and one JSON object on stdout with only the keys the event
//     reads; anything else refuses the call, drops the prompt, or is added
//     to the tool's result (after the tool);
//   - {"block": true, "reason"}: the plugin throws the reason (the call
//     fails, and the model reads it; the prompt is dropped), or adds it to
//     the tool's result; a block neither true nor false fails;
//   - {"args": {...}}: output.args is changed in place to these (args that
//     are not an object refuse);
//   - {"context": "text"}: added to the tool's result, or a part of the
//     prompt's message of its own: the model reads it;
//   - {"output": "text"}: the tool's result is this text;
//   - {}: nothing.
var opencodeFamily = pluginHostFamily{
	argsKey: "args",
	// hookx.js KEYS.
	keys: map[string]map[string]bool{
		"tool.execute.before": keySet("block", "reason", "args"),
		"tool.execute.after":  keySet("block", "reason", "context", "output"),
		"chat.message":        keySet("block", "reason", "context"),
	},
	toolEvent: "tool.execute.before",
}
