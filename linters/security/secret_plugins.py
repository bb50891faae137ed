"""detect-secrets plugins for key formats detect-secrets 1.5 does not know (issue 36).

A detect-secrets custom-plugin file: `linters.security.secret_detectors` loads it through
detect-secrets' own loader (`get_plugins_from_file`, what `--plugin` does on the command
line), so these run exactly like the bundled plugins, behind the same placeholder filters.
Each regex follows the format the issuer publishes; the lengths are lower bounds, so a
format that grows keeps matching. Imported only when the plugins are (never at lint start).
"""

from __future__ import annotations

import re

from detect_secrets.plugins.base import RegexBasedDetector

# One row a key format: the plugin's class name (what secret_detectors.GATES and the
# findings name it by), the secret type detect-secrets reports, and the regex.
KEY_FORMATS: tuple[tuple[str, str, str], ...] = (
    # OpenAI project, service-account and admin keys (`sk-proj-...`), which the bundled
    # OpenAIDetector misses when `-` or `_` sits near their `T3BlbkFJ` marker.
    ("OpenAIProjectKeyDetector", "OpenAI Project Key",
     r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}"),
    # Anthropic API and admin keys (`sk-ant-api03-...`, `sk-ant-admin01-...`).
    ("AnthropicKeyDetector", "Anthropic API Key",
     r"\bsk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_-]{40,}"),
    # GitHub fine-grained personal access tokens (`github_pat_<22>_<59>`).
    ("GitHubFineGrainedTokenDetector", "GitHub Fine-Grained Token",
     r"\bgithub_pat_[A-Za-z0-9]{20,}_[A-Za-z0-9]{40,}"),
    # Google API keys (`AIza` and 35 characters), as passed in `&key=...`.
    ("GoogleApiKeyDetector", "Google API Key", r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
    # npm access tokens (`npm_` and 36 characters); the bundled NpmDetector only reads
    # `_authToken=` lines of .npmrc.
    ("NpmGranularTokenDetector", "npm Access Token", r"\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"),
    # Groq API keys (`gsk_` and 52 characters).
    ("GroqKeyDetector", "Groq API Key", r"\bgsk_[A-Za-z0-9]{48,}"),
    # xAI API keys (`xai-` and 80 characters).
    ("XaiKeyDetector", "xAI API Key", r"\bxai-[A-Za-z0-9]{70,}"),
    # Replicate API tokens (`r8_` and 37 characters).
    ("ReplicateTokenDetector", "Replicate API Token", r"\br8_[A-Za-z0-9]{37}(?![A-Za-z0-9])"),
    # A key passed in a URL's query string (`?api_key=...`, `&key=...`, `?access_token=...`):
    # the value is the secret, and it also leaks into every proxy and server log the URL
    # passes. Placeholders (`YOUR_KEY`, `{key}`, `$KEY`) do not match: the value must be 20+
    # URL-safe characters (the placeholder filters then apply).
    ("UrlQueryKeyDetector", "API key in a URL query string",
     r"(?i)[?&](?:api[_-]?key|apikey|key|access[_-]?token|auth[_-]?token|token|"
     r"client[_-]?secret|secret|private[_-]?token)="
     r"([A-Za-z0-9_\-.~]{20,})"),
)


def _plugin(name: str, secret_type: str, regex: str) -> type[RegexBasedDetector]:
    """A RegexBasedDetector subclass `name` whose one regex finds secrets of `secret_type`."""
    return type(name, (RegexBasedDetector,), {
        "__module__": __name__, "secret_type": secret_type, "denylist": [re.compile(regex)],
    })


# detect-secrets finds a plugin file's plugins among its module's attributes.
globals().update({name: _plugin(name, kind, regex) for name, kind, regex in KEY_FORMATS})
