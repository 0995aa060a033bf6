// Runs the scanner board's code under MicroPython (its WebAssembly build) on the
// simulated pins of scenario.py, and prints the scenario's result lines.
//
//     node tests/support/micropython/run.mjs [SCANNER_DIR] [SCRIPT]
//
// SCANNER_DIR defaults to hardware/scanner, SCRIPT to this directory's scenario.py
// (bench/scan_period.py gives its bench/scan_loop.py); SCRIPT's main(code) is run.
// The board's files and the script are put side by side in MicroPython's own
// filesystem, as on the CIRCUITPY drive, so they import each other by their plain
// names. Exit status 0 when the script ran; 1 with MicroPython's traceback on stderr
// when it raised.

import { readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = dirname(fileURLToPath(import.meta.url));
const scannerDir = resolve(process.argv[2] ?? join(here, "..", "..", "hardware", "scanner"));
const script = resolve(process.argv[3] ?? join(here, "scenario.py"));
const scriptModule = basename(script, ".py");
const BOARD_FILES = ["obelisk_proto.py", "scanner.py", "code.py"];
// About what CircuitPython leaves free on a Raspberry Pi Pico (RP2040, 264 KB of RAM).
const HEAP_BYTES = 192 * 1024;

const mp = await loadMicroPython({
  heapsize: HEAP_BYTES,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

mp.FS.mkdir("/board");
for (const name of BOARD_FILES) {
  mp.FS.writeFile(join("/board", name), readFileSync(join(scannerDir, name)));
}
mp.FS.writeFile(`/board/${scriptModule}.py`, readFileSync(script));

try {
  mp.runPython([
    "import sys",
    "sys.path.insert(0, '/board')",
    "print('micropython', '.'.join(str(n) for n in sys.implementation.version))",
    "import code",
    `import ${scriptModule}`,
    `${scriptModule}.main(code)`,
  ].join("\n"));
} catch (error) {
  process.stderr.write(`MicroPython raised:\n${error.message ?? error}\n`);
  process.exitCode = 1;
}
