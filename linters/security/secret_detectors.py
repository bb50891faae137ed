"""detect-secrets' regex plugins for SF504, without importing detect-secrets on every run.

Importing detect-secrets costs ~85 ms (its plugins import `requests`), and on most skills no
plugin's regex matches anything. So the plugins' regexes (pattern and flags), names, labels
and whether `analyze_string` is the plain `RegexBasedDetector` one are kept in the cache dir
(`secret-detectors/`), named after detect-secrets' plugin files (path, size, mtime). A run
compiles those copies, which match exactly what the plugins' own regexes match, and imports
detect-secrets only when it needs a plugin itself: a match for a plugin with its own
`analyze_string` (the JWT one checks the token's form). A missing, stale or damaged copy
means the plugins are imported, as before, and the copy is written again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linters.text.compiled_regex import rx
from linters.caches import cache_dir

# Bump when the shape of the kept table changes.
TABLE_SCHEMA = 2
# Our own detect-secrets plugins for key formats it does not know yet (issue 36), loaded the
# way detect-secrets loads any custom plugin file.
CUSTOM_PLUGINS_FILE = Path(__file__).with_name("secret_plugins.py")
# Detectors that are not about secrets in a skill: a public IP is SF507's business.
SKIP_PLUGINS = {"IPPublicDetector"}
# Literal gates per plugin class (lower-case ones are checked on the lower-cased window):
# a plugin's regexes only run on a window that holds one. Plugins not listed here (a newer
# detect-secrets) run on every token window: correct, only slower.
GATES: dict[str, tuple[str, ...]] = {
    "ArtifactoryDetector": ("AKC", "AP"),
    "AWSKeyDetector": ("A3T", "ABIA", "ACCA", "AKIA", "ASIA", "aws"),
    "AzureStorageKeyDetector": ("AccountKey=",),
    "BasicAuthDetector": ("@",),
    "CloudantDetector": ("cl",),
    "DiscordBotTokenDetector": (".",),
    "GitHubTokenDetector": ("gh",),
    "GitLabTokenDetector": ("gl", "GR1348941"),
    "IbmCloudIamDetector": ("key", "pwd", "pass", "token"),
    "IbmCosHmacDetector": ("secret",),
    "JwtTokenDetector": ("eyJ",),
    "MailchimpDetector": ("-us",),
    "NpmDetector": ("_authtoken",),
    "OpenAIDetector": ("T3BlbkFJ",),
    "PrivateKeyDetector": ("private key",),
    "PypiTokenDetector": ("pypi-",),
    "SendGridDetector": ("SG.",),
    "SlackDetector": ("xox", "hooks.slack.com"),
    "SoftlayerDetector": ("softlayer", "sl"),
    "SquareOAuthDetector": ("sq0csp-",),
    "StripeDetector": ("k_live_",),
    "TelegramBotTokenDetector": (":",),
    "TwilioKeyDetector": ("AC", "SK"),
    # linters/security/secret_plugins.py
    "AnthropicKeyDetector": ("sk-ant-",),
    "GitHubFineGrainedTokenDetector": ("github_pat_",),
    "GoogleApiKeyDetector": ("AIza",),
    "GroqKeyDetector": ("gsk_",),
    "NpmGranularTokenDetector": ("npm_",),
    "OpenAIProjectKeyDetector": ("sk-proj-", "sk-svcacct-", "sk-admin-"),
    "ReplicateTokenDetector": ("r8_",),
    "UrlQueryKeyDetector": ("key=", "token=", "secret="),
    "XaiKeyDetector": ("xai-",),
}


@dataclass(frozen=True)
class Detector:
    name: str
    label: str
    gates: tuple[str, ...]
    denylist: tuple[re.Pattern[str], ...]  # the plugin's regexes, or exact copies of them
    plain: bool  # analyze_string is RegexBasedDetector's: findall over the denylist

    def analyze_string(self, text: str) -> Any:
        """What the plugin's `analyze_string(text)` yields."""
        if self.plain:
            return _findall(self.denylist, text)
        if not any(rx.search(text) for rx in self.denylist):
            return iter(())  # its own analyze_string filters the denylist's findings
        return plugin(self.name).analyze_string(text)


