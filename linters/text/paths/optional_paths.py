"""Files the text has the agent read only if they exist (SF116, issue 36).

"### Step 4: Load Framework Reference (if available)" over "If framework-specific reference
exists, load it:" and a list of `references/go/cobra.md`, `references/ruby/rails.md`...: the
skill tells the agent to look for each file and to go on without it; a missing one is a
gap in coverage worth a look, not an instruction that fails. Read in the sentence holding
the path, the lead-in line of the list it is an item of, and the title of its section.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx
from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import Paragraph
from linters.text.sections import list_lead_in, section_title

# "if available", "if it exists", "if one is present", "if a framework-specific reference
# exists", "where present", "when available". Not "optional": that makes the reading
# optional, not the file ("Optional: see [advanced](references/advanced.md)" must exist).
_OPTIONAL = rx(
    r"\bif\s+(?:(?:it|they|one|any|such)\s+)?(?:is\s+|are\s+)?(?:available|exists?|present)\b"
    r"|\bif\s+(?:an?\s+|the\s+|any\s+)?[\w-]+(?:\s+[\w-]+){0,3}\s+(?:exists?|(?:is|are)\s+"
    r"(?:available|present))\b"
    r"|\b(?:where|when)\s+(?:present|available)\b",
    re.IGNORECASE,
)
_LIST_ITEM = rx(r"^\s*(?:[-*+]|\d{1,9}[.)])\s")
_LEAD_REACH = 40  # list items walked over to the lead-in line


def read_if_present(doc: MarkdownDoc, line_no: int, para: Paragraph | None,
                    offset: int) -> bool:
    """The path at `offset` of `para` (line `line_no`) is one the text has the agent read
    only if it exists: its sentence, its list's lead-in or its section's title says so."""
    if para is not None and para.sentence_has(_OPTIONAL, offset):
        return True
    lead = list_lead_in(doc, line_no, _LIST_ITEM, _LEAD_REACH)
    if lead and _OPTIONAL.search(lead):
        return True
    return bool(_OPTIONAL.search(section_title(doc, line_no)))
