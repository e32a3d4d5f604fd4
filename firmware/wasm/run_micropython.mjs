// Run a Python script on the real MicroPython interpreter (the official WebAssembly port, pinned in
// package.json), with the files of a folder on its import path.
//
//   node run_micropython.mjs FOLDER SCRIPT.py
//
// Every regular file of FOLDER (source .py or compiled .mpy) is written to /board in MicroPython's
// own filesystem, /board goes first on sys.path and becomes the working directory, then SCRIPT.py
// runs. What the script prints goes to stdout. A Python exception is printed to stderr as its
// message only (the default print of a JavaScript exception dumps the whole minified module) and
// the exit status is 1.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

const [folder, script] = process.argv.slice(2);
if (!folder || !script) {
    process.stderr.write("usage: node run_micropython.mjs FOLDER SCRIPT.py\n");
    process.exit(2);
}
const mp = await loadMicroPython({
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/board");
for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isFile()) {
        mp.FS.writeFile("/board/" + name, readFileSync(path));
    }
}
try {
    mp.runPython("import sys, os\nsys.path.insert(0, '/board')\nos.chdir('/board')\n");
    mp.runPython(readFileSync(script, "utf8"));
} catch (e) {
    process.stderr.write(String(e && e.message ? e.message : e) + "\n");
    process.exit(1);
}
