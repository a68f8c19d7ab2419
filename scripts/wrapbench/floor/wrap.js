// A Node hook wrapper doing what floor does: read stdin, run the hook,
// relay its stdout and exit status. For the Node/hookx ratio.
const { spawnSync } = require("child_process");
const fs = require("fs");
const input = fs.readFileSync(0);
const r = spawnSync(process.argv[2], process.argv.slice(3), { input, stdio: ["pipe", "pipe", "inherit"] });
process.stdout.write(r.stdout);
process.exitCode = r.status ?? 1;
