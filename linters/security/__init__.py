"""Security rules (SF5xx): a skill is untrusted text that an agent reads and follows.

`security.py` holds the checks: one scan per file runs the scanners (`injection`,
`secret_scan`, `risky_urls`, `risky_commands`, `credential_access`, `agent_commands`,
`cli_credentials`) over a shared `security_context.SecurityText`, and `text_role` weighs each
hit by the role of the text around it. Shipped executables (SF514) are `shipped_binaries`.
"""
