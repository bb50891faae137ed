"""Trigger wording: the words in a description that tell an agent when to load a skill.

Shared by SF202 (a description with none) and SF705 (trigger words a harness's skill listing
cuts off), so the two agree on what counts as one.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx

# SF202 and SF705: wording that tells the agent in which situation to load the skill.
TRIGGER = rx(
    r"""
    \buse[sd]?\b(?:\s+(?:this|it|me|them|the\s+[\w-]+))?(?:\s+skill)?
        \s+(?:when|whenever|if|for|to|before|after|on|in|during|while|as|with|only)\b
    | \b(?:when|whenever|if|once|after|before|while)\s+(?:the\s+|a\s+|an\s+|any\s+)?
        (?:user|users|you|someone|people|asked|requested|working|dealing|handling|writing
        |creating|building|editing|reviewing|debugging|auditing|implementing|starting|about)\b
    | \bwhenever\b | \bif\s+asked\b
    | \btrigger(?:s|ed)?\b
    | \b(?:should|must|can|may)\s+be\s+(?:used|invoked|loaded|applied|triggered)\b
    | \b(?:invoke|activate|load|apply|call|consult|read|run|pick|choose)\s+
        (?:this\s+(?:skill\s+)?|it\s+)?(?:when|whenever|if|before|after)\b
    | \b(?:useful|helpful|relevant|needed|ideal|best|perfect|great|good|suited|suitable
        |intended|meant|designed|applicable|appropriate|recommended|preferred)\s+
        (?:for|when|if|to|in|whenever)\b
    | \bfor\s+(?:[\w-]+\s+){0,3}?(?!(?:any|every|some|no)thing\b|string|during\b|ring|king\b|spring)
        \w{3,}ing\b
    """,
    re.IGNORECASE | re.VERBOSE,
)