def _findall(denylist: tuple[re.Pattern[str], ...], text: str) -> Any:
    # RegexBasedDetector.analyze_string, line for line.
    for regex in denylist:
        for match in regex.findall(text):
            if isinstance(match, tuple):
                yield from filter(bool, match)
            else:
                yield match


_lock = threading.Lock()
_detectors: list[Detector] | None = None
_plugins: dict[str, Any] | None = None


def detectors() -> list[Detector]:
    """The regex plugins, from the kept table when it is current, else from detect-secrets."""
    global _detectors
    with _lock:
        if _detectors is None:
            path = table_path()
            _detectors = _read_table(path) if path is not None else None
            if _detectors is None:
                _detectors = _from_plugins(_load_plugins())
                if path is not None:
                    _write_table(path, _detectors)
        return _detectors


def plugin(name: str) -> Any:
    """detect-secrets' own plugin object (imports detect-secrets the first time)."""
    with _lock:
        return _load_plugins()[name]


def _load_plugins() -> dict[str, Any]:
    # Called under _lock. Sorted by secret type, as the table is.
    global _plugins
    if _plugins is None:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.plugins.base import RegexBasedDetector

        from detect_secrets.core.plugins.util import get_plugins_from_file

        mapping = dict(get_mapping_from_secret_type_to_class())
        for cls in get_plugins_from_file(str(CUSTOM_PLUGINS_FILE)):
            mapping.setdefault(cls.secret_type, cls)
        _plugins = {}
        for _label, cls in sorted(mapping.items()):
            if issubclass(cls, RegexBasedDetector) and cls.__name__ not in SKIP_PLUGINS:
                _plugins[cls.__name__] = cls()
    return _plugins


def _from_plugins(plugins: dict[str, Any]) -> list[Detector]:
    from detect_secrets.plugins.base import RegexBasedDetector

    return [
        Detector(name, p.secret_type, GATES.get(name, ()), tuple(p.denylist),
                 type(p).analyze_string is RegexBasedDetector.analyze_string)
        for name, p in plugins.items()
    ]


def table_path() -> Path | None:
    """The kept table's path, named after detect-secrets' plugin files; None when
    detect-secrets is not installed (importing it then fails as it always did)."""
    try:
        spec = importlib.util.find_spec("detect_secrets")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    parts = [str(TABLE_SCHEMA), str(root)]
    for folder in (root / "plugins", root / "core" / "plugins", root):
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(".py"))
        except OSError:
            return None
        for name in names:
            try:
                st = (folder / name).stat()
            except OSError:
                return None
            parts += [str(folder / name), str(st.st_size), str(st.st_mtime_ns)]
    try:
        st = CUSTOM_PLUGINS_FILE.stat()
    except OSError:
        return None
    parts += [str(CUSTOM_PLUGINS_FILE), str(st.st_size), str(st.st_mtime_ns)]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    return cache_dir("secret-detectors") / f"table-{key}.json"


def _read_table(path: Path) -> list[Detector] | None:
    try:
        rows = json.loads(path.read_bytes())
        out = []
        for name, label, patterns, plain in rows:
            if not (isinstance(name, str) and isinstance(label, str) and isinstance(plain, bool)
                    and isinstance(patterns, list) and patterns):
                return None
            denylist = tuple(rx(p, f) for p, f in patterns
                             if isinstance(p, str) and isinstance(f, int))
            if len(denylist) != len(patterns):
                return None
            out.append(Detector(name, label, GATES.get(name, ()), denylist, plain))
    except (OSError, ValueError, TypeError, re.error):
        return None
    return out or None


def _write_table(path: Path, dets: list[Detector]) -> None:
    rows = [[d.name, d.label, [[rx.pattern, rx.flags] for rx in d.denylist], d.plain]
            for d in dets]
    if any(not isinstance(rx.pattern, str) for d in dets for rx in d.denylist):
        return  # only str patterns are kept: anything else is read from the plugins
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(rows, out)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def forget() -> None:
    """Forget what this process loaded (as a new process would); the kept table stays."""
    global _detectors, _plugins
    with _lock:
        _detectors = _plugins = None
