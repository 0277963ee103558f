# Import stubs for the tau2 orchestrator oracle: optional third-party packages become empty modules (nothing of them is used on the paths the oracle runs).
import importlib.abc, importlib.machinery, sys, types
STUB = {"pandas", "litellm", "deepdiff", "toml", "rich", "typer", "tenacity", "httpx", "psutil", "openai",
        "docstring_parser", "tabulate", "requests", "addict", "audioop", "soundfile", "scipy", "numpy_financial",
        "websockets", "elevenlabs", "pydub", "librosa", "rank_bm25", "fastapi", "uvicorn", "sounddevice", "google",
        "anthropic", "boto3", "jinja2", "matplotlib", "seaborn", "plotly", "tqdm", "watchdog", "aiohttp", "dotenv",
        "cartesia", "deepgram", "pyaudio", "webrtcvad", "nltk", "sklearn", "torch", "transformers", "sentence_transformers",
        "faiss", "chromadb", "tiktoken", "jsonschema", "filelock", "redis", "starlette", "sse_starlette", "av", "pyloudnorm",
        "noisereduce", "resampy", "numba", "textual", "questionary", "prompt_toolkit", "click", "yaml_include", "mcp"}
class Dummy:
    def __init__(self, *a, **k): pass
    def __call__(self, *a, **k): return Dummy()
    def __getattr__(self, n): return Dummy()
    def __class_getitem__(cls, item): return cls
    def __iter__(self): return iter(())
    def __or__(self, o): return self
    def __ror__(self, o): return self
class StubModule(types.ModuleType):
    def __getattr__(self, n):
        if n.startswith("__"): raise AttributeError(n)
        return Dummy
class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in STUB:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None
    def create_module(self, spec):
        m = StubModule(spec.name); m.__path__ = []; return m
    def exec_module(self, m): pass
sys.meta_path.insert(0, Finder())
