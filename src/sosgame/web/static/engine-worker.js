// The engine on this device: Pyodide runs the sosgame wheel here, off the page's thread, so
// that the page never freezes while the computer thinks. The rules and the computer's moves
// are the Python engine's (sosgame.ai.device); this worker only carries messages.
// A message is {id, op, args}; the answer {id, ok: true, value} or {id, ok: false, error}.
let engine = null;

async function boot({ pyodide: folder, engine: wheelUrl }) {
  const started = performance.now();
  const { loadPyodide } = await import(`${folder}pyodide.mjs`);
  // The engine's notices (numba missing: plain Python is expected here) go nowhere.
  const py = await loadPyodide({ indexURL: folder, stdout: () => {}, stderr: () => {} });
  const wheel = await fetch(wheelUrl);
  if (!wheel.ok) throw new Error(`${wheelUrl}: ${wheel.status}`);
  py.unpackArchive(new Uint8Array(await wheel.arrayBuffer()), "wheel");
  const device = py.pyimport("sosgame.ai.device");
  return { py, device, seconds: (performance.now() - started) / 1000 };
}

function lastLine(error) {
  const text = String(error && error.message ? error.message : error).trim();
  return text.split("\n").pop();
}

self.addEventListener("message", async (event) => {
  const { id, op, args } = event.data;
  try {
    if (op === "boot") engine ??= boot(args);
    if (!engine) throw new Error("the engine was not started");
    const { py, device, seconds } = await engine;
    let value;
    if (op === "boot") value = { seconds, python: py.runPython("import sys; sys.version.split()[0]") };
    else if (op === "start") value = JSON.parse(device.start(JSON.stringify(args)));
    else if (op === "resume") value = JSON.parse(device.resume(JSON.stringify(args)));
    else if (op === "act") value = JSON.parse(device.act(JSON.stringify(args)));
    else if (op === "state") value = JSON.parse(device.state());
    // Python code's result as text: the rule tests run here and the benchmark's timings.
    else if (op === "run") value = String(py.runPython(args.code));
    else throw new Error(`no operation ${op}`);
    self.postMessage({ id, ok: true, value });
  } catch (error) {
    if (op === "boot") engine = null; // a failed start may be tried again
    self.postMessage({ id, ok: false, error: lastLine(error) });
  }
});
