package translate

// The opencode protocol family: the plugin host of OpenCode and Kilo Code
// (one plugin, migrate/ocplugin/hookx.js). Neither agent has command hooks;
// the plugin runs hookx on tool.execute.before and reads its answer as
// Pi's extension does (pi.go), but for the key of new arguments:
//
//   - exit 0 and one JSON object on stdout; anything else refuses the call;
//   - {"block": true, "reason"}: the plugin throws the reason, the call
//     fails, and the model reads it; a block neither true nor false refuses;
//   - {"args": {...}}: output.args is changed in place to these (args that
//     are not an object refuse);
//   - {}: the call runs; any other key refuses.
var opencodeFamily = pluginHostFamily{
	argsKey:   "args",
	keys:      map[string]map[string]bool{"tool.execute.before": keySet("block", "reason", "args")},
	toolEvent: "tool.execute.before",
}
