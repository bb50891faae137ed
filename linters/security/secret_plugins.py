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


class OpenAIProjectKeyDetector(RegexBasedDetector):
    """OpenAI project, service-account and admin keys (`sk-proj-...`), which the bundled
    OpenAIDetector misses when `-` or `_` sits near their `T3BlbkFJ` marker."""

    secret_type = "OpenAI Project Key"
    denylist = [re.compile(r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}")]


class AnthropicKeyDetector(RegexBasedDetector):
    """Anthropic API and admin keys (`sk-ant-api03-...`, `sk-ant-admin01-...`)."""

    secret_type = "Anthropic API Key"
    denylist = [re.compile(r"\bsk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_-]{40,}")]


class GitHubFineGrainedTokenDetector(RegexBasedDetector):
    """GitHub fine-grained personal access tokens (`github_pat_<22>_<59>`)."""

    secret_type = "GitHub Fine-Grained Token"
    denylist = [re.compile(r"\bgithub_pat_[A-Za-z0-9]{20,}_[A-Za-z0-9]{40,}")]


class GoogleApiKeyDetector(RegexBasedDetector):
    """Google API keys (`AIza` and 35 characters), as passed in `&key=...`."""

    secret_type = "Google API Key"
    denylist = [re.compile(r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])")]


class NpmGranularTokenDetector(RegexBasedDetector):
    """npm access tokens (`npm_` and 36 characters); the bundled NpmDetector only reads
    `_authToken=` lines of .npmrc."""

    secret_type = "npm Access Token"
    denylist = [re.compile(r"\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])")]


class GroqKeyDetector(RegexBasedDetector):
    """Groq API keys (`gsk_` and 52 characters)."""

    secret_type = "Groq API Key"
    denylist = [re.compile(r"\bgsk_[A-Za-z0-9]{48,}")]


class XaiKeyDetector(RegexBasedDetector):
    """xAI API keys (`xai-` and 80 characters)."""

    secret_type = "xAI API Key"
    denylist = [re.compile(r"\bxai-[A-Za-z0-9]{70,}")]


class ReplicateTokenDetector(RegexBasedDetector):
    """Replicate API tokens (`r8_` and 37 characters)."""

    secret_type = "Replicate API Token"
    denylist = [re.compile(r"\br8_[A-Za-z0-9]{37}(?![A-Za-z0-9])")]


class UrlQueryKeyDetector(RegexBasedDetector):
    """A key passed in a URL's query string (`?api_key=...`, `&key=...`,
    `?access_token=...`): the value is the secret, and it also leaks into every proxy and
    server log the URL passes. Placeholders (`YOUR_KEY`, `{key}`, `$KEY`) do not match:
    the value must be 20+ URL-safe characters (the placeholder filters then apply)."""

    secret_type = "API key in a URL query string"
    denylist = [re.compile(
        r"[?&](?:api[_-]?key|apikey|key|access[_-]?token|auth[_-]?token|token|"
        r"client[_-]?secret|secret|private[_-]?token)="
        r"([A-Za-z0-9_\-.~]{20,})",
        re.IGNORECASE,
    )]
